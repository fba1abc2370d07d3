import { resolve } from 'node:path';
import proxyaddr from '@fastify/proxy-addr';

/** Validated, frozen runtime configuration. Nothing else in the service reads `process.env`. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** `postgres://…` for a PostgreSQL server; `null` selects the embedded PGlite database under `dataDir`. */
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly bootstrapToken: string | null;
  readonly oidc: { readonly issuer: string; readonly clientId: string; readonly clientSecret: string | null } | null;
  readonly redisUrl: string | null;
  readonly nodeEnv: string;
  readonly logLevel: string;
  /**
   * TRUST_PROXY: false (unset or `0`: the socket address is the client's), true (`1`: every proxy), or the
   * addresses and CIDRs of the proxies whose `X-Forwarded-For` is believed.
   */
  readonly trustProxy: boolean | readonly string[];
  /** CORS_ORIGINS: origins (or `*`) whose pages may call the key routes from a browser; empty: none. */
  readonly corsOrigins: readonly string[];
  /** LOG_FORMAT: `pretty` (readable lines), `json` (one JSON object per line), or null: pretty on a terminal. */
  readonly logFormat: 'pretty' | 'json' | null;
  /** Seconds returned to clients in `next_upload_after`. */
  readonly nextUploadAfterSeconds: number;
  /** Maximum ingest body in bytes (1 MiB). */
  readonly ingestBodyLimit: number;
  /** Maximum `POST /ingest/server` body in bytes (16 MiB: 500 players of about 100 values fit several times). */
  readonly ingestServerBodyLimit: number;
  /** Size of the pg pool. */
  readonly databasePoolSize: number;
  /** Admin sessions end after this many minutes without a request (SESSION_IDLE_MINUTES). */
  readonly sessionIdleMinutes: number;
  /** Admin sessions end this many hours after login, however active (SESSION_MAX_HOURS). */
  readonly sessionMaxHours: number;
  /** Requests per minute per API key (0: no limit). */
  readonly rateLimitPerMinute: number;
  /** New statistics client uploads may create a day (UTC) per workspace (CLIENT_NEW_STATS_PER_DAY; 0: no limit). */
  readonly clientNewStatsPerDay: number;
  /** Failed authentications per minute per client IP before 429 (0: no limit). */
  readonly authFailureLimitPerMinute: number;
  /** Logins started per minute per client IP before 429 (0: no limit). */
  readonly loginLimitPerMinute: number;
  /** Public site pages per minute per client IP before 429 (PUBLIC_PAGE_LIMIT_PER_MINUTE; 0: no limit). */
  readonly publicPageLimitPerMinute: number;
  /**
   * Values a player page may count to rank all of a player's values on a small network: the workspace's players
   * (at least 100) times the statistics to rank (PUBLIC_RANK_VALUES; 0: never; more: only ranks that need no count).
   */
  readonly publicRankValues: number;
  /** Bytes of cached `/players/{uuid}/stats` answers (PLAYER_CACHE_MB; 0: none, every read is a query). */
  readonly playerCacheBytes: number;
  /** Entries of full rank boards kept in memory: half of RANK_CACHE_MB at most (RANK_BOARD_BYTES_PER_ENTRY each). */
  readonly rankCacheEntries: number;
  /** Bytes of rank boards kept in memory, full and compact (RANK_CACHE_MB; 0: every rank read is a query). */
  readonly rankCacheBytes: number;
  /** Bytes of rendered public site pages kept, with their gzip copies (PAGE_CACHE_MB; 0: every page rendered). */
  readonly pageCacheBytes: number;
  /** History points are recorded with the values (HISTORY_ENABLED, default true). */
  readonly historyEnabled: boolean;
  /** Hourly history points are kept this long, then one per day (HISTORY_RETENTION_DAYS; 0: hourly forever). */
  readonly historyRetentionDays: number;
  /** The embedded database checkpoints and flushes to disk this often (EMBEDDED_CHECKPOINT_SECONDS; 0: at close). */
  readonly embeddedCheckpointMs: number;
  /** Limits that keep every answer bounded in time and memory when the database or a client misbehaves. */
  readonly timeouts: Timeouts;
  /** Webhook deliveries: private addresses allowed (WEBHOOK_ALLOW_PRIVATE) and the time one attempt may take. */
  readonly webhooks: { readonly allowPrivate: boolean; readonly timeoutMs: number };
  /** Events stored longer ago than this are deleted in the background (EVENT_RETENTION_DAYS; 0: kept for ever). */
  readonly eventRetentionDays: number;
  /** METRICS_PORT: Prometheus metrics at `GET /metrics` on HOST and this port; null (unset): no metrics at all. */
  readonly metricsPort: number | null;
}

