import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldHistory } from '#src/modules/history/fold.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, expectInvalid, getJson, ingestOk, mutate, sql, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let web: string;

const STAT = 'minecraft.custom:minecraft.jump';
const OTHER = 'minecraft.custom:minecraft.walk_one_cm';
const P = uuid();

async function observe(value: number, observedAt: string, player = P, key = STAT) {
  await ingestOk(
    ctx,
    fx.keys.client!,
    modBatch({ uuid: player, username: 'Grower', stats: [{ key, value }], observedAt }),
  );
}

type History = {
  player: { uuid: string };
  season: { slug: string };
  stat: string;
  interval: string;
  points: { at: string; value: number }[];
};

async function history(query: string, token = web): Promise<History> {
  const res = await getJson(ctx, token, `/api/v1/players/${P}/stats/history?stat=${STAT}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as History;
}

const historyRows = () =>
  sql(
    ctx,
    'SELECT h.at, h.value FROM stat_history h JOIN players p ON p.id = h.player_id WHERE p.uuid = $1 ORDER BY at',
    [P],
  );

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'History');
  web = fx.keys.website!;
  await observe(1, '2026-10-01T10:05:00Z');
  await observe(2, '2026-10-01T10:40:00Z');
  await observe(3, '2026-10-01T11:10:00Z');
  await observe(3, '2026-10-01T11:20:00Z');
  await observe(5, '2026-10-01T13:30:00Z');
  await observe(5, '2026-10-02T09:00:00Z');
  await observe(9, '2026-10-03T08:00:00Z');
});
afterAll(async () => {
  await ctx?.close();
});

runSecurityMatrix('GET /api/v1/players/{player}/stats/history', () => ctx, {
  method: 'GET',
  scope: 'stats:read',
  url: (w) => `/api/v1/players/${w.playerUuid}/stats/history?stat=${encodeURIComponent(w.statKey)}`,
});

describe('recording history', () => {
  it('stores at most one point per hour: the value an hour ended with, when a later hour replaces it', async () => {
    const rows = await historyRows();
    expect(rows.map((r) => [new Date(r.at as string).toISOString(), r.value])).toEqual([
      ['2026-10-01T10:00:00.000Z', 2],
      ['2026-10-01T11:00:00.000Z', 3],
      ['2026-10-01T13:00:00.000Z', 5],
      ['2026-10-02T09:00:00.000Z', 5],
    ]);
  });

  it('never rewrites history from a late batch', async () => {
    const before = await historyRows();
    await observe(100, '2026-10-01T12:00:00Z');
    await observe(100, '2026-10-01T10:50:00Z');
    expect(await historyRows()).toEqual(before);
  });
});

describe('GET /api/v1/players/{player}/stats/history', () => {
  it('by hour: the value at the end of each hour in which it changed, oldest first', async () => {
    const h = await history('&interval=hour&from=2026-10-01T00:00:00Z&to=2026-10-04T00:00:00Z');
    expect(h.player.uuid).toBe(P);
    expect(h.season.slug).toBe('s1');
    expect(h.stat).toBe(STAT);
    expect(h.interval).toBe('hour');
    expect(h.points).toEqual([
      { at: '2026-10-01T10:00:00.000Z', value: 2 },
      { at: '2026-10-01T11:00:00.000Z', value: 3 },
      { at: '2026-10-01T13:00:00.000Z', value: 5 },
      { at: '2026-10-03T08:00:00.000Z', value: 9 },
    ]);
  });

  it('by day, and from a start inside the series (compared with the value before it)', async () => {
    const days = await history('&interval=day&from=2026-09-30T00:00:00Z&to=2026-10-05T00:00:00Z');
    expect(days.points).toEqual([
      { at: '2026-10-01T00:00:00.000Z', value: 5 },
      { at: '2026-10-03T00:00:00.000Z', value: 9 },
    ]);
    const later = await history('&interval=hour&from=2026-10-01T12:30:00Z&to=2026-10-02T00:00:00Z');
    expect(later.points).toEqual([{ at: '2026-10-01T13:00:00.000Z', value: 5 }]);
    const none = await history('&interval=hour&from=2026-10-02T00:00:00Z&to=2026-10-03T00:00:00Z');
    expect(none.points).toEqual([]);
  });

  it('defaults to the last 30 days by day, and takes the season by slug or id', async () => {
    const now = new Date().toISOString();
    await observe(11, now);
    const h = await history('');
    expect(h.interval).toBe('day');
    expect(h.points).toEqual([{ at: `${now.slice(0, 10)}T00:00:00.000Z`, value: 11 }]);
    expect((await history(`&season=${fx.seasonId}`)).points).toEqual(h.points);
    expect((await history('&interval=hour')).points).toEqual([{ at: `${now.slice(0, 13)}:00:00.000Z`, value: 11 }]);
  });

  it('refuses more than 400 buckets, a range that ends before it starts, and bad parameters with 422', async () => {
    const url = (q: string) => `/api/v1/players/${P}/stats/history?stat=${STAT}${q}`;
    expectInvalid(
      await getJson(ctx, web, url('&interval=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z')),
      'interval',
    );
    expectInvalid(await getJson(ctx, web, url('&from=2026-10-05T00:00:00Z&to=2026-10-01T00:00:00Z')), 'from');
    expectInvalid(await getJson(ctx, web, url('&interval=week')), 'interval');
    expectInvalid(await getJson(ctx, web, url('&from=yesterday')), 'from');
    expectInvalid(await getJson(ctx, web, `/api/v1/players/${P}/stats/history`), 'stat');
    // 400 buckets exactly is fine.
    const ok = await getJson(ctx, web, url('&interval=day&from=2025-01-01T00:00:00Z&to=2026-02-05T00:00:00Z'));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('follows the rules of the other player reads: 404 hidden or unknown player or statistic, 403 restriction', async () => {
    const get = (player: string, q: string, token = web) =>
      getJson(ctx, token, `/api/v1/players/${player}/stats/history?stat=${q}`);
    expectError(await get(uuid(), STAT), 404, 'NOT_FOUND');
    expectError(await get(P, 'no.such:stat'), 404, 'NOT_FOUND');
    expectError(await get(P, `${STAT}&season=nope`), 404, 'NOT_FOUND');
    const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'one player',
      type: 'website',
      scopes: ['stats:read'],
      player_restrictions: [uuid()],
    });
    expectError(await get(P, STAT, key.secret), 403, 'FORBIDDEN');
    await observe(1, '2026-10-01T10:00:00Z', P, OTHER);
    await mutate(ctx, fx.workspaceId, 'UPDATE stat_definitions SET public = false WHERE key = $1', [OTHER]);
    expectError(await get(P, OTHER), 404, 'NOT_FOUND');
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, P, { public: false });
    expectError(await get(P, STAT), 404, 'NOT_FOUND');
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, P, { public: true });
  });
});

describe('retention', () => {
  it('folds hourly points older than the retention to the last point of each day, once, without changing daily reads', async () => {
    const player = uuid();
    // 10 changes an hour apart on each of two days, 500 days ago.
    const base = Date.UTC(2026, 9, 1) - 500 * 86_400_000;
    for (let day = 0; day < 2; day++) {
      for (let h = 0; h < 10; h++) {
        await observe(day * 100 + h, new Date(base + day * 86_400_000 + h * 3_600_000).toISOString(), player);
      }
    }
    await observe(999, '2026-10-01T00:00:00Z', player);
    const rows = (table = 'stat_history') =>
      sql(ctx, `SELECT h.at FROM ${table} h JOIN players p ON p.id = h.player_id WHERE p.uuid = $1 ORDER BY at`, [
        player,
      ]);
    const days = async () =>
      (
        await getJson(
          ctx,
          web,
          `/api/v1/players/${player}/stats/history?stat=${STAT}&interval=day&from=${new Date(base - 86_400_000).toISOString()}&to=${new Date(base + 3 * 86_400_000).toISOString()}`,
        )
      ).json() as History;
    expect(await rows()).toHaveLength(20);
    // The server's own history (for reads with server=) has the same points.
    expect(await rows('server_stat_history')).toEqual(await rows());
    const before = await days();
    expect(before.points.map((p) => p.value)).toEqual([9, 109]);
    const now = Date.UTC(2026, 9, 2);
    const first = await foldHistory(ctx.db, 400, now);
    expect(first.points).toBeGreaterThanOrEqual(18);
    const left = await rows();
    expect(left.map((r) => new Date(r.at as string).toISOString())).toEqual([
      new Date(base + 9 * 3_600_000).toISOString(),
      new Date(base + 86_400_000 + 9 * 3_600_000).toISOString(),
    ]);
    expect(await rows('server_stat_history')).toEqual(left);
    expect(await days()).toEqual(before);
    // Nothing left to fold: the next run does nothing.
    expect(await foldHistory(ctx.db, 400, now)).toEqual({ days: 0, points: 0 });
    // Recent points are never folded.
    expect((await historyRows()).length).toBeGreaterThanOrEqual(4);
  });
});
