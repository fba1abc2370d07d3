/**
 * The parts of oidc-provider 9 (which ships no types) that Statboard and its tests use.
 * See https://github.com/panva/node-oidc-provider/blob/main/docs/README.md.
 */
declare module 'oidc-provider' {
  type Req = import('node:http').IncomingMessage;
  type Res = import('node:http').ServerResponse;

  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  interface Account {
    accountId: string;
    claims(use: string, scope: string): AccountClaims | Promise<AccountClaims>;
  }

  interface KoaContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
    [key: string]: unknown;
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
  }

  interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[]; names?: Record<string, string> };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    clientAuthMethods?: string[];
    features?: Record<string, unknown>;
    findAccount?: (ctx: KoaContext, sub: string) => Promise<Account | undefined>;
    interactions?: { url: (ctx: KoaContext, interaction: Interaction) => Promise<string> | string };
    loadExistingGrant?: (ctx: KoaContext) => Promise<Grant | undefined>;
    renderError?: (
      ctx: KoaContext & { body?: unknown; type?: string },
      out: Record<string, string>,
      error: Error,
    ) => Promise<void>;
    ttl?: Record<string, number>;
    pkce?: { required?: () => boolean };
    [key: string]: unknown;
  }

  class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: {
      new (init: { clientId: string; accountId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    callback(): (req: Req, res: Res) => void;
    interactionDetails(req: Req, res: Res): Promise<Interaction>;
    interactionFinished(
      req: Req,
      res: Res,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: Req,
      res: Res,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export type { Account, Configuration, Interaction, KoaContext };
  export { Provider };
}
