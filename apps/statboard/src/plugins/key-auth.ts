import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '#src/errors.ts';
import type { Scope } from '#src/modules/keys/scopes.ts';
import type { KeyService } from '#src/modules/keys/service.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import type { RequestLimits } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Request limits (set by buildApp). */
    limits: RequestLimits;
  }
  interface FastifyRequest {
    /** The verified API key of a key route (set by `requireKey`). */
    apiKey: AuthKey | null;
  }
}

const BEARER = /^Bearer +([^\s]{1,1024}) *$/i;

/** The token of `Authorization: Bearer <token>`, or null for anything else. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = BEARER.exec(header);
  return m ? m[1]! : null;
}

/**
 * onRequest hook of key routes: runs before the body is read, so a bad key is 401 and a missing scope 403
 * whatever the body holds (DECISIONS, order of checks).
 */
export function requireKey(keys: KeyService, scope: Scope): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const key = token === null ? null : await keys.verify(token);
    if (!key) {
      await request.server.limits.authFailure(request);
      throw new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    if (!key.scopes.has(scope)) {
      throw new AppError('INSUFFICIENT_SCOPE', `The API key lacks the scope ${scope}.`);
    }
    await request.server.limits.keyRequest(key.id);
    request.apiKey = key;
  };
}

/** The key a `requireKey` hook verified; only call from key routes. */
export function keyOf(request: FastifyRequest): AuthKey {
  if (!request.apiKey) throw new AppError('INVALID_API_KEY');
  return request.apiKey;
}
