import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { type DbSnapshot, expectError, ingestOk, mutate, snapshotDb } from '../http/support.ts';
import { nastyString, pathSegment, percentEncode, queryString } from './arbitraries.ts';

/**
 * Generated query strings and path segments for every GET key route: never a 5xx, 4xx always in the error
 * shape, 200 always in the route's shape, and nothing is ever written.
 */

let ctx: TestContext;
let fx: Fixture;
let restricted: string;
const PLAYER = '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b';

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Property reads');
  await ingestOk(
    ctx,
    fx.keys.client!,
    modBatch({
      uuid: PLAYER,
      username: 'Steve',
      stats: [
        { key: 'minecraft.mined:minecraft.stone', value: 42 },
        { key: 'minecraft:custom:minecraft:play_time', value: 7 },
      ],
    }),
  );
  await ingestOk(
    ctx,
    fx.keys.client!,
    modBatch({ uuid: crypto.randomUUID(), username: 'a_b%c', sessionId: crypto.randomUUID() }),
  );
  await mutate(ctx, fx.workspaceId, "UPDATE players SET public = false WHERE username = 'a_b%c'");
  const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
    name: 'restricted',
    type: 'integration',
    scopes: ['players:read', 'stats:read', 'leaderboards:read', 'presence:read'],
    player_restrictions: [PLAYER],
    season_restrictions: [fx.seasonId],
  });
  restricted = k.secret;
});
afterAll(async () => {
  await ctx?.close();
});

const ROUTES = [
  '/api/v1/players',
  '/api/v1/players/{p}',
  '/api/v1/players/{p}/stats',
  '/api/v1/players/{p}/stats/history',
  '/api/v1/leaderboards',
  '/api/v1/leaderboards/rank',
  '/api/v1/online',
  '/api/v1/seasons',
  '/api/v1/stats',
];

const STATUSES = [200, 400, 403, 404, 422];

/** Checks one answer and that the database is as it was. */
async function check(url: string, token: string, before: DbSnapshot, strict: boolean): Promise<void> {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (strict) {
    expect(STATUSES, `${url}: ${res.statusCode}`).toContain(res.statusCode);
    if (res.statusCode !== 200) expectError(res, res.statusCode);
    else {
      expect(res.headers['x-request-id']).toBeTypeOf('string');
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      const body = res.json() as Record<string, unknown>;
      expect(body).toBeTypeOf('object');
      // Nothing beyond the key's restriction: the hidden player never shows.
      expect(res.body).not.toContain('a_b%c');
    }
  }
  expect(await snapshotDb(ctx.db)).toEqual(before);
}

describe('GET key routes: generated queries and path segments', () => {
  it('never answers a 5xx, keeps the error shape and writes nothing', async () => {
    const before = await snapshotDb(ctx.db);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.oneof(fc.constant(PLAYER), pathSegment),
        queryString,
        fc.boolean(),
        async (route, segment, query, useRestricted) => {
          const url = `${route.replace('{p}', segment)}${query}`;
          await check(url, useRestricted ? restricted : fx.keys.integration!, before, true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers well-formed pagination and limits with the route shape', async () => {
    const before = await snapshotDb(ctx.db);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: -1000, max: 1000 }),
        nastyString(20),
        async (perPage, page, limit, search) => {
          const res = await ctx.app.inject({
            method: 'GET',
            url: `/api/v1/players?per_page=${perPage}&page=${page}&search=${percentEncode(search)}`,
            headers: { authorization: `Bearer ${fx.keys.website}` },
          });
          if (res.statusCode === 400) {
            // NUL or a lone surrogate in the search term cannot be stored, and so is refused as such.
            expectError(res, 400, 'BAD_REQUEST');
          } else {
            expect(res.statusCode, res.body).toBe(200);
            const body = res.json();
            expect(body.meta).toEqual({ current_page: page, per_page: perPage, total: expect.any(Number) });
            expect(body.data.length).toBeLessThanOrEqual(perPage);
          }
          const lb = await ctx.app.inject({
            method: 'GET',
            url: `/api/v1/leaderboards?season=s1&stat=minecraft.mined:minecraft.stone&limit=${limit}`,
            headers: { authorization: `Bearer ${fx.keys.website}` },
          });
          expect(lb.statusCode, lb.body).toBe(200);
          expect(lb.json().entries).toHaveLength(1);
          expect(await snapshotDb(ctx.db)).toEqual(before);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never answers a 5xx or writes for any path, even long or broken escapes', async () => {
    const before = await snapshotDb(ctx.db);
    const rawSegment = fc.oneof(
      fc
        .uint8Array({ minLength: 1, maxLength: 80 })
        .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
      fc.integer({ min: 90, max: 400 }).map((n) => 'a'.repeat(n)),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', 'a/b', '', '%2e%2e/%2e%2e'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), rawSegment, queryString, async (route, segment, query) => {
        const url = route.includes('{p}') ? route.replace('{p}', segment) : `${route}/${segment}`;
        await check(`${url}${query}`, fx.keys.integration!, before, false);
      }),
      { numRuns: 150 },
    );
  });
});
