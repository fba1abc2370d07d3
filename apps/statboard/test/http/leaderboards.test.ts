import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, expectInvalid, getJson, ingestOk, mutate, snapshotDb, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let web: string;

interface Entry {
  rank: number;
  player: { id: string; uuid: string; username: string; public: boolean };
  value: number;
  updated_at: string;
}
interface Board {
  season: { id: string; slug: string };
  stat: string;
  entries: Entry[];
}

const SCORE = 'lb:score';
const TIME = 'lb:best_time';
const MANY = 'lb:many';
const HIDDEN_STAT = 'lb:hidden';
const P = { first: uuid(), second: uuid(), third: uuid(), fourth: uuid(), hidden: uuid() };

async function post(player: string, username: string, stats: { key: string; value: number }[], observedAt?: string) {
  await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username, stats, observedAt, sessionId: uuid() }));
}

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Boards');
  web = fx.keys.website!;
  // One at a time: each value gets a later updated_at than the one before.
  await post(P.first, 'First', [
    { key: SCORE, value: 100 },
    { key: TIME, value: 30.5 },
    { key: HIDDEN_STAT, value: 1 },
  ]);
  await post(P.second, 'Second', [
    { key: SCORE, value: 90 },
    { key: TIME, value: 20.25 },
  ]);
  await post(P.third, 'Third', [
    { key: SCORE, value: 90 },
    { key: TIME, value: 40 },
  ]);
  await post(P.fourth, 'Fourth', [{ key: SCORE, value: 80 }]);
  await post(P.hidden, 'Hidden', [
    { key: SCORE, value: 1000 },
    { key: TIME, value: 1 },
  ]);
  // No admin routes yet for player visibility and definition settings.
  await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [P.hidden]);
  await mutate(ctx, fx.workspaceId, 'UPDATE stat_definitions SET public = false WHERE key = $1', [HIDDEN_STAT]);
  await mutate(ctx, fx.workspaceId, "UPDATE stat_definitions SET sort_order = 'asc' WHERE key = $1", [TIME]);
  // 105 players for the limit cases.
  // Through the integration key: from a client key, newcomers straight into the top 10 of a board of 20 would be
  // held for review (`first_sight`).
  await Promise.all(
    Array.from({ length: 105 }, (_, i) =>
      ingestOk(
        ctx,
        fx.keys.integration!,
        modBatch({ uuid: uuid(), username: `Many${i}`, stats: [{ key: MANY, value: i }], sessionId: uuid() }),
      ),
    ),
  );
});
afterAll(async () => {
  await ctx?.close();
});