/** Timeouts and bounds, in milliseconds and counts (documented in the README's configuration table). */
export interface Timeouts {
  /** Opening a PostgreSQL connection, or waiting for a free one in the pool (DATABASE_CONNECT_TIMEOUT_SECONDS). */
  readonly databaseConnectMs: number;
  /** One statement, cancelled by PostgreSQL itself past this (DATABASE_STATEMENT_TIMEOUT_SECONDS). */
  readonly databaseStatementMs: number;
  /**
   * How long the service waits for any answer of the database before giving up on the connection (a server
   * that stopped answering cannot cancel anything; DATABASE_QUERY_TIMEOUT_SECONDS). Also the longest an upload
   * waits for its commit.
   */
  readonly databaseQueryMs: number;
  /** Batches waiting for the writer; beyond it ingest answers 503 (INGEST_QUEUE_MAX_BATCHES). */
  readonly ingestQueueBatches: number;
  /** Bytes of the request bodies of the batches waiting for the writer (INGEST_QUEUE_MAX_MB). */
  readonly ingestQueueBytes: number;
  /** Everything after SIGTERM or SIGINT, until the process exits (SHUTDOWN_TIMEOUT_SECONDS). */
  readonly shutdownMs: number;
  /** Receiving a whole request, headers and body (REQUEST_TIMEOUT_SECONDS). */
  readonly requestMs: number;
  /** Receiving a request's headers (HEADERS_TIMEOUT_SECONDS). */
  readonly headersMs: number;
  /** An idle keep-alive connection stays open this long (KEEP_ALIVE_TIMEOUT_SECONDS). */
  readonly keepAliveMs: number;
  /** Open connections from one client address; 0: no limit (MAX_CONNECTIONS_PER_ADDRESS). */
  readonly connectionsPerAddress: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** `true`/`1` or `false`/`0` (any case); unset or empty: `def`. */
function boolVar(env: Env, name: string, def: boolean, problems: string[]): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  problems.push(`${name} must be true or false, got '${env[name]}'`);
  return def;
}

