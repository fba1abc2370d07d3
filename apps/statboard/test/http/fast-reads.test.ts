import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import type { CreateApiKeyRequest } from '#src/modules/api-keys/schemas.ts';
import {
  ACTOR,
  createTestContext,
  type Fixture,
  modBatch,
  seedWorkspace,
  type TestContext,
  testConfig,
} from '../helpers.ts';
import { ingestOk, mutate, uuid } from './support.ts';

// The fast path (src/http/fast-reads.ts) answers cached key reads before Fastify routes them. These tests send
// the same requests over real HTTP to the app as it ships and to one with the fast path off (Fastify only), on
// the same services and caches, and require the same status, headers and body, while checking that the fast
// path did serve.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Everything but the Date header, which may tick between the two answers. */
function comparable(a: Answer): Answer {
  const { date: _date, ...headers } = a.headers;
  return { ...a, headers };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function hotOf(app: FastifyInstance): FastReads {
  return app.fastReads;
}

let ctx: TestContext;
let fx: Fixture;
let plain: FastifyInstance;
let hotUrl: string;
let plainUrl: string;
const STATS = ['hot:score', 'hot:time', 'hot:hidden', 'hot:a.b'];
const PLAYERS = { a: uuid(), b: uuid(), hidden: uuid() };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Hot');
  let n = 0;
  for (const [name, player] of Object.entries(PLAYERS)) {
    n++;
    const stats = STATS.map((key, i) => ({ key, value: n * 10 + i }));
    await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username: `P_${name}`, stats, sessionId: uuid() }));
  }
  await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [PLAYERS.hidden]);
  await mutate(ctx, fx.workspaceId, 'UPDATE stat_definitions SET public = false WHERE key = $1', ['hot:hidden']);
  const s2 = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Two', slug: 's2', active: false });
  const make = async (name: string, input: Omit<CreateApiKeyRequest, 'name' | 'type'>) => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, { name, type: 'website', ...input });
    tokens[name] = k.secret;
  };
  tokens.website = fx.keys.website!;
  tokens.client = fx.keys.client!;
  await make('onlyA', { scopes: ['stats:read', 'leaderboards:read'], player_restrictions: [PLAYERS.a] });
  await make('onlyS2', { scopes: ['stats:read', 'leaderboards:read'], season_restrictions: [s2.id] });
  await make('noBoards', { scopes: ['stats:read'] });
  const revoked = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
    name: 'revoked',
    type: 'website',
    scopes: ['stats:read', 'leaderboards:read'],
  });
  tokens.revoked = revoked.secret;
  await ctx.services.keys.revoke(ACTOR, fx.workspaceId, revoked.data.id);
  // The same services (and caches) behind Fastify alone.
  plain = await buildApp({ config: testConfig(), services: ctx.services, fastReads: false });
  hotUrl = ctx.url;
  plainUrl = await listen(plain);
});

afterAll(async () => {
  agent.destroy();
  await plain?.close();
  await ctx?.close();
});

const season = fc.constantFrom('s1', 's2', '', 'S1', 'nope', '%73%31', 'x'.repeat(300));
const stat = fc.constantFrom(...STATS, ...STATS.map(encodeURIComponent), 'hot%3Ascore', 'missing', '', 'hot:score%');
const limit = fc.constantFrom('1', '3', '10', '100', '101', '0', '007', '-1', '1e1', '2.5', 'abc', '', '99999999');
const player = fc.constantFrom(
  PLAYERS.a,
  PLAYERS.b,
  PLAYERS.hidden,
  PLAYERS.a.toUpperCase(),
  uuid(),
  'not-a-uuid',
  `${PLAYERS.a}x`,
  PLAYERS.a.slice(1),
);
/** A fixture value, read when the generator runs (after beforeAll). */
function fx0(name: 'seasonId'): string {
  return fx?.[name] ?? 'unset';
}
const part = (name: string, value: fc.Arbitrary<string>) => value.map((v) => `${name}=${v}`);
const junk = fc.constantFrom('x=1', 'season', '=1', 'limit=5&limit=6', 'stat=a+b', '', 'a%zz=1', '__proto__=1', 'stat');
const query = fc
  .array(fc.oneof(part('season', season), part('stat', stat), part('limit', limit), junk), { maxLength: 5 })
  .map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
