import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Static, TSchema } from '@sinclair/typebox';
import { parse as parseQuery } from 'fast-querystring';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { AuthKey } from '#src/access/auth-key.ts';
import { bearerTokenOf, type KeyGuard, keyOf, keyRefusal } from '#src/access/key-guard.ts';
import type { KeyVerifier } from '#src/access/key-verifier.ts';
import type { Scope } from '#src/access/scopes.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { urlMayHoldUnstorable } from '#src/lib/storable.ts';
import { STAT_KEY_MAX_LENGTH } from '#src/lib/upload-rules.ts';
import { validatorCompiler } from '#src/lib/validation.ts';
import type { Metrics } from '#src/metrics/metrics.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { requestIdFor } from '#src/plugins/request-id.ts';
import type { AccessLog } from '#src/plugins/request-logger.ts';
import { clientAddressOf, type Trust } from './client-address.ts';
import { gzippedFor, mayCompress, varyWithEncoding } from './compression.ts';
import { sendJsonNowOrLater } from './json-text.ts';

export { parseQuery as querystringParser };

const CONTENT_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyInstance {
    /** The fast path of cached key reads (set by buildApp). */
    fastReads: FastReads;
  }
}

/**
 * A key route whose answer is JSON built once and cached: leaderboards, a player's statistics. `answer` is the
 * one implementation of the read, with every access rule, and answers at once (no promise) when all it needs
 * is cached.
 */
export interface CachedRead<P extends TSchema, Q extends TSchema> {
  /** Path under the plugin's prefix, with `:name` parameters. */
  url: string;
  scope: Scope;
  params?: P;
  querystring?: Q;
  /** The rest of the route's schema, for the OpenAPI document (operationId, summary, response, …). */
  doc: Omit<FastifySchema, 'params' | 'querystring' | 'body'> & { operationId: string; summary: string };
  answer(key: AuthKey, params: Static<P>, query: Static<Q>): Maybe<Buffer>;
}

/** A request this path answers: its route, key and answer (ready, or loading). */
interface Answered {
  route: FastRoute;
  key: AuthKey;
  body: Maybe<Buffer>;
}

/**
 * Answers requests of its own paths before Fastify (the public pages), with the steps Fastify's route would run
 * (its rate limit, its headers, the access log line and metrics through `FastReads.finish`): true when it took the
 * request (answered at once or later; if it then hands the request to Fastify, `fallback`, Fastify's route must
 * not count it again), false having written and counted nothing. `url` is `req.url`.
 */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse, url: string, fallback: () => void) => boolean;

interface FastRoute {
  /** `/api/v1/players/:player/stats`: the route's template, as Fastify names it. */
  template: string;
  /** The template split on `/`; parameters as `:name`. */
  segments: string[];
  scope: Scope;
  validateParams: ((data: unknown) => boolean) | null;
  validateQuery: ((data: unknown) => boolean) | null;
  answer(key: AuthKey, params: unknown, query: unknown): Maybe<Buffer>;
}

/**
 * Cached key reads, answered straight from node:http before Fastify builds its request, and through Fastify
 * otherwise. Both paths run the same steps with the same code: Fastify's query parser, the route's own compiled
 * query and path validators, the key check of `requireKey`, the route's `answer`, the rate limit, and one access
 * log line. This path answers only a 200: ready at once, or loaded (a cache miss: the answer is sent when its
 * load settles, without Fastify building a request for it); everything else (an error to report, a key still
 * loading, an unusual URL, a closing server) goes to Fastify with nothing written and nothing counted. A load
 * that fails is handed to Fastify's handler, which sends its error, so it is loaded once. A property test holds
 * both paths to the same answers (test/http/fast-reads.test.ts).
 */