function intVar(env: Env, name: string, def: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) {
    problems.push(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
    return def;
  }
  const n = Number(raw);
  if (n < min || n > max) problems.push(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * Default of PLAYER_CACHE_MB: about 2,200 players' `/players/{uuid}/stats` answers of 100 values (~11 KB each),
 * or 20,000 of 10 values: the players read often. Within the service's memory target (peak RSS under 250 MB
 * with every cache full); a read that misses is one query (~0.5 ms). bench:scale measures both.
 */
export const DEFAULT_PLAYER_CACHE_MB = 24;

/**
 * Default of RANK_CACHE_MB: rank boards for ranks and pages past the top. Full boards (every public value of a
 * statistic in a season with its player) take half of it at most, ~16,700 entries (e.g. one statistic of 10,000
 * players); larger boards are held as compact boards (their values' counts only: 4–8 bytes a value, fewer with
 * ties), e.g. twenty boards of a million values in ~20–80 MB... within the rest. A board that fits neither, or
 * without room, is answered by queries (bench:scale measures both).
 */
export const DEFAULT_RANK_CACHE_MB = 48;
/**
 * Default of PAGE_CACHE_MB: rendered public site pages (5–40 KB each, with their gzip copies a quarter more), kept
 * 30 s from their second render: a few thousand pages read often.
 */
export const DEFAULT_PAGE_CACHE_MB = 64;
/**
 * Default of PUBLIC_RANK_VALUES: a player page ranks every value it shows with one statement when the workspace's
 * players (at least 100) times those statistics are at most this many: each board read whole from its index
 * (0.1–0.25 µs a value) after two lookups (~10–20 µs), ~5–15 ms of PostgreSQL at most (bench/site/counted-ranks.ts);
 * e.g. 500 values of a network of up to 100 players, 50 of 1,000 players.
 */
export const DEFAULT_PUBLIC_RANK_VALUES = 50_000;
/**
 * Bytes of one rank board entry as the process's RSS grows with boards (the entry, its player's UUID, id and name,
 * its answer's JSON once read, the index slot, and the heap's room to grow): measured on a board of 100,000
 * entries (heap ~1,100 bytes per entry, RSS ~2,000 while the heap grows).
 */
export const RANK_BOARD_BYTES_PER_ENTRY = 1_500;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v === '' ? null : v;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

/** Parses the environment once, applies defaults and fails naming every bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = intVar(env, 'PORT', 8080, 0, 65535, problems);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  // A relative DATA_DIR (and the default ./data) is the folder the command was started in: under npm that is
  // INIT_CWD, not the workspace folder npm runs the script in, so `npm start` and `npx statboard` from the
  // repository root share one embedded database.
  const dataDir = resolve(str(env, 'INIT_CWD') ?? process.cwd(), str(env, 'DATA_DIR') ?? './data');
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  let publicUrl = str(env, 'PUBLIC_URL') ?? `http://${hostForUrl}:${port}`;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('PUBLIC_URL must be an http(s) URL');
    publicUrl = u.origin + u.pathname.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL is not a URL: '${publicUrl}'`);
  }
  const issuer = str(env, 'OIDC_ISSUER');
  const clientId = str(env, 'OIDC_CLIENT_ID');
  let oidc: Config['oidc'] = null;
  if (issuer !== null) {
    if (clientId === null) problems.push('OIDC_CLIENT_ID is required when OIDC_ISSUER is set');
    try {
      const u = new URL(issuer);
      if (u.protocol === 'http:' && !isLoopback(u.hostname)) {
        problems.push('OIDC_ISSUER must be https (http is accepted only on a loopback host)');
      } else if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        problems.push('OIDC_ISSUER must be an https URL');
      }
    } catch {
      problems.push(`OIDC_ISSUER is not a URL: '${issuer}'`);
    }
    oidc = Object.freeze({ issuer, clientId: clientId ?? '', clientSecret: str(env, 'OIDC_CLIENT_SECRET') });
  }
  const nextUploadAfterSeconds = intVar(env, 'NEXT_UPLOAD_AFTER_SECONDS', 60, 1, 86_400, problems);
  const databasePoolSize = intVar(env, 'DATABASE_POOL_SIZE', 10, 1, 200, problems);
  const sessionIdleMinutes = intVar(env, 'SESSION_IDLE_MINUTES', 120, 1, 43_200, problems);
  const sessionMaxHours = intVar(env, 'SESSION_MAX_HOURS', 12, 1, 8_760, problems);
  const rateLimitPerMinute = intVar(env, 'RATE_LIMIT_PER_MINUTE', 6_000, 0, 10_000_000, problems);
  const clientNewStatsPerDay = intVar(env, 'CLIENT_NEW_STATS_PER_DAY', 50, 0, 1_000_000, problems);
  const authFailureLimitPerMinute = intVar(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 300, 0, 10_000_000, problems);
  const publicPageLimitPerMinute = intVar(env, 'PUBLIC_PAGE_LIMIT_PER_MINUTE', 600, 0, 10_000_000, problems);
  const publicRankValues = intVar(env, 'PUBLIC_RANK_VALUES', DEFAULT_PUBLIC_RANK_VALUES, 0, 100_000_000, problems);
  const corsOrigins: string[] = [];
  for (const raw of (str(env, 'CORS_ORIGINS') ?? '').split(',')) {
    const o = raw.trim();
    if (o === '') continue;
    if (o === '*') {
      corsOrigins.push(o);
      continue;
    }
    try {
      const u = new URL(o);
      if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== o.replace(/\/$/, '')) throw new Error();
      corsOrigins.push(u.origin);
    } catch {
      problems.push(`CORS_ORIGINS: '${o}' is not an origin such as https://stats.example.com (or *)`);
    }
  }
  const trustRaw = (str(env, 'TRUST_PROXY') ?? '0').trim();
  let trustProxy: boolean | readonly string[] = false;
  if (trustRaw === '1' || trustRaw.toLowerCase() === 'true') trustProxy = true;
  else if (trustRaw !== '0' && trustRaw.toLowerCase() !== 'false') {
    const list = trustRaw
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    for (const a of list) {
      try {
        proxyaddr.compile(a);
      } catch {
        problems.push(`TRUST_PROXY: '${a}' is not an address, a CIDR (10.0.0.0/8) or loopback|linklocal|uniquelocal`);
      }
    }
    trustProxy = Object.freeze(list);
  }
  const logFormat = str(env, 'LOG_FORMAT');
  if (logFormat !== null && logFormat !== 'pretty' && logFormat !== 'json') {
    problems.push(`LOG_FORMAT must be pretty or json, got '${logFormat}'`);
  }
  const loginLimitPerMinute = intVar(env, 'LOGIN_LIMIT_PER_MINUTE', 30, 0, 10_000_000, problems);
  const playerCacheMb = intVar(env, 'PLAYER_CACHE_MB', DEFAULT_PLAYER_CACHE_MB, 0, 65_536, problems);
  const rankCacheMb = intVar(env, 'RANK_CACHE_MB', DEFAULT_RANK_CACHE_MB, 0, 65_536, problems);
  const pageCacheMb = intVar(env, 'PAGE_CACHE_MB', DEFAULT_PAGE_CACHE_MB, 0, 65_536, problems);
  const embeddedCheckpointMs = intVar(env, 'EMBEDDED_CHECKPOINT_SECONDS', 60, 0, 86_400, problems) * 1000;
  const seconds = (name: string, def: number, min: number, max: number) =>
    intVar(env, name, def, min, max, problems) * 1000;
  const timeouts: Timeouts = Object.freeze({
    databaseConnectMs: seconds('DATABASE_CONNECT_TIMEOUT_SECONDS', 2, 1, 600),
    databaseStatementMs: seconds('DATABASE_STATEMENT_TIMEOUT_SECONDS', 3, 1, 3_600),
    databaseQueryMs: seconds('DATABASE_QUERY_TIMEOUT_SECONDS', 4, 1, 3_600),
    ingestQueueBatches: intVar(env, 'INGEST_QUEUE_MAX_BATCHES', 2_000, 1, 1_000_000, problems),
    ingestQueueBytes: intVar(env, 'INGEST_QUEUE_MAX_MB', 64, 1, 65_536, problems) * 1024 * 1024,
    shutdownMs: seconds('SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 600),
    requestMs: seconds('REQUEST_TIMEOUT_SECONDS', 30, 1, 3_600),
    headersMs: seconds('HEADERS_TIMEOUT_SECONDS', 10, 1, 600),
    keepAliveMs: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', 65, 1, 3_600),
    connectionsPerAddress: intVar(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000, problems),
  });
  const historyRetentionDays = intVar(env, 'HISTORY_RETENTION_DAYS', 400, 0, 100_000, problems);
  const historyEnabled = boolVar(env, 'HISTORY_ENABLED', true, problems);
  const eventRetentionDays = intVar(env, 'EVENT_RETENTION_DAYS', 365, 0, 100_000, problems);
  const webhooks = Object.freeze({
    allowPrivate: boolVar(env, 'WEBHOOK_ALLOW_PRIVATE', false, problems),
    timeoutMs: intVar(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60, problems) * 1000,
  });
  const metricsPort = str(env, 'METRICS_PORT') === null ? null : intVar(env, 'METRICS_PORT', 0, 1, 65535, problems);
  if (metricsPort !== null && metricsPort === port) problems.push('METRICS_PORT must differ from PORT');
  if (timeouts.databaseStatementMs >= timeouts.databaseQueryMs) {
    problems.push('DATABASE_STATEMENT_TIMEOUT_SECONDS must be less than DATABASE_QUERY_TIMEOUT_SECONDS');
  }
  if (timeouts.headersMs > timeouts.requestMs) {
    problems.push('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    databaseUrl,
    dataDir,
    publicUrl,
    bootstrapToken: str(env, 'BOOTSTRAP_TOKEN'),
    oidc,
    redisUrl: str(env, 'REDIS_URL'),
    nodeEnv: str(env, 'NODE_ENV') ?? 'development',
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    corsOrigins: Object.freeze(corsOrigins),
    trustProxy,
    logFormat: logFormat === 'pretty' || logFormat === 'json' ? logFormat : null,
    nextUploadAfterSeconds,
    clientNewStatsPerDay,
    ingestBodyLimit: 1024 * 1024,
    ingestServerBodyLimit: 16 * 1024 * 1024,
    databasePoolSize,
    sessionIdleMinutes,
    sessionMaxHours,
    rateLimitPerMinute,
    authFailureLimitPerMinute,
    loginLimitPerMinute,
    publicPageLimitPerMinute,
    publicRankValues,
    playerCacheBytes: playerCacheMb * 1024 * 1024,
    // Full boards take half of the budget at most: the rest holds compact boards (which every large board needs).
    rankCacheEntries: Math.floor((rankCacheMb * 1024 * 1024) / 2 / RANK_BOARD_BYTES_PER_ENTRY),
    rankCacheBytes: rankCacheMb * 1024 * 1024,
    pageCacheBytes: pageCacheMb * 1024 * 1024,
    historyRetentionDays,
    historyEnabled,
    eventRetentionDays,
    embeddedCheckpointMs,
    timeouts,
    webhooks,
    metricsPort,
  });
}
