import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '#src/config.ts';
import { AppError } from '#src/errors.ts';
import type { Permission } from '#src/modules/users/roles.ts';
import { allows, type Role } from '#src/modules/users/roles.ts';
import type { Principal } from '#src/modules/users/service.ts';
import type { Services } from '#src/services.ts';
import { bearerToken } from './key-auth.ts';

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

/**
 * onRequest hook of admin routes: they accept only the session cookie. A valid API key is 403, an invalid
 * one 401 INVALID_API_KEY, no session 401 UNAUTHENTICATED; then the Origin of state-changing requests.
 */
export function requireSession(services: Services, config: Pick<Config, 'publicUrl'>): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (token !== null) {
      const key = await services.keys.verify(token);
      if (key) throw new AppError('FORBIDDEN', 'Admin routes accept only a signed-in session, not an API key.');
      throw new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    const session = await services.sessions.resolve(request.cookies[SESSION_COOKIE]);
    const principal = session ? await services.users.principal(session.userId) : null;
    if (!principal) throw new AppError('UNAUTHENTICATED');
    assertSameOrigin(request, config.publicUrl);
    request.principal = principal;
  };
}

/** The signed-in user; only call from routes behind `requireSession`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHENTICATED');
  return request.principal;
}

/** A signed-in user with a role in a workspace. */
export interface Member extends Principal {
  workspaceId: string;
  role: Role;
}

/** onRequest hook after `requireSession` (before the body is read): the user needs a role that grants `permission` (no role at all: 403). */
export function requirePermission(permission: Permission): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const p = principalOf(request);
    if (p.role === null || p.workspaceId === null) {
      throw new AppError('FORBIDDEN', 'You have no role in a workspace. Ask an owner or admin to grant you one.');
    }
    if (!allows(p.role, permission)) throw new AppError('FORBIDDEN', `Your role (${p.role}) does not allow this.`);
  };
}

/** The member a `requirePermission` hook admitted. */
export function memberOf(request: FastifyRequest): Member {
  const p = principalOf(request);
  if (p.role === null || p.workspaceId === null) throw new AppError('FORBIDDEN');
  return p as Member;
}