/** Well-formed requests (the ones the hot path may serve), in any parameter order. */
const wellFormed = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('s1', 's2', fx0('seasonId')),
      fc.constantFrom(...STATS.map(encodeURIComponent)),
      fc.option(limit, { nil: undefined }),
    )
    .chain(([s, st, l]) =>
      fc.shuffledSubarray([`season=${s}`, `stat=${st}`, ...(l === undefined ? [] : [`limit=${l}`])], {
        minLength: 2,
      }),
    )
    .map((parts) => `/api/v1/leaderboards?${parts.join('&')}`),
  fc
    .tuple(player, fc.constantFrom('', '?season=s1', '?season=', '?season=s2', `?season=${fx0('seasonId')}`))
    .map(([p, q]) => `/api/v1/players/${p}/stats${q}`),
);
const path = fc.oneof(
  { weight: 6, arbitrary: wellFormed },
  { weight: 3, arbitrary: query.map((q) => `/api/v1/leaderboards${q}`) },
  { weight: 3, arbitrary: fc.tuple(player, query).map(([p, q]) => `/api/v1/players/${p}/stats${q}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/api/v1/leaderboards/?season=s1&stat=hot:score',
      '/api/v1/Leaderboards?season=s1&stat=hot:score',
      '/api/v1/leaderboard%73?season=s1&stat=hot:score',
      `/api/v1/players/${PLAYERS.a}/stats/`,
      `/api/v1/players/${PLAYERS.a}`,
      `/api/v1/players/${PLAYERS.a}/stats?season=s1#x`,
      '/api/v1/leaderboards?season=s1&stat=hot:score&limit=5%00',
    ),
  },
);
const auth = fc.oneof(
  { weight: 8, arbitrary: fc.constant(() => `Bearer ${tokens.website}`) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      ...['onlyA', 'onlyS2', 'noBoards', 'client', 'revoked'].map((k) => () => `Bearer ${tokens[k]}`),
      () => `bearer  ${tokens.website}`,
      () => `Bearer ${tokens.website!.slice(0, -1)}${tokens.website!.endsWith('A') ? 'B' : 'A'}`,
      () => 'Bearer nonsense',
      () => '',
      () => undefined,
    ),
  },
);
const requestId = fc.option(fc.constantFrom('req-1', 'abc-DEF_123'), { nil: undefined });

describe('fast reads', () => {
  it('answer exactly as Fastify does, for generated requests (and serve the cached ones)', async () => {
    const before = hotOf(ctx.app).served;
    await fc.assert(
      fc.asyncProperty(path, auth, requestId, async (p, authOf, rid) => {
        const headers: Record<string, string> = { 'x-request-id': rid ?? 'fixed-for-comparison' };
        const a = authOf();
        if (a !== undefined) headers.authorization = a;
        // Fastify first: it fills the caches the hot path then reads.
        const reference = await get(plainUrl, p, headers);
        const hot = await get(hotUrl, p, headers);
        expect(comparable(hot), p).toEqual(comparable(reference));
      }),
      { numRuns: 500 },
    );
    // Warm caches, a valid key and a simple query come up often enough that many answers came from it.
    expect(hotOf(ctx.app).served - before).toBeGreaterThan(20);
  });

  it('serve a cached leaderboard and player statistics with the headers Fastify gives', async () => {
    const headers = { authorization: `Bearer ${tokens.website}` };
    for (const p of [
      `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent('hot:score')}&limit=2`,
      `/api/v1/players/${PLAYERS.b}/stats`,
    ]) {
      const reference = await get(plainUrl, p, headers);
      expect(reference.status).toBe(200);
      const served = hotOf(ctx.app).served;
      const hot = await get(hotUrl, p, headers);
      expect(hotOf(ctx.app).served).toBe(served + 1);
      expect(hot.status).toBe(200);
      expect(hot.body).toBe(reference.body);
      expect(hot.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(hot.headers['content-length']).toBe(String(Buffer.byteLength(reference.body)));
      // A new request id each time when the client sends none, as Fastify's.
      expect(hot.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(hot.headers).sort()).toEqual(Object.keys(reference.headers).sort());
    }
  });

  it('see a change at once: an ingest that got 200 is in the next answer', async () => {
    const p = `/api/v1/players/${PLAYERS.a}/stats`;
    const headers = { authorization: `Bearer ${tokens.website}` };
    await get(plainUrl, p, headers);
    const served = hotOf(ctx.app).served;
    expect(JSON.parse((await get(hotUrl, p, headers)).body).stats).toContainEqual(
      expect.objectContaining({ key: 'hot:score', value: 10 }),
    );
    expect(hotOf(ctx.app).served).toBe(served + 1);
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: PLAYERS.a,
        username: 'P_a',
        stats: [{ key: 'hot:score', value: 999 }],
        observedAt: new Date().toISOString(),
        sessionId: uuid(),
      }),
    );
    expect(JSON.parse((await get(hotUrl, p, headers)).body).stats).toContainEqual(
      expect.objectContaining({ key: 'hot:score', value: 999 }),
    );
  });
});

