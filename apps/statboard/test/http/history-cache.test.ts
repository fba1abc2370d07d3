import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthKey } from '#src/access/auth-key.ts';
import { READ_SCOPES } from '#src/access/scopes.ts';
import { foldHistory } from '#src/modules/history/fold.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { expectError, getJson, ingestOk, uuid } from './support.ts';

/**
 * `GET /players/{uuid}/stats/history` answers are cached, and stay exact: a new upload of the player, a rename, a
 * player hidden or shown, a statistic hidden, a season created or activated are in the next answer; an answer up
 * to now never misses an observation ahead of the clock once now passes it; restricted keys see no more.
 */
describe('GET /players/{uuid}/stats/history from the cache', () => {
  let ctx: TestContext;
  let fx: Fixture;
  let web: string;
  const STAT = 'minecraft.custom:minecraft.jump';
  const DAY = 86_400_000;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services, 'History cache');
    web = fx.keys.website!;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const url = (player: string, q = '') => `/api/v1/players/${player}/stats/history?stat=${STAT}${q}`;
  const read = async (player: string, q = '', token = web): Promise<string> => {
    const res = await getJson(ctx, token, url(player, q));
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  type History = {
    player: { uuid: string; username: string };
    season: { id: string; active: boolean };
    points: { at: string; value: number }[];
  };
  const parsed = async (player: string, q = '', token = web) => JSON.parse(await read(player, q, token)) as History;
  const values = async (player: string, q = '') => (await parsed(player, q)).points.map((p) => p.value);
  const upload = (player: string, value: number, observedAt = new Date().toISOString(), username = 'Grower') =>
    ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username, stats: [{ key: STAT, value }], observedAt }));
  const iso = (ms: number) => new Date(ms).toISOString();
  /** A fixed range around now: cached by its bounds. */
  const range = () => `&from=${iso(Date.now() - 10 * DAY)}&to=${iso(Date.now() + DAY)}`;

  it('answers a hit with the bytes of the miss, on the fast path, as the uncached read builds it', async () => {
    const p = uuid();
    await upload(p, 1, iso(Date.now() - 2 * DAY));
    await upload(p, 2);
    const miss = await read(p);
    const served = ctx.app.fastReads.served;
    const hit = await read(p);
    expect(hit).toBe(miss);
    expect(ctx.app.fastReads.served).toBe(served + 1);
    const key: AuthKey = {
      id: 'test',
      workspaceId: fx.workspaceId,
      type: 'website',
      scopes: new Set(READ_SCOPES),
      players: [],
      servers: [],
      seasons: [],
    };
    const built = await ctx.services.history.history(key, p, { stat: STAT });
    expect(JSON.parse(miss)).toEqual(built);
    expect(Object.keys(JSON.parse(miss))).toEqual(['player', 'season', 'stat', 'interval', 'points']);
    expect(built.points.map((x) => x.value)).toEqual([1, 2]);
  });

  it("shows the player's new upload in the next answer, up to now and in a fixed range", async () => {
    const p = uuid();
    const span = range();
    await upload(p, 1, iso(Date.now() - 3 * DAY));
    expect(await values(p)).toEqual([1]);
    expect(await values(p, span)).toEqual([1]);
    expect(await values(p, '&interval=hour')).toEqual([1]);
    await upload(p, 5);
    expect(await values(p)).toEqual([1, 5]);
    expect(await values(p, span)).toEqual([1, 5]);
    expect(await values(p, '&interval=hour')).toEqual([1, 5]);
    // A late observation inside the range (an earlier day) is there too.
    await upload(p, 3, iso(Date.now() - 2 * DAY));
    expect(await values(p, span)).toEqual([1, 5]);
    // Another player's upload changes nothing here.
    await upload(uuid(), 9);
    expect(await values(p)).toEqual([1, 5]);
  });

  it('takes in an observation ahead of the clock once now passes it', async () => {
    const p = uuid();
    const ahead = Date.now() + 1_500;
    await upload(p, 7, iso(ahead));
    expect(await values(p)).toEqual([]);
    expect(await values(p)).toEqual([]);
    await new Promise((r) => setTimeout(r, ahead - Date.now() + 100));
    expect(await values(p)).toEqual([7]);
  });

  it('follows renames, hiding and showing at once', async () => {
    const p = uuid();
    await upload(p, 1, undefined, 'Before');
    expect((await parsed(p)).player.username).toBe('Before');
    await upload(p, 1, undefined, 'Afterwards');
    expect((await parsed(p)).player.username).toBe('Afterwards');
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, p, { public: false });
    expectError(await getJson(ctx, web, url(p)), 404, 'NOT_FOUND');
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, p, { public: true });
    expect((await parsed(p)).player.username).toBe('Afterwards');
  });

  it('follows a statistic hidden and shown', async () => {
    const p = uuid();
    await upload(p, 4);
    expect(await values(p)).toEqual([4]);
    await ctx.services.stats.update(ACTOR, fx.workspaceId, STAT, { public: false });
    expectError(await getJson(ctx, web, url(p)), 404, 'NOT_FOUND');
    await ctx.services.stats.update(ACTOR, fx.workspaceId, STAT, { public: true });
    expect(await values(p)).toEqual([4]);
  });

  it('follows seasons created and activated', async () => {
    const p = uuid();
    await upload(p, 6);
    const before = await parsed(p);
    expect(before.season).toMatchObject({ id: fx.seasonId, active: true });
    expect((await parsed(p, '&season=s1')).season.active).toBe(true);
    const next = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Two', slug: 's2', active: true });
    const now = await parsed(p);
    expect(now.season).toMatchObject({ id: next.id, active: true });
    expect(now.points).toEqual([]);
    const old = await parsed(p, '&season=s1');
    expect(old.season.active).toBe(false);
    expect(old.points.map((x) => x.value)).toEqual([6]);
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 's1');
    expect((await parsed(p)).season).toMatchObject({ id: fx.seasonId, active: true });
    expect((await parsed(p, '&season=s2')).season.active).toBe(false);
  });

  it('never shows a restricted key more than before, whatever is cached', async () => {
    const p = uuid();
    await upload(p, 8);
    const full = await read(p);
    const other = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'another player',
      type: 'website',
      scopes: ['stats:read'],
      player_restrictions: [uuid()],
    });
    expectError(await getJson(ctx, other.secret, url(p)), 403, 'FORBIDDEN');
    const own = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'this player',
      type: 'website',
      scopes: ['stats:read'],
      player_restrictions: [p],
    });
    expect(await read(p, '', own.secret)).toBe(full);
    const s2 = await ctx.services.seasons.find(fx.workspaceId, 's2');
    const seasonal = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'season two',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [s2!.id],
    });
    expectError(await getJson(ctx, seasonal.secret, url(p)), 403, 'FORBIDDEN');
    expectError(await getJson(ctx, seasonal.secret, url(p, '&season=s1')), 403, 'FORBIDDEN');
    expect((await parsed(p, '&season=s2', seasonal.secret)).points).toEqual([]);
  });

  it('does not keep hourly answers over days the fold may reach', async () => {
    const p = uuid();
    const base = Math.floor(Date.now() / DAY) * DAY - 500 * DAY;
    for (let h = 0; h < 4; h++) await upload(p, h + 1, iso(base + h * 3_600_000));
    await upload(p, 100);
    const hours = `&interval=hour&from=${iso(base)}&to=${iso(base + DAY)}`;
    expect(await values(p, hours)).toEqual([1, 2, 3, 4]);
    await foldHistory(ctx.db, ctx.config.historyRetentionDays, Date.now());
    expect(await values(p, hours)).toEqual([4]);
  });
});