export class FastReads {
  /** Requests answered here (tests, diagnostics). */
  served = 0;
  private open: boolean;
  private readonly routes: FastRoute[] = [];
  /** Handlers of their own paths, by the paths' common start (`/p/`). */
  private readonly fronts: { prefix: string; handler: FrontHandler }[] = [];
  /** Answers this path started and handed to Fastify, by request. */
  private readonly started = new WeakMap<IncomingMessage, Promise<Buffer>>();
  /** The access log, set by the app (null: off). */
  accessLog: AccessLog | null = null;
  /** Trusted proxies (TRUST_PROXY), set by the app: the client's address as Fastify's `request.ip` gives it. */
  trust: Trust | null = null;
  /** Request metrics, set by the app (null: off): the same series as Fastify's answers of the route. */
  metrics: Metrics | null = null;

  /**
   * `enabled: false` leaves every request to Fastify (a rate limiter shared through Redis, whose counts cannot
   * wait for this path, or a test comparing both paths).
   */
  constructor(
    private readonly keys: KeyVerifier,
    private readonly limits: RequestLimits,
    enabled: boolean,
  ) {
    this.open = enabled;
  }

  /** Whether this path answers requests now. */
  get active(): boolean {
    return this.open;
  }

  /** From now on every request goes to Fastify (which answers 503 or closes connections while it shuts down). */
  close(): void {
    this.open = false;
  }

  /** Registers `read` as a GET route of `app` (under its prefix) and on this path. */
  route<P extends TSchema, Q extends TSchema>(app: FastifyInstance, guard: KeyGuard, read: CachedRead<P, Q>): void {
    app.get(
      read.url,
      {
        onRequest: guard(read.scope),
        schema: {
          ...read.doc,
          security: [{ bearerAuth: [] }],
          'x-required-scopes': [read.scope],
          ...(read.params ? { params: read.params } : {}),
          ...(read.querystring ? { querystring: read.querystring } : {}),
        },
      },
      (request, reply) => {
        const started = this.started.get(request.raw);
        return sendJsonNowOrLater(
          reply,
          started ?? read.answer(keyOf(request), request.params as Static<P>, request.query as Static<Q>),
        );
      },
    );
    const compile = (schema: TSchema | undefined, httpPart: 'params' | 'querystring') =>
      schema
        ? (validatorCompiler({ schema, httpPart, method: 'GET', url: read.url }) as (d: unknown) => boolean)
        : null;
    const template = `${app.prefix}${read.url}`;
    this.routes.push({
      template,
      segments: template.split('/'),
      scope: read.scope,
      validateParams: compile(read.params, 'params'),
      validateQuery: compile(read.querystring, 'querystring'),
      answer: read.answer as FastRoute['answer'],
    });
  }

  /** Hands every GET under `prefix` that this path may take to `handler` (see `FrontHandler`). */
  under(prefix: string, handler: FrontHandler): void {
    this.fronts.push({ prefix, handler });
  }

  /** The client's address, as Fastify's `request.ip` gives it (TRUST_PROXY). */
  addressOf(req: IncomingMessage): string {
    return clientAddressOf(req, this.trust);
  }

  /** When an answer's time starts (for `finish`), or 0 when neither the access log nor metrics take it. */
  startTime(): number {
    return this.accessLog || this.metrics ? performance.now() : 0;
  }

  /**
   * What Fastify's hooks do once an answer of `route` (its template) is written: one access log line and the
   * request's metrics. `start` is `startTime()` of the request; `address` its client's (`addressOf`), when known.
   */
  finish(
    req: IncomingMessage,
    id: string,
    url: string,
    route: string,
    status: number,
    start: number,
    address?: string,
  ): void {
    if (!this.accessLog && !this.metrics) return;
    const ms = performance.now() - start;
    this.accessLog?.write(id, req.method, url, address ?? this.addressOf(req), status, ms);
    this.metrics?.request(route, 'GET', status, ms / 1000);
  }

