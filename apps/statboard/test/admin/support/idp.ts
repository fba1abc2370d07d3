import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

/** A real OpenID provider (oidc-provider) on 127.0.0.1, started by the tests themselves. */
export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** When set, the signature of the next ID tokens from the token endpoint is altered. */
  tamperIdToken: boolean;
  /** Client authentication methods seen at the token endpoint. */
  tokenAuth: string[];
  /** What the provider claims for a login name (typed in its form; also the subject); see `TestAccount`. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

/**
 * Claims of one account. By default the login name is the email, verified. Another email lets two subjects
 * share an address; `emailVerified: false` claims an address the provider did not verify; null leaves it out.
 */
export interface TestAccount {
  email?: string;
  emailVerified?: boolean | null;
}

export interface TestIdpOptions {
  redirectUri: string;
  /** Email and name in the ID token (default: only in userinfo, as oidc-provider does by default). */
  claimsInIdToken?: boolean;
  /** Token endpoint authentication methods the provider offers (default: all). */
  clientAuthMethods?: string[];
  tokenEndpointAuthMethod?: string;
  /** Names for the accounts; default: the email's local part. */
  names?: Record<string, string>;
  /** Initial `TestIdp.accounts`. */
  accounts?: Record<string, TestAccount>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestIdp(opts: TestIdpOptions): Promise<TestIdp> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'statboard-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map(Object.entries(opts.accounts ?? {}));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: opts.tokenEndpointAuthMethod ?? 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: opts.claimsInIdToken !== true,
    ...(opts.clientAuthMethods ? { clientAuthMethods: opts.clientAuthMethods } : {}),
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: () => {
          const account = accounts.get(sub) ?? {};
          const verified = account.emailVerified === undefined ? true : account.emailVerified;
          return {
            sub,
            email: account.email ?? sub,
            ...(verified === null ? {} : { email_verified: verified }),
            name: opts.names?.[sub] ?? sub.split('@')[0],
          };
        },
      };
    },
    interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
    async loadExistingGrant(ctx) {
      const client = ctx.oidc.client;
      const accountId = ctx.oidc.session?.accountId;
      if (!client || !accountId) return undefined;
      const id = ctx.oidc.session?.grantIdFor(client.clientId);
      if (id) return ctx.oidc.provider.Grant.find(id);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    tamperIdToken: false,
    tokenAuth: [],
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  handle = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const m = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      res.setHeader('content-type', 'text/html');
      res.end(`<form method="post" action="/interaction/${m[1]}"><input name="email"></form>`);
      return;
    }
    if (m && req.method === 'POST') {
      void (async () => {
        const email = new URLSearchParams(await readBody(req)).get('email') ?? '';
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: email } },
          { mergeWithLastSubmission: false },
        );
      })();
      return;
    }
    if (url.pathname === '/token') {
      const auth = req.headers.authorization;
      idp.tokenAuth.push(auth?.startsWith('Basic ') ? 'client_secret_basic' : 'client_secret_post');
      if (idp.tamperIdToken) {
        const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
        res.end = ((chunk?: unknown) => {
          if (chunk !== undefined && typeof chunk !== 'function') {
            const body = JSON.parse(Buffer.from(chunk as Buffer | string).toString('utf8')) as { id_token?: string };
            if (body.id_token) {
              const [h, p, s] = body.id_token.split('.') as [string, string, string];
              const flipped = s[10] === 'A' ? 'B' : 'A';
              body.id_token = `${h}.${p}.${s.slice(0, 10)}${flipped}${s.slice(11)}`;
            }
            const text = JSON.stringify(body);
            if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(text));
            return end(text);
          }
          return end(chunk);
        }) as typeof res.end;
      }
    }
    callback(req, res);
  };
  return idp;
}
