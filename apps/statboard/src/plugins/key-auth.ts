import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { AppError } from '#src/errors.ts';
import type { HotReads } from '#src/http/hot-reads.ts';
import type { Scope } from '#src/modules/keys/scopes.ts';
import type { KeyService } from '#src/modules/keys/service.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import type { RequestLimits } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Request limits (set by buildApp). */
    limits: RequestLimits;
    /** The hot read path in front of Fastify, or null when off (set by buildApp). */
    hotReads: HotReads | null;
  }
  interface FastifyRequest {
    /** The verified API key of a key route (set by `requireKey`). */
    apiKey: AuthKey | null;
  }
}

const BEARER = /^Bearer +([^\s]{1,1024}) *$/i;

/** The token of an `Authorization: Bearer <token>` header value, or null for anything else. */
export function bearerTokenOf(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const m = BEARER.exec(header);
  return m ? m[1]! : null;
}

/** The token of the request's `Authorization: Bearer <token>`, or null for anything else. */
export function bearerToken(request: FastifyRequest): string | null {
  return bearerTokenOf(request.headers.authorization);
}

/**
 * onRequest hook of key routes: runs before the body is read, so a bad key is 401 and a missing scope 403
 * whatever the body holds (DECISIONS, order of checks). Callback-style and synchronous while the key is cached
 * and the rate limiter is in-process: the hot path of every API request allocates no promise.
 */
export function requireKey(keys: KeyService, scope: Scope): onRequestHookHandler {
  const admit = (request: FastifyRequest, key: AuthKey | null, done: HookHandlerDoneFunction): void => {
    if (!key) {
      request.server.limits
        .authFailure(request)
        .then(
          () =>
            done(new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } })),
          done,
        );
      return;
    }
    if (!key.scopes.has(scope)) {
      done(new AppError('INSUFFICIENT_SCOPE', `The API key lacks the scope ${scope}.`));
      return;
    }
    let counted: undefined | Promise<void>;
    try {
      counted = request.server.limits.keyRequest(key.id);
    } catch (err) {
      done(err as Error);
      return;
    }
    request.apiKey = key;
    if (counted) counted.then(() => done(), done);
    else done();
  };
  return (request, _reply, done) => {
    const token = bearerToken(request);
    if (token === null) {
      admit(request, null, done);
      return;
    }
    const verified = keys.verify(token);
    if (verified instanceof Promise) {
      verified.then(
        (key) => admit(request, key, done),
        (err: Error) => done(err),
      );
    } else {
      admit(request, verified, done);
    }
  };
}

/** The key a `requireKey` hook verified; only call from key routes. */
export function keyOf(request: FastifyRequest): AuthKey {
  if (!request.apiKey) throw new AppError('INVALID_API_KEY');
  return request.apiKey;
}