describe('fast reads and the rate limit', () => {
  let limited: TestContext;
  let lfx: Fixture;
  let url: string;

  beforeAll(async () => {
    limited = await createTestContext({ RATE_LIMIT_PER_MINUTE: '5' });
    lfx = await seedWorkspace(limited.services, 'Limited');
    await ingestOk(limited, lfx.keys.client!, modBatch({ stats: [{ key: 'hot:score', value: 1 }] }));
    url = limited.url;
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('count each request once, and leave the 429 to Fastify', async () => {
    const headers = { authorization: `Bearer ${lfx.keys.website}`, 'x-request-id': 'rl' };
    const p = '/api/v1/leaderboards?season=s1&stat=hot:score';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(url, p, headers)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(hotOf(limited.app).served).toBe(4); // the first loads the board (Fastify), the next four are cached
    const refused = await get(url, p, headers);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.any(String), request_id: 'rl' },
    });
  });
});

describe('the access log', () => {
  it('has one line per request, whichever path answered it', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const logger = pino({ level: 'info' }, stream);
    const app = await buildApp({ config: testConfig(), services: ctx.services, logger });
    try {
      const url = await listen(app);
      const p = '/api/v1/leaderboards?season=s1&stat=hot:score';
      const headers = { authorization: `Bearer ${tokens.website}` };
      for (let i = 0; i < 3; i++) expect((await get(url, p, headers)).status).toBe(200);
      expect((await get(url, p, {})).status).toBe(401);
      expect(hotOf(app).served).toBeGreaterThanOrEqual(2);
      const access = lines.filter((l) => l.msg === 'request completed');
      expect(access.map((l) => [l.method, l.url, l.statusCode])).toEqual([
        ['GET', p, 200],
        ['GET', p, 200],
        ['GET', p, 200],
        ['GET', p, 401],
      ]);
      for (const l of access) expect(l).toMatchObject({ ip: '127.0.0.1', reqId: expect.any(String) });
    } finally {
      await app.close();
    }
  });
});

describe('the fast path stands aside', () => {
  it('when off, or when the rate limit is counted in Redis', async () => {
    expect(plain.fastReads.active).toBe(false);
    expect(ctx.app.fastReads.active).toBe(true);
    const redis = await buildApp({
      config: testConfig({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '5' }),
      services: ctx.services,
    });
    expect(redis.fastReads.active).toBe(false);
    await redis.close();
  });
  it('while the server shuts down', async () => {
    const app = await buildApp({ config: testConfig(), services: ctx.services });
    const url = await listen(app);
    const hot = hotOf(app);
    const p = '/api/v1/leaderboards?season=s1&stat=hot:score';
    const headers = { authorization: `Bearer ${tokens.website}` };
    await get(url, p, headers);
    const served = hot.served;
    await get(url, p, headers);
    expect(hot.served).toBe(served + 1);
    await app.close();
    const res = { statusCode: 0, headers: {} } as unknown as Parameters<FastReads['serve']>[1];
    const req = { method: 'GET', url: p, headers } as unknown as Parameters<FastReads['serve']>[0];
    expect(hot.serve(req, res)).toBe(false);
  });
});
