import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { at, expectError, getJson, ingestOk, mutate, snapshotDb, sql, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let web: string;
let s2: Season;
const PLAYER = uuid();

interface StatsBody {
  player: { id: string; uuid: string; username: string; public: boolean };
  season: Season;
  stats: { key: string; value: number; updated_at: string }[];
}

// Deliberately not in key order.
const S1_STATS = [
  { key: 'minecraft:custom:minecraft:play_time', value: 3600 },
  { key: 'minecraft.mined:minecraft.stone', value: 42 },
  { key: 'minecraft.killed:minecraft.zombie', value: 7 },
  { key: 'hidden:stat', value: 1 },
];

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Stats');
  web = fx.keys.website!;
  await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: PLAYER, username: 'Statful', stats: S1_STATS }));
  // A second season, now active, with other values.
  s2 = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Season 2', slug: 's2' });
  await ctx.services.seasons.activate(ACTOR, fx.workspaceId, s2.id);
  await ingestOk(
    ctx,
    fx.keys.client!,
    modBatch({
      uuid: PLAYER,
      username: 'Statful',
      observedAt: at(100),
      stats: [{ key: 'minecraft.mined:minecraft.stone', value: 5 }],
    }),
  );
  // No admin route changes definition visibility yet.
  await mutate(ctx, fx.workspaceId, "UPDATE stat_definitions SET public = false WHERE key = 'hidden:stat'");
});
afterAll(async () => {
  await ctx?.close();
});

const url = (player: string, query = '') => `/api/v1/players/${player}/stats${query}`;

async function stats(query: string, token = web, player = PLAYER): Promise<StatsBody> {
  const res = await getJson(ctx, token, url(player, query));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatsBody;
}

runSecurityMatrix('GET /api/v1/players/{uuid}/stats', () => ctx, {
  method: 'GET',
  scope: 'stats:read',
  url: (w) => url(w.playerUuid),
});

