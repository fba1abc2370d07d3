import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '#src/config.ts';
import { AppError } from '#src/errors.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { bearerToken } from './key-guard.ts';
import type { KeyVerifier } from './key-verifier.ts';
import type { Actor, Member, Principal } from './principal.ts';
import { allows, type Permission } from './roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of an admin route (set by `requireSession`). */
    principal: Principal | null;
  }
}

/** Name of the admin session cookie (the OpenAPI `sessionCookie` scheme). */
export const SESSION_COOKIE = 'statboard_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Cross-site request forgery check of state-changing requests: an `Origin` header must be PUBLIC_URL's
 * origin (`null` included, it never matches). Without `Origin`, a `Referer` must match instead. With neither
 * the request is accepted: browsers send `Origin` on every non-GET request (Fetch standard), so such a request
 * does not come from a browser page, and the `SameSite=Lax` cookie is not sent on cross-site POSTs anyway.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const expected = new URL(publicUrl).origin;
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === expected;
  const referer = request.headers.referer;
  if (referer !== undefined) return originOf(referer) === expected;
  return true;
}

/** Throws 403 when a state-changing request comes from another origin. */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request, publicUrl)) {
    throw new AppError('FORBIDDEN', `Cross-origin request refused: Origin must be ${new URL(publicUrl).origin}.`);
  }
}

/** The signed-in user of a session cookie (the sessions feature), at once when it is kept in memory. */
export interface SessionLookup {
  signedIn(cookie: string | undefined): Principal | null | Promise<Principal | null>;
}

/** What the admin guards look up: keys (to refuse them) and sessions. */
export interface GuardServices {
  verifier: KeyVerifier;
  sessions: SessionLookup;
}

/** The onRequest hooks of admin routes, built once by the app. */
export interface AdminGuards {
  /**
   * Makes `app` (an encapsulated plugin) an admin scope: cookies are parsed there (and only there: key routes
   * never read them, and parsing costs every request), and every route needs a session.
   */
  enter(app: FastifyInstance): Promise<void>;
  /**
   * Every admin route: only the session cookie is accepted. A valid API key is 403, an invalid one 401
   * INVALID_API_KEY, no session 401 UNAUTHENTICATED; then the Origin of state-changing requests.
   */
  session: onRequestAsyncHookHandler;
  /** After `session`, before the body is read: the user needs a role that grants `permission` (no role: 403). */
  allow(permission: Permission): onRequestAsyncHookHandler;
}

/**
 * `limits`: a presented credential that fails (an unknown API key, a session cookie that is unknown or expired)
 * counts against the client address's failed-authentication limit, as on key routes; a request that presents
 * none is not a guess and is not counted.
 */
export function adminGuards(
  services: GuardServices,
  config: Pick<Config, 'publicUrl'>,
  limits?: RequestLimits,
): AdminGuards {
  const session: onRequestAsyncHookHandler = async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (token !== null) {
      const key = await services.verifier.verify(token);
      if (key) throw new AppError('FORBIDDEN', 'Admin routes accept only a signed-in session, not an API key.');
      await limits?.authFailure(request);
      throw new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    const cookieValue = request.cookies[SESSION_COOKIE];
    const principal = await services.sessions.signedIn(cookieValue);
    if (!principal) {
      if (cookieValue !== undefined && cookieValue !== '') await limits?.authFailure(request);
      throw new AppError('UNAUTHENTICATED');
    }
    assertSameOrigin(request, config.publicUrl);
    request.principal = principal;
  };
  const allow = (permission: Permission): onRequestAsyncHookHandler => {
    return async (request: FastifyRequest) => {
      const p = principalOf(request);
      if (p.role === null || p.workspaceId === null) {
        throw new AppError('FORBIDDEN', 'You have no role in a workspace. Ask an owner or admin to grant you one.');
      }
      if (!allows(p.role, permission)) throw new AppError('FORBIDDEN', `Your role (${p.role}) does not allow this.`);
    };
  };
  const enter = async (app: FastifyInstance) => {
    await app.register(cookie);
    app.addHook('onRequest', session);
  };
  return { enter, session, allow };
}

/** The signed-in user; only call from routes behind the session guard. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHENTICATED');
  return request.principal;
}

/** The member an `allow` guard admitted. */
export function memberOf(request: FastifyRequest): Member {
  const p = principalOf(request);
  if (p.role === null || p.workspaceId === null) throw new AppError('FORBIDDEN');
  return p as Member;
}

/** The signed-in user as the actor of a change: who, from which address, in which request. */
export function actorOf(request: FastifyRequest): Actor {
  return { userId: principalOf(request).userId, label: null, ip: request.ip, requestId: request.id };
}
