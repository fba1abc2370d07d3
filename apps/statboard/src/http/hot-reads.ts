import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { urlMayHoldUnstorable } from '#src/lib/storable.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { KeyService } from '#src/modules/keys/service.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import type { LeaderboardService } from '#src/modules/leaderboards/service.ts';
import type { PlayerService } from '#src/modules/players/service.ts';
import { bearerTokenOf } from '#src/plugins/key-auth.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { requestIdFor } from '#src/plugins/request-id.ts';

const LEADERBOARDS = '/api/v1/leaderboards';
const PLAYERS = '/api/v1/players/';
const STATS = '/stats';
/** `/api/v1/players/<uuid>/stats` */
const PLAYER_STATS_LENGTH = PLAYERS.length + 36 + STATS.length;
/** A `limit` Fastify's validation takes as it is (coerced to an integer, clamped by the service). */
const LIMIT = /^[0-9]{1,6}$/;
const CONTENT_TYPE = 'application/json; charset=utf-8';

/** The options of Fastify's that shape its HTTP server. */
interface ServerTimings {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

export interface HotReadServices {
  keys: KeyService;
  leaderboards: LeaderboardService;
  players: PlayerService;
}

/**
 * The two most read routes, `GET /api/v1/leaderboards` and `GET /api/v1/players/{uuid}/stats`, answered
 * straight from node:http when the answer is already cached, before Fastify builds its request.
 *
 * A request is answered here only when Fastify's pipeline would certainly give the same 200 with the same
 * body and headers: a plain GET without a body on the exact path, a query of the route's own parameters each
 * given once in a simple form, a key whose row is cached and that verifies with the route's scope, a cached
 * answer the key may read, and a request the in-process rate limiter admits (counted once, as Fastify would).
 * Anything else — an error to report, a miss to load, an odd URL, a closing server — goes on to Fastify
 * untouched: nothing was written and nothing counted. A property test holds the two paths to the same
 * answers (test/http/hot-reads.test.ts).
 *
 * Fastify writes a log line per request at `info`; this path writes none, so it is used only when that level
 * is off (`LOG_LEVEL=warn` or above) and the rate limiter is in-process (a Redis count cannot be taken back).
 */
export class HotReads {
  /** Requests answered here (tests, diagnostics). */
  served = 0;
  private open = true;

  constructor(
    private readonly services: HotReadServices,
    private readonly limits: RequestLimits,
  ) {}

  /** From now on every request goes to Fastify (which answers 503 or closes connections while it shuts down). */
  close(): void {
    this.open = false;
  }

  /** A node:http request listener: this path when it can answer, else Fastify's `next`. */
  listener(next: RequestListener): RequestListener {
    return (req, res) => {
      if (!this.serve(req, res)) next(req, res);
    };
  }

  /** Fastify's `serverFactory`: an HTTP/1.1 server set up as Fastify sets up its own, with this path in front. */
  serverFactory(): FastifyServerFactory {
    return (handler, fastifyOptions) => {
      // Fastify passes its options with its defaults filled in.
      const o = fastifyOptions as ServerTimings;
      const server: Server = createServer(o.http ?? {}, this.listener(handler as RequestListener));
      // As Fastify sets up the server it makes itself (fastify/lib/server.js).
      if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
      if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
      server.setTimeout(o.connectionTimeout ?? 0);
      if (o.maxRequestsPerSocket) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
      return server;
    };
  }