async function board(query: string, token = web): Promise<Board> {
  const res = await getJson(ctx, token, `/api/v1/leaderboards${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Board;
}

runSecurityMatrix('GET /api/v1/leaderboards', () => ctx, {
  method: 'GET',
  scope: 'leaderboards:read',
  url: (w) => `/api/v1/leaderboards?season=${w.home.seasonId}&stat=${encodeURIComponent(w.statKey)}`,
});

describe('GET /api/v1/leaderboards', () => {
  it('returns {season, stat, entries} with entries {rank, player, value, updated_at}', async () => {
    const b = await board(`?season=s1&stat=${SCORE}`);
    expect(Object.keys(b).sort()).toEqual(['entries', 'season', 'stat']);
    expect(b.stat).toBe(SCORE);
    expect(b.season).toMatchObject({ id: fx.seasonId, slug: 's1' });
    for (const e of b.entries) {
      expect(Object.keys(e).sort()).toEqual(['player', 'rank', 'updated_at', 'value']);
      expect(Object.keys(e.player).sort()).toEqual(['id', 'public', 'username', 'uuid']);
      expect(Number.isNaN(Date.parse(e.updated_at))).toBe(false);
    }
  });

  it('ranks descending by default with competition ranks (1, 2, 2, 4), the earlier value first on a tie', async () => {
    const b = await board(`?season=s1&stat=${SCORE}`);
    expect(b.entries.map((e) => [e.rank, e.player.username, e.value])).toEqual([
      [1, 'First', 100],
      [2, 'Second', 90],
      [2, 'Third', 90],
      [4, 'Fourth', 80],
    ]);
  });

  it('keeps the tie order when the earlier player re-sends the same value', async () => {
    await post(P.second, 'Second', [{ key: SCORE, value: 90 }], new Date().toISOString());
    const b = await board(`?season=s1&stat=${SCORE}`);
    expect(b.entries.map((e) => e.player.username)).toEqual(['First', 'Second', 'Third', 'Fourth']);
  });

  it('breaks a tie of value and updated_at by player UUID', async () => {
    const [lo, hi] = [P.second, P.third].sort();
    await mutate(
      ctx,
      fx.workspaceId,
      `UPDATE player_stats SET updated_at = '2026-01-01T00:00:00Z'
       WHERE stat_id = (SELECT id FROM stat_definitions WHERE key = $1) AND player_id IN
         (SELECT id FROM players WHERE uuid = ANY($2::uuid[]))`,
      [SCORE, [P.second, P.third]],
    );
    const b = await board(`?season=s1&stat=${SCORE}`);
    expect(b.entries.map((e) => [e.rank, e.player.uuid])).toEqual([
      [1, P.first],
      [2, lo],
      [2, hi],
      [4, P.fourth],
    ]);
  });

  it("orders ascending when the definition's sort order is asc", async () => {
    const b = await board(`?season=s1&stat=${TIME}`);
    expect(b.entries.map((e) => [e.rank, e.player.username, e.value])).toEqual([
      [1, 'Second', 20.25],
      [2, 'First', 30.5],
      [3, 'Third', 40],
    ]);
  });

  it('excludes players who are not public', async () => {
    for (const stat of [SCORE, TIME]) {
      const b = await board(`?season=s1&stat=${stat}`);
      expect(b.entries.map((e) => e.player.uuid)).not.toContain(P.hidden);
    }
  });

  it('accepts the season by id or slug', async () => {
    expect((await board(`?season=${fx.seasonId}&stat=${SCORE}`)).season.id).toBe(fx.seasonId);
    expect((await board(`?season=${fx.seasonId.toUpperCase()}&stat=${SCORE}`)).season.id).toBe(fx.seasonId);
  });

  it('returns 10 entries by default', async () => {
    const b = await board(`?season=s1&stat=${MANY}`);
    expect(b.entries).toHaveLength(10);
    expect(b.entries.map((e) => e.value)).toEqual([104, 103, 102, 101, 100, 99, 98, 97, 96, 95]);
    expect(b.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('clamps limit to 1–100', async () => {
    const count = async (limit: string) => (await board(`?season=s1&stat=${MANY}&limit=${limit}`)).entries.length;
    expect(await count('0')).toBe(1);
    expect(await count('-5')).toBe(1);
    expect(await count('1')).toBe(1);
    expect(await count('37')).toBe(37);
    expect(await count('100')).toBe(100);
    expect(await count('101')).toBe(100);
    expect(await count('1000')).toBe(100);
    expect(await count('99999999999999')).toBe(100);
    expect(await count('Infinity')).toBe(100);
    expect(await count('-Infinity')).toBe(1);
  });

  it('returns 422 when limit is not an integer', async () => {
    for (const v of ['abc', '1.5', '']) {
      expectInvalid(await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${MANY}&limit=${v}`), 'limit');
    }
  });

  it('requires season and stat (422 naming each missing one)', async () => {
    expectInvalid(await getJson(ctx, web, `/api/v1/leaderboards?stat=${SCORE}`), 'season');
    expectInvalid(await getJson(ctx, web, '/api/v1/leaderboards?season=s1'), 'stat');
    const both = expectError(await getJson(ctx, web, '/api/v1/leaderboards'), 422, 'INVALID_PAYLOAD');
    expect(Object.keys(both.error.details ?? {}).some((f) => f === 'season' || f === 'stat')).toBe(true);
    expectInvalid(await getJson(ctx, web, `/api/v1/leaderboards?season=&stat=${SCORE}`), 'season');
    expectInvalid(await getJson(ctx, web, '/api/v1/leaderboards?season=s1&stat='), 'stat');
  });

  it('returns 404 NOT_FOUND for an unknown or non-public statistic', async () => {
    for (const stat of ['lb:nope', HIDDEN_STAT, 'x'.repeat(300), 'LB:SCORE']) {
      expectError(
        await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(stat)}`),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('returns 404 NOT_FOUND for an unknown season', async () => {
    for (const season of ['nope', uuid()]) {
      expectError(await getJson(ctx, web, `/api/v1/leaderboards?season=${season}&stat=${SCORE}`), 404, 'NOT_FOUND');
    }
  });

  it("returns 403 FORBIDDEN for a season outside the key's season restriction", async () => {
    const s2 = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'S2', slug: 'lb-s2' });
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'only s2',
      type: 'website',
      scopes: ['leaderboards:read'],
      season_restrictions: [s2.id],
    });
    expectError(await getJson(ctx, k.secret, `/api/v1/leaderboards?season=s1&stat=${SCORE}`), 403, 'FORBIDDEN');
    expect((await board(`?season=lb-s2&stat=${SCORE}`, k.secret)).entries).toEqual([]);
  });

  it("lists only players in the key's UUID restriction", async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'two players',
      type: 'website',
      scopes: ['leaderboards:read'],
      player_restrictions: [P.third, P.fourth.toUpperCase(), P.hidden],
    });
    const b = await board(`?season=s1&stat=${SCORE}`, k.secret);
    expect(b.entries.map((e) => e.player.uuid)).toEqual([P.third, P.fourth]);
  });

  it('writes nothing when answering', async () => {
    const before = await snapshotDb(ctx.db);
    await board(`?season=s1&stat=${SCORE}`);
    await getJson(ctx, web, '/api/v1/leaderboards');
    await getJson(ctx, web, '/api/v1/leaderboards?season=s1&stat=lb:nope');
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });
});
