import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Actor } from '#src/access/principal.ts';
import type { Scope } from '#src/access/scopes.ts';
import { buildApp } from '#src/app.ts';
import { ChangeBus } from '#src/cache/bus.ts';
import { type Config, loadConfig } from '#src/config.ts';
import { migrate } from '#src/db/migrate.ts';
import { openPg } from '#src/db/pg.ts';
import { openPglite } from '#src/db/pglite.ts';
import type { Db } from '#src/db/types.ts';
import { buildServices, type Services } from '#src/services.ts';

/** Which database the suite runs on: PGlite in memory, or a fresh database on TEST_DATABASE_URL's server. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;
export const DB_KIND = TEST_DATABASE_URL ? 'postgresql' : 'pglite';

export interface TestDb {
  db: Db;
  url: string | null;
  drop(): Promise<void>;
}

/** A new, migrated, empty database for one test file. */
export async function createTestDb(): Promise<TestDb> {
  if (TEST_DATABASE_URL === null) {
    const db = await openPglite(null);
    await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const name = `statboard_test_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = openPg(url.toString(), { poolSize: 5 });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      const a = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Rate limits are off unless a test turns them on: suites send thousands of requests from one address (and
  // invent more than a day's new statistics of one workspace).
  return loadConfig({
    DATA_DIR: '/nonexistent-statboard-test',
    RATE_LIMIT_PER_MINUTE: '0',
    CLIENT_NEW_STATS_PER_DAY: '0',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    LOGIN_LIMIT_PER_MINUTE: '0',
    PUBLIC_PAGE_LIMIT_PER_MINUTE: '0',
    ...overrides,
  });
}

/** The actor of changes that tests make through the services directly (fixtures). */
export const ACTOR: Actor = Object.freeze({ userId: null, label: 'test', ip: null, requestId: null });

/** An answer received over HTTP, with the parts of Fastify's inject() answers the tests read. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's bytes, as sent (gzip stays gzip). */
  rawPayload: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: typed as inject()'s answers, which the tests are written against
  json<T = any>(): T;
}

export interface HttpRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
}

const httpAgent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Sends a request over a real connection to `base` (`http://127.0.0.1:port`), as a client would. */
export function overHttp(base: string, req: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: req.url,
        method: req.method ?? 'GET',
        headers: req.headers,
        agent: httpAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const rawPayload = Buffer.concat(chunks);
          const body = rawPayload.toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body,
            rawPayload,
            json: <T>() => JSON.parse(body) as T,
          });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(req.payload);
  });
}

export interface TestContext {
  db: Db;
  /** The app listening on 127.0.0.1 (tests that must reach the app as it ships send over real HTTP). */
  url: string;
  /** Sends a request over HTTP to the listening app. */
  http(req: HttpRequest): Promise<HttpAnswer>;
  /** The change bus the services' caches listen to. */
  bus: ChangeBus;
  services: Services;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/** A database, the service layer and the app (not listening), for one test file. */
export async function createTestContext(
  env: Record<string, string> = {},
  /** Settings no variable sets exactly (e.g. a budget in entries). */
  overrides: Partial<Config> = {},
): Promise<TestContext> {
  const tdb = await createTestDb();
  const config = { ...testConfig(env), ...overrides };
  const bus = ChangeBus.local();
  const services = buildServices(tdb.db, config, { bus });
  const app = await buildApp({ config, services });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    db: tdb.db,
    url,
    http: (req) => overHttp(url, req),
    bus,
    services,
    app,
    config,
    async close() {
      await app.close();
      await services.flush().catch(() => undefined);
      await tdb.drop();
    },
  };
}

export interface Fixture {
  workspaceId: string;
  serverId: string;
  seasonId: string;
  seasonSlug: string;
  /** Tokens by name. */
  keys: Record<string, string>;
  keyIds: Record<string, string>;
}

const ALL_READ: Scope[] = ['players:read', 'stats:read', 'leaderboards:read', 'presence:read'];

/** A workspace with one enabled server (mc.example.com:25565), an active season and a key of each kind. */
export async function seedWorkspace(services: Services, name = 'Test'): Promise<Fixture> {
  const ws = await services.workspaces.create(ACTOR, { name });
  const server = await services.servers.create(ACTOR, ws.id, { name: 'Main', hostname: 'mc.example.com', port: 25565 });
  const season = await services.seasons.create(ACTOR, ws.id, { name: 'Season 1', slug: 's1', active: true });
  const keys: Record<string, string> = {};
  const keyIds: Record<string, string> = {};
  const make = async (label: string, type: string, scopes: Scope[]) => {
    const k = await services.keys.create(ACTOR, ws.id, { name: label, type, scopes });
    keys[label] = k.secret;
    keyIds[label] = k.data.id;
  };
  await make('client', 'client', ['ingest:write']);
  await make('website', 'website', ALL_READ);
  await make('integration', 'integration', ['ingest:write', ...ALL_READ]);
  return { workspaceId: ws.id, serverId: server.id, seasonId: season.id, seasonSlug: season.slug, keys, keyIds };
}

/** A batch as the real HM Stats Fabric mod sends it. */
export function modBatch(
  over: {
    uuid?: string;
    username?: string;
    sessionId?: string;
    observedAt?: string;
    stats?: { key: string; value: number }[];
    events?: { id: string; type: string; occurred_at: string; payload: object }[];
    hostname?: string;
    port?: number;
  } = {},
): Record<string, unknown> {
  return {
    protocol_version: 1,
    client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
    player: { uuid: over.uuid ?? '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b', username: over.username ?? 'Steve' },
    server: { hostname: over.hostname ?? 'mc.example.com', port: over.port ?? 25565 },
    session_id: over.sessionId ?? '0e1d2c3b-4a59-4687-9786-a5b4c3d2e1f0',
    observed_at: over.observedAt ?? '2026-10-06T12:00:00.123456Z',
    stats: over.stats ?? [{ key: 'minecraft.mined:minecraft.stone', value: 42 }],
    events: over.events ?? [],
  };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * Disables a key as an operator could only by editing the database (no route or command disables one), and tells
 * the caches.
 */
export async function disableKey(ctx: Pick<TestContext, 'db' | 'bus'>, id: string, enabled = false): Promise<void> {
  await ctx.db.query('UPDATE api_keys SET enabled = $2 WHERE id = $1', [id, enabled]);
  await ctx.bus.publish({ topic: 'key', ids: [id] });
}