  /**
   * Answers `req` and returns true (at once, or when its answer is loaded; then, unless the answer is sent,
   * `fallback` hands the request to Fastify), or returns false having written and counted nothing.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: () => void = () => undefined): boolean {
    if (!this.open || req.method !== 'GET') return false;
    const url = req.url;
    if (url === undefined || req.headers['content-length'] !== undefined) return false;
    if (req.headers['transfer-encoding'] !== undefined || urlMayHoldUnstorable(url)) return false;
    for (const front of this.fronts) if (url.startsWith(front.prefix)) return front.handler(req, res, url, fallback);
    const start = this.startTime();
    let answered: Answered | undefined;
    try {
      answered = this.answer(req, url);
    } catch {
      // Fastify answers it, with the error.
      return false;
    }
    if (answered === undefined) return false;
    const { route, key, body } = answered;
    if (!(body instanceof Promise)) {
      if (!this.admit(key)) return false;
      this.send(req, res, url, route, body, start);
      return true;
    }
    body.then(
      (loaded) => {
        if (this.open && this.admit(key)) {
          this.send(req, res, url, route, loaded, start);
          return;
        }
        this.started.set(req, body);
        fallback();
      },
      () => {
        // Fastify's handler sends the load's error.
        this.started.set(req, body);
        fallback();
      },
    );
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, url: string, route: FastRoute, body: Buffer, start: number) {
    const id = requestIdFor(req);
    const gzipped = gzippedFor(body, req.headers['accept-encoding']);
    const sent = gzipped ?? body;
    const headers: OutgoingHttpHeaders = {
      'x-request-id': id,
      'content-type': CONTENT_TYPE,
      'content-length': sent.length,
    };
    if (mayCompress(body.length)) headers.vary = varyWithEncoding(res.getHeader('vary'));
    if (gzipped) headers['content-encoding'] = 'gzip';
    res.writeHead(200, headers);
    res.end(sent);
    this.served++;
    this.finish(req, id, url, route.template, 200, start);
  }

  private answer(req: IncomingMessage, url: string): Answered | undefined {
    const parts = splitUrl(url);
    if (parts === null || parts.path.includes('%')) return undefined;
    const segments = parts.path.split('/');
    for (const route of this.routes) {
      const params = matchPath(route.segments, segments);
      if (params === null) continue;
      const query = parseQuery(parts.query);
      if (route.validateParams && !route.validateParams(params)) return undefined;
      if (route.validateQuery && !route.validateQuery(query)) return undefined;
      const token = bearerTokenOf(req.headers.authorization);
      if (token === null) return undefined;
      const key = this.keys.verify(token);
      if (key instanceof Promise) {
        // Not cached: Fastify's hook verifies it, sharing the load this started.
        key.catch(() => undefined);
        return undefined;
      }
      if (keyRefusal(key, route.scope) !== null) return undefined;
      return { route, key: key!, body: route.answer(key!, params, query) };
    }
    return undefined;
  }

  /** Counts the request as Fastify's hook would; false when over the limit (Fastify then answers the 429). */
  private admit(key: AuthKey): boolean {
    try {
      return this.limits.keyRequest(key.id) === undefined;
    } catch {
      return false;
    }
  }
}

/**
 * A request URL's path and query string as Fastify's router reads them: the path ends at `?`, `;` or `#`; null
 * when it ends at anything but `?` (such a request goes to Fastify).
 */
export function splitUrl(url: string): { path: string; query: string } | null {
  const end = url.search(/[?;#]/);
  if (end < 0) return { path: url, query: '' };
  return url[end] === '?' ? { path: url.slice(0, end), query: url.slice(end + 1) } : null;
}

/**
 * The longest path parameter, decoded, that a route takes (Fastify's router is given it as `maxParamLength`): the
 * longest statistic key. A path with a longer one matches no route here and goes to Fastify.
 */
export const MAX_PARAM_LENGTH = STAT_KEY_MAX_LENGTH;

/**
 * The path parameters when `segments` (a path split on `/`) matches the route's: static parts equal, parameters
 * non-empty, decoded as Fastify's router decodes them and then at most MAX_PARAM_LENGTH characters (null, as for
 * no match, when one cannot be).
 */
export function matchPath(route: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (route.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < route.length; i++) {
    const r = route[i]!;
    const s = segments[i]!;
    if (r.startsWith(':')) {
      if (s === '') return null;
      let value: string;
      try {
        value = s.includes('%') ? decodeURIComponent(s) : s;
      } catch {
        return null;
      }
      if (value.length > MAX_PARAM_LENGTH) return null;
      params[r.slice(1)] = value;
    } else if (r !== s) {
      return null;
    }
  }
  return params;
}
