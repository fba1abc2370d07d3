import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { ingestOk, sql, uuid } from './support.ts';

/** Values per (season, server, statistic, player), network totals, and a season that counts gains. */

let ctx: TestContext;
let fx: Fixture;
let second: string;

const PLAY = 'minecraft.custom:minecraft.play_time';
const JUMP = 'minecraft.custom:minecraft.jump';
const MAIN = { hostname: 'mc.example.com', port: 25565 };
const CREATIVE = { hostname: 'creative.example.com', port: 25565 };

/** Observation times that only move forward (each batch one second after the last). */
let clock = Date.now() - 30 * 60_000;
function next(): string {
  clock += 1_000;
  return new Date(clock).toISOString();
}

async function upload(
  player: string,
  via: { hostname: string; port: number },
  stats: { key: string; value: number }[],
  observedAt = next(),
): Promise<void> {
  await ingestOk(
    ctx,
    fx.keys.client!,
    modBatch({ uuid: player, username: `P${player.slice(0, 6)}`, ...via, stats, observedAt }),
  );
}

/** The stored rows of a player's statistic: the network row and each server's. */
async function stored(seasonId: string, player: string, key: string) {
  const [network] = await sql(
    ctx,
    `SELECT s.value, s.gain FROM player_stats s JOIN players p ON p.id = s.player_id
     JOIN stat_definitions d ON d.id = s.stat_id
     WHERE s.season_id = $1 AND p.uuid = $2 AND d.key = $3`,
    [seasonId, player, key],
  );
  const servers = await sql(
    ctx,
    `SELECT v.server_id, v.value, v.baseline, v.carried, v.gain FROM server_stats v
     JOIN players p ON p.id = v.player_id JOIN stat_definitions d ON d.id = v.stat_id
     WHERE v.season_id = $1 AND p.uuid = $2 AND d.key = $3 ORDER BY v.value DESC`,
    [seasonId, player, key],
  );
  return { network, servers };
}

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Network');
  second = (await ctx.services.servers.create(ACTOR, fx.workspaceId, { name: 'Creative', ...CREATIVE })).id;
});

afterAll(async () => {
  await ctx?.close();
});

describe('values per server', () => {
  it('keeps each server its own value, and the network row their sum: two servers never overwrite each other', async () => {
    const p = uuid();
    await upload(p, MAIN, [{ key: PLAY, value: 100 }]);
    await upload(p, CREATIVE, [{ key: PLAY, value: 30 }]);
    let s = await stored(fx.seasonId, p, PLAY);
    expect(s.network).toEqual({ value: 130, gain: 0 });
    expect(s.servers.map((r) => [r.server_id, r.value])).toEqual([
      [fx.serverId, 100],
      [second, 30],
    ]);
    await upload(p, MAIN, [{ key: PLAY, value: 150 }]);
    s = await stored(fx.seasonId, p, PLAY);
    expect(s.network?.value).toBe(180);
    // A late observation through one server changes neither that server's value nor the sum.
    await upload(p, CREATIVE, [{ key: PLAY, value: 1 }], new Date(clock - 60_000).toISOString());
    s = await stored(fx.seasonId, p, PLAY);
    expect(s.network?.value).toBe(180);
    expect(s.servers.map((r) => r.value)).toEqual([150, 30]);
  });

  it('stores a one-server value exactly as uploaded (fractions too)', async () => {
    const p = uuid();
    await upload(p, MAIN, [{ key: JUMP, value: 0.1 }]);
    await upload(p, MAIN, [{ key: JUMP, value: 0.3 }]);
    expect((await stored(fx.seasonId, p, JUMP)).network?.value).toBe(0.3);
  });
});

describe('gains', () => {
  let s2: Season;
  const carried = uuid();
  const fresh = uuid();
  const reset = uuid();

  beforeAll(async () => {
    // Season 1 values, observed before season 2 starts: the baselines of season 2.
    await upload(carried, MAIN, [{ key: PLAY, value: 1000 }]);
    await upload(reset, MAIN, [{ key: PLAY, value: 2000 }]);
    s2 = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Season 2', slug: 's2', scoring: 'gains' });
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, s2.id);
    clock = Date.now();
  });

  it('counts from the last value on that server before the season started', async () => {
    await upload(carried, MAIN, [{ key: PLAY, value: 1100 }]);
    const s = await stored(s2.id, carried, PLAY);
    expect(s.network).toEqual({ value: 1100, gain: 100 });
    expect(s.servers[0]).toMatchObject({ baseline: 1000, gain: 100 });
  });

  it('counts from the first value observed in the season when the server had none before', async () => {
    await upload(fresh, MAIN, [{ key: PLAY, value: 500 }]);
    expect((await stored(s2.id, fresh, PLAY)).network).toEqual({ value: 500, gain: 0 });
    await upload(fresh, MAIN, [{ key: PLAY, value: 520 }]);
    expect((await stored(s2.id, fresh, PLAY)).network).toEqual({ value: 520, gain: 20 });
  });

  it('keeps the gain so far when the counter drops, and counts the new counter on top', async () => {
    await upload(carried, MAIN, [{ key: PLAY, value: 40 }]);
    let s = await stored(s2.id, carried, PLAY);
    expect(s.network).toEqual({ value: 40, gain: 140 });
    expect(s.servers[0]).toMatchObject({ baseline: 0, carried: 100 });
    await upload(carried, MAIN, [{ key: PLAY, value: 50 }]);
    s = await stored(s2.id, carried, PLAY);
    expect(s.network).toEqual({ value: 50, gain: 150 });
  });

  it('never goes negative: a first value below the last season one is a reset counter', async () => {
    await upload(reset, MAIN, [{ key: PLAY, value: 300 }]);
    expect((await stored(s2.id, reset, PLAY)).network).toEqual({ value: 300, gain: 300 });
  });

  it('sums the gains of the servers', async () => {
    await upload(carried, CREATIVE, [{ key: PLAY, value: 10 }]);
    await upload(carried, CREATIVE, [{ key: PLAY, value: 15 }]);
    expect((await stored(s2.id, carried, PLAY)).network).toEqual({ value: 65, gain: 155 });
  });
});
