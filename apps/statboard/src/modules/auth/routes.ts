import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { assertSameOrigin, SESSION_COOKIE } from '#src/access/admin-guard.ts';
import type { Config } from '#src/config.ts';
import { AppError } from '#src/errors.ts';
import { errorResponses } from '#src/http/schemas.ts';
import { LOGIN_TTL_MS, type SessionService } from '#src/modules/sessions/service.ts';
import type { UserService } from '#src/modules/users/service.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import type { OidcClient } from './oidc.ts';
import { sendAuthError } from './pages.ts';
import { safeReturnTo } from './return-to.ts';

/** Short-lived cookie naming the login in progress (its state, nonce and PKCE verifier are in the database). */
export const LOGIN_COOKIE = 'statboard_login';

/** What login uses: admin sessions and users. */
export interface AuthServices {
  sessions: SessionService;
  users: UserService;
}

export interface AuthDeps {
  config: Config;
  services: AuthServices;
  /** null: login is unavailable, for `unavailableReason`. */
  oidc: OidcClient | null;
  unavailableReason: string;
  /** Logins started per minute from one address (each stores a pending login for 10 minutes). */
  limits?: RequestLimits;
}

function cookieBase(config: Config): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.publicUrl.startsWith('https:') };
}

/** `GET /auth/login`, `GET /auth/callback`, `POST /auth/logout` (outside /api/v1). */
export function authRoutes({ config, services, oidc, unavailableReason, limits }: AuthDeps): FastifyPluginAsyncTypebox {
  const base = cookieBase(config);
  const loginCookie: CookieSerializeOptions = { ...base, path: '/auth', maxAge: LOGIN_TTL_MS / 1000 };
  const sessionCookie: CookieSerializeOptions = {
    ...base,
    path: '/',
    maxAge: Math.floor(services.sessions.maxMs / 1000),
  };

  const clientOrFail = (): OidcClient => {
    if (oidc === null) throw new AppError('SERVICE_UNAVAILABLE', unavailableReason);
    return oidc;
  };

  return async (app) => {
    app.setErrorHandler((err, request, reply) => sendAuthError(request, reply, err));
    // A plain HTML form may post to /auth/logout; its (empty) body carries nothing we need.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
      done(null, {}),
    );

    app.get(
      '/auth/login',
      {
        schema: {
          tags: ['Auth'],
          operationId: 'login',
          summary: 'Starts an OpenID Connect login (authorization code + PKCE) and redirects to the provider',
          security: [],
          querystring: Type.Object({
            return_to: Type.Optional(Type.String({ description: 'Local path to return to after login' })),
          }),
          response: {
            302: Type.Null({ description: 'Redirect to the identity provider' }),
            ...errorResponses(400, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const raw = request.query.return_to;
        const returnTo = raw === undefined ? '/' : safeReturnTo(raw);
        if (returnTo === null) {
          throw new AppError('BAD_REQUEST', 'return_to must be a local path such as /admin (not another site).');
        }
        await limits?.loginStart(request);
        const begun = await clientOrFail().begin();
        const id = await services.sessions.beginLogin({
          state: begun.state,
          nonce: begun.nonce,
          codeVerifier: begun.codeVerifier,
          returnTo,
        });
        reply.setCookie(LOGIN_COOKIE, id, loginCookie);
        return reply.redirect(begun.url, 302);
      },
    );

    app.get(
      '/auth/callback',
      {
        schema: {
          tags: ['Auth'],
          operationId: 'loginCallback',
          summary: "The provider's redirect back: verifies the login, starts a session, redirects to return_to",
          security: [],
          querystring: Type.Object({}, { additionalProperties: true }),
          response: {
            303: Type.Null({ description: 'Signed in: redirect to return_to with the session cookie set' }),
            ...errorResponses(400, 503),
          },
        },
      },
      async (request, reply) => {
        const client = clientOrFail();
        const pending = await services.sessions.takeLogin(request.cookies[LOGIN_COOKIE]);
        reply.clearCookie(LOGIN_COOKIE, { ...base, path: '/auth' });
        if (!pending) {
          throw new AppError(
            'BAD_REQUEST',
            'This login expired, was already completed, or your browser did not keep its cookie. Start the login again.',
          );
        }
        const query = request.query as Record<string, unknown>;
        if (query.state !== pending.state) {
          throw new AppError('BAD_REQUEST', 'Login failed: the state parameter does not match. Start the login again.');
        }
        const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        const identity = await client.finish(new URL(`${client.redirectUri}?${rawQuery}`), pending);
        const user = await services.users.upsertFromLogin(identity, new Date(services.sessions.now()));
        // A new session id at every login (no session fixation); a previous session of this browser ends.
        await services.sessions.destroy(request.cookies[SESSION_COOKIE]);
        const session = await services.sessions.create(user.id);
        reply.setCookie(SESSION_COOKIE, session.id, sessionCookie);
        request.log.info({ user_id: user.id }, 'signed in');
        return reply.redirect(pending.returnTo, 303);
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags: ['Auth'],
          operationId: 'logout',
          summary: 'Ends the session: 204 for Accept: application/json, else 303 to /',
          security: [{ sessionCookie: [] }],
          response: {
            204: Type.Null({ description: 'Signed out' }),
            303: Type.Null({ description: 'Signed out: redirect to /' }),
            ...errorResponses(403),
          },
        },
      },
      async (request, reply: FastifyReply) => {
        assertSameOrigin(request, config.publicUrl);
        await services.sessions.destroy(request.cookies[SESSION_COOKIE]);
        reply.clearCookie(SESSION_COOKIE, { ...base, path: '/' });
        if (/application\/json/i.test(request.headers.accept ?? '')) return reply.code(204).send();
        return reply.redirect('/', 303);
      },
    );
  };
}