  /** Answers `req` and returns true, or returns false having written and counted nothing. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.open || req.method !== 'GET') return false;
    const url = req.url;
    if (url === undefined || req.headers['content-length'] !== undefined) return false;
    if (req.headers['transfer-encoding'] !== undefined || urlMayHoldUnstorable(url)) return false;
    try {
      const body = this.answer(req, url);
      if (body === undefined) return false;
      res.writeHead(200, {
        'x-request-id': requestIdFor(req),
        'content-type': CONTENT_TYPE,
        'content-length': body.length,
      });
      res.end(body);
      this.served++;
      return true;
    } catch {
      // Nothing was written: Fastify answers it, with the error if there is one.
      return false;
    }
  }

  private answer(req: IncomingMessage, url: string): Buffer | undefined {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    if (path === LEADERBOARDS) {
      const params = simpleQuery(query, ['season', 'stat', 'limit']);
      if (params === null || !params.season || !params.stat) return undefined;
      if (params.limit !== undefined && !LIMIT.test(params.limit)) return undefined;
      const key = this.key(req, 'leaderboards:read');
      if (key === undefined) return undefined;
      const json = this.services.leaderboards.cachedJson(key, {
        season: params.season,
        stat: params.stat,
        limit: params.limit === undefined ? undefined : Number(params.limit),
      });
      return json !== undefined && this.admit(key) ? json : undefined;
    }
    if (path.length === PLAYER_STATS_LENGTH && path.startsWith(PLAYERS) && path.endsWith(STATS)) {
      const player = path.slice(PLAYERS.length, PLAYERS.length + 36);
      if (!isUuid(player)) return undefined;
      const params = simpleQuery(query, ['season']);
      if (params === null) return undefined;
      const key = this.key(req, 'stats:read');
      if (key === undefined) return undefined;
      const json = this.services.players.cachedStatsJson(key, player, params.season);
      return json !== undefined && this.admit(key) ? json : undefined;
    }
    return undefined;
  }

  /** The request's key when its row is cached, it verifies and it holds `scope`. */
  private key(req: IncomingMessage, scope: 'leaderboards:read' | 'stats:read'): AuthKey | undefined {
    const token = bearerTokenOf(req.headers.authorization);
    if (token === null) return undefined;
    const key = this.services.keys.verify(token);
    if (key instanceof Promise) {
      // Not cached: Fastify's hook verifies it, sharing the load this started.
      key.catch(() => undefined);
      return undefined;
    }
    return key?.scopes.has(scope) ? key : undefined;
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
 * The parameters of a query string of the form `name=value&…` where every name is one of `names` and appears
 * once, and values hold only unreserved characters, `:` and escapes of printable ASCII; null for anything else,
 * which Fastify parses itself. (Scanned by hand: decodeURIComponent and a split cost more than the rest of a
 * cached answer.)
 */
export function simpleQuery(query: string, names: readonly string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  const n = query.length;
  if (n === 0) return out;
  if (query.charCodeAt(n - 1) === AMP) return null;
  let i = 0;
  while (i < n) {
    let end = query.indexOf('&', i);
    if (end < 0) end = n;
    const eq = query.indexOf('=', i);
    if (eq <= i || eq >= end) return null;
    const name = query.slice(i, eq);
    if (!names.includes(name) || Object.hasOwn(out, name)) return null;
    const value = decodeSimple(query, eq + 1, end);
    if (value === null) return null;
    out[name] = value;
    i = end + 1;
  }
  return out;
}

const AMP = 0x26;
const PERCENT = 0x25;

/** `s[from, to)` with its `%XX` escapes of printable ASCII decoded, or null for any other character or escape. */
function decodeSimple(s: string, from: number, to: number): string | null {
  let escaped = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === PERCENT) escaped = true;
    else if (!UNRESERVED[c]) return null;
  }
  if (!escaped) return s.slice(from, to);
  let out = '';
  let run = from;
  for (let i = from; i < to; i++) {
    if (s.charCodeAt(i) !== PERCENT) continue;
    const code = i + 2 < to ? (hexValue(s.charCodeAt(i + 1)) << 4) | hexValue(s.charCodeAt(i + 2)) : -1;
    if (code < 0x20 || code > 0x7e) return null;
    out += s.slice(run, i) + String.fromCharCode(code);
    i += 2;
    run = i + 1;
  }
  return out + s.slice(run, to);
}

/** 0–15 for a hex digit, else a value that makes the code out of range. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return 0x100;
}

/** Characters a value may hold as they are: letters, digits, `-._~` and `:`. */
const UNRESERVED: boolean[] = Array.from({ length: 128 }, (_, c) => /[A-Za-z0-9._~:-]/.test(String.fromCharCode(c)));
