import type { FastifyBaseLogger } from 'fastify';
import * as client from 'openid-client';
import { AppError } from '#src/errors.ts';
import type { Identity } from '#src/modules/users/service.ts';

/** Where the identity provider is and who we are there. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Allows an `http://` issuer (config.ts admits it only on loopback; the embedded provider is our own). */
  allowHttp: boolean;
}

export const SCOPES = 'openid profile email';
const TIMEOUT_SECONDS = 10;

/** A network failure or timeout (the provider is down), as opposed to an answer we refuse. */
function isUnreachable(err: unknown): boolean {
  if (err instanceof TypeError) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * The email of a claim set (ID token or userinfo) and whether the provider verified it: `email_verified` must be
 * the boolean true in the same set (OIDC Core 1.0, section 5.1); absent or anything else is unverified.
 */
function emailOf(claims: Record<string, unknown>): { address: string; verified: boolean } | null {
  if (typeof claims.email !== 'string') return null;
  return { address: claims.email, verified: claims.email_verified === true };
}

/**
 * The application's OpenID Connect client (openid-client 6): authorization code with PKCE S256, state and
 * nonce, ID token signature checked against the provider's JWKS. Discovery happens lazily at the first login
 * (the embedded provider is only reachable once the server listens) and is retried after a failure.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | null = null;

  /**
   * @param resolveSettings when given, supplies the settings at discovery time (the embedded provider makes
   *   its client secret when first used).
   */
  constructor(
    readonly settings: OidcSettings,
    readonly redirectUri: string,
    private readonly log: FastifyBaseLogger,
    private readonly resolveSettings?: () => Promise<OidcSettings>,
  ) {}

  private async discover(): Promise<client.Configuration> {
    const settings = this.resolveSettings ? await this.resolveSettings() : this.settings;
    const { issuer, clientId, clientSecret, allowHttp } = settings;
    const execute = [client.enableNonRepudiationChecks];
    if (allowHttp) execute.push(client.allowInsecureRequests);
    const auth = clientSecret === null ? client.None() : client.ClientSecretBasic(clientSecret);
    let config = await client.discovery(new URL(issuer), clientId, clientSecret ?? undefined, auth, {
      execute,
      timeout: TIMEOUT_SECONDS,
    });
    // OIDC Discovery: an absent list means client_secret_basic; use client_secret_post only when it is all
    // the provider offers.
    const methods = config.serverMetadata().token_endpoint_auth_methods_supported;
    if (
      clientSecret !== null &&
      methods !== undefined &&
      !methods.includes('client_secret_basic') &&
      methods.includes('client_secret_post')
    ) {
      config = new client.Configuration(
        config.serverMetadata(),
        clientId,
        clientSecret,
        client.ClientSecretPost(clientSecret),
      );
      for (const fn of execute) fn(config);
    }
    config.timeout = TIMEOUT_SECONDS;
    return config;
  }

  /** The discovered configuration; 503 while the provider cannot be reached or answers wrongly. */
  async config(): Promise<client.Configuration> {
    if (this.configuration === null) {
      const pending = this.discover();
      this.configuration = pending;
      pending.catch(() => {
        if (this.configuration === pending) this.configuration = null;
      });
    }
    try {
      return await this.configuration;
    } catch (err) {
      this.log.error({ err, issuer: this.settings.issuer }, 'OIDC discovery failed');
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `Login is unavailable: the identity provider (${this.settings.issuer}) could not be reached or did not answer with valid discovery metadata. Try again later.`,
        undefined,
        { cause: err },
      );
    }
  }

  /** The provider's authorization URL for a new login, and the secrets to check its answer with. */
  async begin(): Promise<{ url: string; state: string; nonce: string; codeVerifier: string }> {
    const config = await this.config();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: SCOPES,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /**
   * Completes a login from the callback URL: exchanges the code (PKCE), verifies state, nonce and the ID
   * token (signature through JWKS, iss, aud, exp), and reads email (with `email_verified` from the same
   * source) and name from the ID token or userinfo.
   */
  async finish(callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<Identity> {
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw this.failure(err);
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError('BAD_REQUEST', 'Login failed: the identity provider sent no ID token.');
    let email = emailOf(claims);
    let name = typeof claims.name === 'string' ? claims.name : null;
    let preferred = typeof claims.preferred_username === 'string' ? claims.preferred_username : null;
    if ((email === null || name === null) && config.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        email ??= emailOf(info);
        name ??= typeof info.name === 'string' ? info.name : null;
        preferred ??= typeof info.preferred_username === 'string' ? info.preferred_username : null;
      } catch (err) {
        this.log.warn({ err }, 'OIDC userinfo request failed; continuing with the ID token claims');
      }
    }
    const displayName = (name ?? preferred ?? email?.address ?? claims.sub).slice(0, 255);
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: email?.address.slice(0, 320) ?? null,
      // A shortened address is not the one the provider verified.
      emailVerified: email?.verified === true && email.address.length <= 320,
      displayName,
    };
  }

  private failure(err: unknown): AppError {
    if (err instanceof client.AuthorizationResponseError) {
      return new AppError(
        'BAD_REQUEST',
        `Login failed: the identity provider answered '${err.error}'${err.error_description ? ` (${err.error_description})` : ''}.`,
        undefined,
        { cause: err },
      );
    }
    if (isUnreachable(err)) {
      this.log.error({ err }, 'OIDC token request failed');
      return new AppError(
        'SERVICE_UNAVAILABLE',
        'Login failed: the identity provider could not be reached. Try again later.',
        undefined,
        { cause: err },
      );
    }
    if (err instanceof client.ResponseBodyError) {
      return new AppError(
        'BAD_REQUEST',
        `Login failed: the identity provider refused the code ('${err.error}'). Start the login again.`,
        undefined,
        { cause: err },
      );
    }
    this.log.warn({ err }, 'OIDC response failed verification');
    // openid-client wraps oauth4webapi's error, which names the failed check (nonce, iss, aud, signature…).
    const message = err instanceof Error ? err.message : 'invalid response';
    const cause = err instanceof Error ? err.cause : undefined;
    const detail = cause instanceof Error ? `${message}: ${cause.message}` : message;
    return new AppError(
      'BAD_REQUEST',
      `Login failed: the identity provider's answer did not pass verification (${detail}). Start the login again.`,
      undefined,
      { cause: err },
    );
  }
}
