import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '#src/db/types.ts';
import {
  ACTOR,
  bearer,
  createTestContext,
  DB_KIND,
  type Fixture,
  type HttpAnswer,
  modBatch,
  seedWorkspace,
  type TestContext,
} from '../helpers.ts';
import { isObject, type Json } from './compat.ts';
import { Conformance } from './conformance.ts';

let ctx: TestContext;
let fx: Fixture;
let conformance: Conformance;

const PLAYER = '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b';
const OTHER_PLAYER = '6a1f0f3c-2b8e-4c55-9d0e-7f4a1b2c3d4e';
const STAT = 'minecraft.mined:minecraft.stone';

/** Sends a request and checks the response against the served document (see `Conformance.check`). */
async function call(
  template: string,
  options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    headers?: Record<string, string>;
    payload?: string | Record<string, unknown>;
  },
): Promise<HttpAnswer> {
  // Over a real connection to the app as it ships (cached reads meet the fast path in front of Fastify).
  const { payload, ...rest } = options;
  const res = await ctx.http({
    ...rest,
    ...(payload === undefined
      ? {}
      : typeof payload === 'string'
        ? { payload }
        : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...options.headers } }),
  });
  conformance.check(options.method, template, res, options.url);
  return res;
}

/** A database whose every query fails, to see /health/ready answer 503. */
function unreachable(db: Db): Db {
  const fail = () => Promise.reject(new Error('connection refused'));
  return {
    kind: db.kind,
    query: fail,
    exec: fail,
    transaction: <T>(_fn: (tx: Queryable) => Promise<T>) => fail() as Promise<T>,
    close: () => Promise.resolve(),
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
  const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  conformance = new Conformance(JSON.parse(res.body) as Json);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`responses match the served OpenAPI document (${DB_KIND})`, () => {
  describe('health', () => {
    for (const prefix of ['', '/api/v1']) {
      it(`answers ${prefix}/health/live and ${prefix}/health/ready with {status: ok}`, async () => {
        await call(`${prefix}/health/live`, { method: 'GET', url: `${prefix}/health/live` });
        const ready = await call(`${prefix}/health/ready`, { method: 'GET', url: `${prefix}/health/ready` });
        expect(ready.json()).toEqual({ status: 'ok' });
      });
    }

    it('answers /health/ready with 503 {status: unavailable} when the database is unreachable', async () => {
      const { buildApp } = await import('#src/app.ts');
      const broken = await buildApp({ config: ctx.config, services: { ...ctx.services, db: unreachable(ctx.db) } });
      try {
        const res = await broken.inject({ method: 'GET', url: '/health/ready' });
        expect(res.statusCode).toBe(503);
        conformance.check('GET', '/health/ready', res);
        expect(res.json()).toEqual({ status: 'unavailable' });
      } finally {
        await broken.close();
      }
    });
  });

  describe('POST /api/v1/ingest/batch', () => {
    const T = '/api/v1/ingest/batch';
    const post = (body: unknown, headers: Record<string, string> = bearer(fx.keys.client!)) =>
      call(T, { method: 'POST', url: T, headers, payload: body as Record<string, unknown> });

    it('accepts a batch of the real mod (200)', async () => {
      const res = await post(modBatch({ stats: [{ key: STAT, value: 42 }] }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ accepted: true });
    });

    it('accepts a batch of a second player (200)', async () => {
      const res = await post(modBatch({ uuid: OTHER_PLAYER, username: 'Alex' }));
      expect(res.statusCode).toBe(200);
    });

    it('refuses a missing, malformed or unknown key (401)', async () => {
      expect((await post(modBatch(), {})).statusCode).toBe(401);
      expect((await post(modBatch(), { authorization: 'Bearer nope' })).statusCode).toBe(401);
      const unknown = `stb_client_${randomUUID()}_${'A'.repeat(43)}`;
      expect((await post(modBatch(), bearer(unknown))).statusCode).toBe(401);
    });

    it('refuses a key without ingest:write (403)', async () => {
      expect((await post(modBatch(), bearer(fx.keys.website!))).statusCode).toBe(403);
    });

    it('refuses a player outside the key restriction (403)', async () => {
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: 'only one',
        type: 'client',
        scopes: ['ingest:write'],
        player_restrictions: [randomUUID()],
      });
      expect((await post(modBatch(), bearer(k.secret))).statusCode).toBe(403);
    });

    it('refuses unparseable JSON (400)', async () => {
      const res = await call(T, {
        method: 'POST',
        url: T,
        headers: { ...bearer(fx.keys.client!), 'content-type': 'application/json' },
        payload: '{"protocol_version": 1,',
      });
      expect(res.statusCode).toBe(400);
    });

    it('refuses a body over 1 MiB (413)', async () => {
      const res = await call(T, {
        method: 'POST',
        url: T,
        headers: { ...bearer(fx.keys.client!), 'content-type': 'application/json' },
        payload: JSON.stringify({ ...modBatch(), padding: 'x'.repeat(1024 * 1024) }),
      });
      expect(res.statusCode).toBe(413);
    });

    it('refuses an invalid batch with field details (422)', async () => {
      const res = await post({ ...modBatch(), player: { uuid: 'nope', username: '' } });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().error.details)).toContain('player.uuid');
    });

    it('refuses an unregistered server (404)', async () => {
      expect((await post(modBatch({ hostname: 'unknown.example.com' }))).statusCode).toBe(404);
    });
  });

  describe('POST /api/v1/ingest/server', () => {
    const T = '/api/v1/ingest/server';
    let agent: string;
    // A player of its own: the reads below count the others' values.
    const SERVER_PLAYER = randomUUID();
    const body = (stats = [{ key: 'minecraft.custom:minecraft.jump', value: 43 }]) => ({
      observed_at: new Date().toISOString(),
      players: [{ uuid: SERVER_PLAYER, stats }],
    });
    const post = (payload: unknown, headers: Record<string, string>) =>
      call(T, { method: 'POST', url: T, headers, payload: payload as Record<string, unknown> });

    beforeAll(async () => {
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: 'agent',
        type: 'integration',
        scopes: ['ingest:server'],
        server_restrictions: [fx.serverId],
      });
      agent = k.secret;
    });

    it("accepts a server's upload (200)", async () => {
      const res = await post(body(), bearer(agent));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ accepted: true, players: 1, values: 1 });
    });

    it('refuses a missing key (401) and a key without ingest:server (403)', async () => {
      expect((await post(body(), {})).statusCode).toBe(401);
      expect((await post(body(), bearer(fx.keys.integration!))).statusCode).toBe(403);
    });

    it('refuses repeated statistics with field details (422)', async () => {
      const res = await post(
        body([
          { key: STAT, value: 1 },
          { key: STAT, value: 2 },
        ]),
        bearer(agent),
      );
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().error.details)).toContain('players.0.stats.1.key');
    });
  });

  describe('GET /api/v1/players', () => {
    const T = '/api/v1/players';
    const get = (query = '', key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `${T}${query}`, headers: bearer(key) });

    it('lists players with pagination (200)', async () => {
      const res = await get('?per_page=1&search=ste');
      expect(res.statusCode).toBe(200);
      expect(res.json().data[0].uuid).toBe(PLAYER);
    });

    it('refuses no key (401) and a key without players:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: T })).statusCode).toBe(401);
      expect((await get('', fx.keys.client!)).statusCode).toBe(403);
    });

    it('refuses per_page outside 1–100 (422)', async () => {
      expect((await get('?per_page=0')).statusCode).toBe(422);
      expect((await get('?page=0')).statusCode).toBe(422);
    });
  });

  describe('GET /api/v1/players/{player}', () => {
    const T = '/api/v1/players/{player}';
    const get = (player: string, key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `/api/v1/players/${player}`, headers: bearer(key) });

    it('returns a bare Player (200)', async () => {
      const res = await get(PLAYER);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ uuid: PLAYER, username: 'Steve', public: true });
    });

    it('refuses no key (401), a key without players:read (403) and a player outside the restriction (403)', async () => {
      expect((await call(T, { method: 'GET', url: `/api/v1/players/${PLAYER}` })).statusCode).toBe(401);
      expect((await get(PLAYER, fx.keys.client!)).statusCode).toBe(403);
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: 'other player',
        type: 'website',
        scopes: ['players:read', 'stats:read'],
        player_restrictions: [OTHER_PLAYER],
      });
      expect((await get(PLAYER, k.secret)).statusCode).toBe(403);
    });

    it('answers 404 for an unknown player and for a malformed UUID', async () => {
      expect((await get(randomUUID())).statusCode).toBe(404);
      expect((await get('not-a-uuid')).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/players/{player}/stats', () => {
    const T = '/api/v1/players/{player}/stats';
    const get = (player: string, query = '', key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `/api/v1/players/${player}/stats${query}`, headers: bearer(key) });

    it('returns the stats of the active season and of a season by slug (200)', async () => {
      const res = await get(PLAYER);
      expect(res.statusCode).toBe(200);
      expect(res.json().stats).toEqual([expect.objectContaining({ key: STAT, value: 42 })]);
      expect((await get(PLAYER, `?season=${fx.seasonSlug}`)).statusCode).toBe(200);
    });

    it('refuses no key (401) and a key without stats:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: `/api/v1/players/${PLAYER}/stats` })).statusCode).toBe(401);
      expect((await get(PLAYER, '', fx.keys.client!)).statusCode).toBe(403);
    });

    it('answers 404 for an unknown season or player and for a malformed UUID', async () => {
      expect((await get(PLAYER, '?season=nope')).statusCode).toBe(404);
      expect((await get(randomUUID())).statusCode).toBe(404);
      expect((await get('not-a-uuid')).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/leaderboards', () => {
    const T = '/api/v1/leaderboards';
    const get = (query: string, key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `${T}${query}`, headers: bearer(key) });

    it('ranks a public statistic (200)', async () => {
      const res = await get(`?season=${fx.seasonSlug}&stat=${encodeURIComponent(STAT)}&limit=5`);
      expect(res.statusCode).toBe(200);
      expect(res.json().entries[0]).toMatchObject({ rank: 1, value: 42 });
    });

    it('refuses no key (401) and a key without leaderboards:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: `${T}?season=s1&stat=x:y` })).statusCode).toBe(401);
      expect((await get('?season=s1&stat=x:y', fx.keys.client!)).statusCode).toBe(403);
    });

    it('answers 404 for an unknown statistic or season and 422 without a stat', async () => {
      expect((await get(`?season=${fx.seasonSlug}&stat=nope:nope`)).statusCode).toBe(404);
      expect((await get(`?season=nope&stat=${encodeURIComponent(STAT)}`)).statusCode).toBe(404);
      expect((await get(`?season=${fx.seasonSlug}`)).statusCode).toBe(422);
    });
  });

  describe('GET /api/v1/leaderboards/rank', () => {
    const T = '/api/v1/leaderboards/rank';
    const get = (query: string, key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `${T}${query}`, headers: bearer(key) });
    const q = () => `?season=${fx.seasonSlug}&stat=${encodeURIComponent(STAT)}&player=${PLAYER}`;

    it("gives a player's rank and the entries around it (200)", async () => {
      const res = await get(`${q()}&around=2`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ entry: { rank: 1, value: 42 } });
    });

    it('refuses no key (401), a key without leaderboards:read (403), a bad around (422), no value (404)', async () => {
      expect((await call(T, { method: 'GET', url: `${T}${q()}` })).statusCode).toBe(401);
      expect((await get(q(), fx.keys.client!)).statusCode).toBe(403);
      expect((await get(`${q()}&around=51`)).statusCode).toBe(422);
      expect(
        (await get(`?season=${fx.seasonSlug}&stat=${encodeURIComponent(STAT)}&player=${randomUUID()}`)).statusCode,
      ).toBe(404);
    });
  });

  describe('GET /api/v1/players/{player}/stats/history', () => {
    const T = '/api/v1/players/{player}/stats/history';
    const get = (query: string, key = fx.keys.website!) =>
      call(T, { method: 'GET', url: `/api/v1/players/${PLAYER}/stats/history${query}`, headers: bearer(key) });

    it('gives the points of a value (200)', async () => {
      const res = await get(`?stat=${encodeURIComponent(STAT)}&from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z`);
      expect(res.statusCode).toBe(200);
      expect(res.json().points).toEqual([expect.objectContaining({ value: 42 })]);
    });

    it('refuses no key (401), a key without stats:read (403), too many buckets (422), an unknown stat (404)', async () => {
      expect(
        (await call(T, { method: 'GET', url: `/api/v1/players/${PLAYER}/stats/history?stat=x:y` })).statusCode,
      ).toBe(401);
      expect((await get(`?stat=${encodeURIComponent(STAT)}`, fx.keys.client!)).statusCode).toBe(403);
      expect((await get(`?stat=${encodeURIComponent(STAT)}&interval=hour&from=2025-01-01T00:00:00Z`)).statusCode).toBe(
        422,
      );
      expect((await get('?stat=nope:nope')).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/stats', () => {
    const T = '/api/v1/stats';

    it('lists the public statistics (200)', async () => {
      const res = await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.website!) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toContainEqual(expect.objectContaining({ key: STAT }));
    });

    it('refuses no key (401) and a key without stats:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: T })).statusCode).toBe(401);
      expect((await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.client!) })).statusCode).toBe(403);
    });
  });

  describe('GET /api/v1/online', () => {
    const T = '/api/v1/online';

    it('lists the players online (200)', async () => {
      const res = await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.website!) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((p: { player: { uuid: string } }) => p.player.uuid)).toContain(PLAYER);
    });

    it('refuses no key (401) and a key without presence:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: T })).statusCode).toBe(401);
      expect((await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.client!) })).statusCode).toBe(403);
    });
  });

  describe('GET /api/v1/seasons', () => {
    const T = '/api/v1/seasons';

    it('lists the seasons (200)', async () => {
      const res = await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.website!) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([expect.objectContaining({ slug: fx.seasonSlug, active: true })]);
    });

    it('refuses no key (401) and a key without stats:read (403)', async () => {
      expect((await call(T, { method: 'GET', url: T })).statusCode).toBe(401);
      expect((await call(T, { method: 'GET', url: T, headers: bearer(fx.keys.client!) })).statusCode).toBe(403);
    });

    it('refuses a revoked key (401)', async () => {
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: 'gone',
        type: 'website',
        scopes: ['stats:read'],
      });
      await ctx.services.keys.revoke(ACTOR, fx.workspaceId, k.data.id);
      expect((await call(T, { method: 'GET', url: T, headers: bearer(k.secret) })).statusCode).toBe(401);
    });
  });

  it('exercised the success, 401 and 403 responses of every API-key route', () => {
    // The API's key routes; `/api/health` (the mod's connection test) takes a key optionally and needs no scope.
    const keyRoute = (path: string, op: Json) =>
      path.startsWith('/api/v1/') &&
      Array.isArray(op.security) &&
      op.security.some((s) => isObject(s) && 'bearerAuth' in s);
    expect(conformance.missing(keyRoute, ['200', '401', '403'])).toEqual([]);
  });
});