describe('GET /api/v1/players/{uuid}/stats', () => {
  it('returns {player, season, stats} for the active season by default', async () => {
    const body = await stats('');
    expect(Object.keys(body).sort()).toEqual(['player', 'season', 'stats']);
    expect(Object.keys(body.player).sort()).toEqual(['id', 'public', 'username', 'uuid']);
    expect(body.player).toMatchObject({ uuid: PLAYER, username: 'Statful', public: true });
    expect(Object.keys(body.season).sort()).toEqual([
      'active',
      'ended_at',
      'id',
      'name',
      'scoring',
      'slug',
      'started_at',
    ]);
    expect(body.season).toMatchObject({ id: s2.id, slug: 's2', active: true });
    expect(body.stats.map((s) => [s.key, s.value])).toEqual([['minecraft.mined:minecraft.stone', 5]]);
    for (const s of body.stats) {
      expect(Object.keys(s).sort()).toEqual(['key', 'updated_at', 'value']);
      expect(Number.isNaN(Date.parse(s.updated_at))).toBe(false);
    }
  });

  it('selects a season by slug or by id (any case), sorted by key, public definitions only', async () => {
    const expected = S1_STATS.filter((s) => s.key !== 'hidden:stat')
      .map((s) => [s.key, s.value])
      .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    for (const ref of [fx.seasonSlug, fx.seasonId, fx.seasonId.toUpperCase()]) {
      const body = await stats(`?season=${ref}`);
      expect(body.season).toMatchObject({ id: fx.seasonId, slug: 's1', active: false });
      expect(body.stats.map((s) => [s.key, s.value])).toEqual(expected);
    }
  });

  it('never returns a non-public definition', async () => {
    const body = await stats(`?season=${fx.seasonSlug}`);
    expect(body.stats.map((s) => s.key)).not.toContain('hidden:stat');
  });

  it('returns 404 NOT_FOUND for an unknown season', async () => {
    for (const ref of ['nope', uuid(), 'S1', 'x'.repeat(300)]) {
      expectError(await getJson(ctx, web, url(PLAYER, `?season=${ref}`)), 404, 'NOT_FOUND');
    }
  });

  it("returns 404 NOT_FOUND for another workspace's season id", async () => {
    const other = await seedWorkspace(ctx.services, 'Stats other');
    expectError(await getJson(ctx, web, url(PLAYER, `?season=${other.seasonId}`)), 404, 'NOT_FOUND');
  });

  it("returns 403 FORBIDDEN for a season outside the key's season restriction", async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'only s2',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [s2.id],
    });
    expectError(await getJson(ctx, k.secret, url(PLAYER, `?season=${fx.seasonSlug}`)), 403, 'FORBIDDEN');
    expectError(await getJson(ctx, k.secret, url(PLAYER, `?season=${fx.seasonId}`)), 403, 'FORBIDDEN');
    expect((await stats('', k.secret)).season.id).toBe(s2.id);
    expect((await stats('?season=s2', k.secret)).season.id).toBe(s2.id);
  });

  it("returns 403 FORBIDDEN for a player outside the key's player restriction", async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'other player',
      type: 'website',
      scopes: ['stats:read'],
      player_restrictions: [uuid()],
    });
    expectError(await getJson(ctx, k.secret, url(PLAYER)), 403, 'FORBIDDEN');
  });

  it('returns 404 NOT_FOUND for an unknown or non-public player', async () => {
    expectError(await getJson(ctx, web, url(uuid())), 404, 'NOT_FOUND');
    const hidden = uuid();
    await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: hidden, username: 'Shy' }));
    await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [hidden]);
    expectError(await getJson(ctx, web, url(hidden)), 404, 'NOT_FOUND');
  });

  it('accepts the player UUID in upper case', async () => {
    expect((await stats('', web, PLAYER.toUpperCase())).player.uuid).toBe(PLAYER);
  });

  it('writes the values exactly as the database did (json_agg of json_build_object), with and without server=', async () => {
    const ws = await seedWorkspace(ctx.services, 'Stats bytes');
    const player = uuid();
    const keys = ['b:z', 'a:b', 'B:a', 'a:a-b_c', 'c:hidden', 'a:+'];
    await ingestOk(
      ctx,
      ws.keys.client!,
      modBatch({ uuid: player, username: 'Zoë', stats: keys.map((key) => ({ key, value: 1 })) }),
    );
    await mutate(ctx, ws.workspaceId, "UPDATE seasons SET name = 'Été ☀' WHERE workspace_id = $1", [ws.workspaceId]);
    const [season] = await sql(ctx, 'SELECT id FROM seasons WHERE workspace_id = $1 AND active', [ws.workspaceId]);
    // Values and times that PostgreSQL and JavaScript write differently, set where no upload could.
    const cases: [string, string][] = [
      ['1e15', '2026-01-02T03:04:05.999999Z'],
      ['1e-5', '1969-12-31T23:59:59.9995Z'],
      ['123456789012345.6', '2026-05-06T07:08:09Z'],
      ['-0', '2000-02-29T00:00:00.000001Z'],
      ['7', '2026-01-01T00:00:00Z'],
      ['1e300', '0001-01-01T00:00:00.5Z'],
    ];
    for (const [i, key] of keys.entries()) {
      const [value, time] = cases[i]!;
      await mutate(
        ctx,
        ws.workspaceId,
        `UPDATE player_stats SET value = $3, gain = $3, updated_at = $4 FROM stat_definitions d, players p
         WHERE d.id = player_stats.stat_id AND p.id = player_stats.player_id AND d.workspace_id = $1 AND d.key = $2
           AND p.uuid = $5`,
        [ws.workspaceId, key, value, time, player],
      );
      await mutate(
        ctx,
        ws.workspaceId,
        `UPDATE server_stats SET value = $3, gain = $3, updated_at = $4 FROM stat_definitions d, players p
         WHERE d.id = server_stats.stat_id AND p.id = server_stats.player_id AND d.workspace_id = $1 AND d.key = $2
           AND p.uuid = $5`,
        [ws.workspaceId, key, value, time, player],
      );
    }
    await mutate(ctx, ws.workspaceId, "UPDATE stat_definitions SET public = false WHERE key = 'c:hidden'");
    // The statement that wrote the answer's values before they were written in JavaScript.
    const [expected] = await sql(
      ctx,
      `SELECT coalesce(json_agg(json_build_object(
           'key', d.key,
           'value', s.value,
           'updated_at', to_char((s.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         ) ORDER BY d.key COLLATE "C"), '[]')::text AS stats
       FROM players p JOIN player_stats s ON s.player_id = p.id JOIN stat_definitions d ON d.id = s.stat_id
       WHERE p.workspace_id = $1 AND p.uuid = $2 AND s.season_id = $3 AND d.public`,
      [ws.workspaceId, player, season!.id],
    );
    for (const query of ['', `?server=${ws.serverId}`]) {
      const res = await getJson(ctx, ws.keys.website!, url(player, query));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.body;
      expect(body.slice(body.indexOf(',"stats":') + 9, -1)).toBe(expected!.stats);
      const parsed = JSON.parse(body) as StatsBody;
      expect(parsed.player.username).toBe('Zoë');
      expect(parsed.season.name).toBe('Été ☀');
      expect(body.slice(0, body.indexOf(',"stats":'))).toBe(
        `{"player":${JSON.stringify(parsed.player)},"season":${JSON.stringify(parsed.season)}`,
      );
    }
    expect(String(expected!.stats)).toContain('"value" : 1e+15');
    expect(String(expected!.stats)).toContain('"value" : -0');
  });

  it('returns an empty list for a season in which the player has no values', async () => {
    const player = uuid();
    await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username: 'Fresh', stats: [] }));
    expect((await stats('', web, player)).stats).toEqual([]);
    expect((await stats(`?season=${fx.seasonSlug}`, web, player)).stats).toEqual([]);
  });

  it('returns 404 NOT_FOUND without a season parameter when no season is active', async () => {
    const ws = await seedWorkspace(ctx.services, 'Stats inactive');
    const player = uuid();
    await ingestOk(ctx, ws.keys.client!, modBatch({ uuid: player, stats: [{ key: 'a:b', value: 1 }] }));
    // No route deactivates every season: end it directly.
    await mutate(ctx, ws.workspaceId, 'UPDATE seasons SET active = false WHERE workspace_id = $1', [ws.workspaceId]);
    const before = await snapshotDb(ctx.db);
    expectError(await getJson(ctx, ws.keys.website!, url(player)), 404, 'NOT_FOUND');
    expectError(await getJson(ctx, ws.keys.website!, url(player, '?season=')), 404, 'NOT_FOUND');
    expect(await snapshotDb(ctx.db)).toEqual(before);
    // Naming the season still works.
    expect((await stats(`?season=${ws.seasonSlug}`, ws.keys.website!, player)).stats).toHaveLength(1);
  });

  it("shows a season's new state at once after another season is activated (the answer holds the season)", async () => {
    const ws = await seedWorkspace(ctx.services, 'Stats activation');
    const player = uuid();
    await ingestOk(ctx, ws.keys.client!, modBatch({ uuid: player, stats: [{ key: 'a:b', value: 1 }] }));
    const q = `?season=${ws.seasonSlug}`;
    expect((await stats(q, ws.keys.website!, player)).season).toMatchObject({ active: true });
    expect((await stats(q, ws.keys.website!, player)).season).toMatchObject({ active: true }); // now cached
    const next = await ctx.services.seasons.create(ACTOR, ws.workspaceId, { name: 'Next', slug: 'next' });
    await ctx.services.seasons.activate(ACTOR, ws.workspaceId, next.id);
    expect((await stats(q, ws.keys.website!, player)).season).toMatchObject({ active: false });
  });
});
