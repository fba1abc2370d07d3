import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { AppError } from '#src/errors.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import type { AuthKey } from './auth-key.ts';
import type { KeyVerifier } from './key-verifier.ts';
import type { Scope } from './scopes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified API key of a key route (set by the key guard). */
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
 * The rule of every key route: no usable key is 401 INVALID_API_KEY, a key without the route's scope 403
 * INSUFFICIENT_SCOPE; null when the key may call the route.
 */
export function keyRefusal(key: AuthKey | null, scope: Scope): AppError | null {
  if (!key) return new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } });
  if (!key.scopes.has(scope)) return new AppError('INSUFFICIENT_SCOPE', `The API key lacks the scope ${scope}.`);
  return null;
}

/** The onRequest hook of key routes that require `scope`. */
export type KeyGuard = (scope: Scope, options?: GuardOptions) => onRequestHookHandler;

export interface GuardOptions {
  /** Whether this request records the key's last use (default: yes). A dry run leaves no trace. */
  records?: (request: FastifyRequest) => boolean;
}

/**
 * The key guard: runs before the body is read, so a bad key is 401 and a missing scope 403 whatever the body
 * holds; then the key's request counts against its rate limit. Callback-style and synchronous while the key is
 * cached and the rate limiter is in-process: the hot path of every API request allocates no promise.
 */
export function keyGuard(keys: KeyVerifier, limits: RequestLimits): KeyGuard {
  return (scope, options = {}) => {
    const records = options.records;
    const admit = (request: FastifyRequest, key: AuthKey | null, done: HookHandlerDoneFunction): void => {
      const refusal = keyRefusal(key, scope);
      if (!key) {
        // Failed authentications count against the client's address (slows down guessing).
        limits.authFailure(request).then(() => done(refusal!), done);
        return;
      }
      if (refusal) {
        done(refusal);
        return;
      }
      let counted: undefined | Promise<void>;
      try {
        counted = limits.keyRequest(key.id);
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
      const verified = keys.verify(token, records === undefined || records(request));
      if (verified instanceof Promise) {
        verified.then(
          (key) => admit(request, key, done),
          (err: Error) => done(err),
        );
      } else {
        admit(request, verified, done);
      }
    };
  };
}

/** The key the key guard verified; only call from key routes. */
export function keyOf(request: FastifyRequest): AuthKey {
  if (!request.apiKey) throw new AppError('INVALID_API_KEY');
  return request.apiKey;
}
