import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Provider as ProviderType } from 'oidc-provider';
import { escapeHtml, htmlPage } from '#src/http/html-page.ts';

export const DEV_IDP_PATH = '/dev-idp';
export const DEV_CLIENT_ID = 'statboard-dev';

/** The email typed into the development login form becomes the subject, lower-cased. */
export function subjectForEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A display name from an email's local part: `ada.lovelace@x` → `ada.lovelace`. */
export function nameForEmail(email: string): string {
  const at = email.indexOf('@');
  return at > 0 ? email.slice(0, at) : email;
}

export const EMAIL_RE = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/;

/** Reads a small `application/x-www-form-urlencoded` body from the raw request (at most 8 KiB). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > 8192) break;
    chunks.push(buf);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface DevIdp {
  provider: ProviderType;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A real OpenID provider (oidc-provider) for development: one confidential client (the app itself, secret
 * random per process), in-memory storage, RS256 keys made at start, a login form that takes an email and no
 * password, and consent granted automatically to the app. Email and name are put in the ID token.
 */
export async function createDevIdp(publicUrl: string, redirectUri: string): Promise<DevIdp> {
  const { Provider } = await import('oidc-provider');
  const issuer = `${publicUrl}${DEV_IDP_PATH}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };
  const mountPath = new URL(issuer).pathname.replace(/\/$/, '');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // The provider's own pages, as standalone pages of the service: they render under the policy of its HTML
      // answers (the defaults load a web font and carry a style that policy refuses).
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: { body?: unknown }, form: string) {
          ctx.body = htmlPage(
            'Sign out',
            `<h1>Sign out of the development provider?</h1>${form}
<button autofocus class="primary" type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
          );
        },
        async postLogoutSuccessSource(ctx: { body?: unknown }) {
          ctx.body = htmlPage(
            'Signed out',
            '<h1>Signed out</h1><p>You are signed out of the development provider.</p>',
          );
        },
      },
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      const lines = Object.entries(out).map(([k, v]) => `<p><strong>${escapeHtml(k)}</strong>: ${escapeHtml(v)}</p>`);
      ctx.body = htmlPage('Sign-in problem', `<h1>Sign-in problem</h1>${lines.join('')}`);
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    pkce: { required: () => true },
    // Every typed email is claimed verified, so roles can be given by email in development. The provider lets
    // anyone sign in as anyone and never runs in production (see the warning in auth/login.ts).
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: () => ({ sub, email: sub, email_verified: true, name: nameForEmail(sub), preferred_username: sub }),
      };
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    // The only client is the app itself: consent is implied.
    async loadExistingGrant(ctx) {
      const client = ctx.oidc.client;
      const accountId = ctx.oidc.session?.accountId;
      if (!client || !accountId) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  });
  return { provider, issuer, clientId: DEV_CLIENT_ID, clientSecret };
}
