import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { expectError, getJson, ingestOk, sql, uuid } from './support.ts';

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
  ctx = await createTestContext({ WEBHOOK_ALLOW_PRIVATE: '1' });
  fx = await seedWorkspace(ctx.services, 'Network');
  second = (await ctx.services.servers.create(ACTOR, fx.workspaceId, { name: 'Creative', ...CREATIVE })).id;
});

/** A website key restricted to `servers`. */
async function restrictedKey(servers: string[]): Promise<string> {
  const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
    name: `servers ${servers.length}`,
    type: 'website',
    scopes: ['players:read', 'stats:read', 'leaderboards:read'],
    server_restrictions: servers,
  });
  return k.secret;
}

/** A board's entries as [uuid, value]. */
async function board(token: string, query: string): Promise<[string, number][]> {
  const res = await getJson(ctx, token, `/api/v1/leaderboards?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entries.map((e: { player: { uuid: string }; value: number }) => [e.player.uuid, e.value]);
}

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

describe('reads: network totals and server=', () => {
  const a = uuid();
  const b = uuid();
  const stat = 'reads:score';

  beforeAll(async () => {
    // Back in season 1 for these reads (the gains tests activate season 2 after them).
    await upload(a, MAIN, [{ key: stat, value: 50 }]);
    await upload(a, CREATIVE, [{ key: stat, value: 30 }]);
    await upload(b, CREATIVE, [{ key: stat, value: 70 }]);
  });

  it('ranks the network totals, and one server alone with server=', async () => {
    const web = fx.keys.website!;
    expect(await board(web, `season=s1&stat=${stat}`)).toEqual([
      [a, 80],
      [b, 70],
    ]);
    expect(await board(web, `season=s1&stat=${stat}&server=${second}`)).toEqual([
      [b, 70],
      [a, 30],
    ]);
    expect(await board(web, `season=s1&stat=${stat}&server=${fx.serverId}`)).toEqual([[a, 50]]);
    const rank = await getJson(
      ctx,
      web,
      `/api/v1/leaderboards/rank?season=s1&stat=${stat}&player=${a}&server=${second}`,
    );
    expect(rank.statusCode, rank.body).toBe(200);
    expect(rank.json()).toMatchObject({ total: 2, entry: { rank: 2, value: 30 } });
  });

  it('follows an upload at once on a server board read before it (summed boards are kept until a value changes)', async () => {
    const web = fx.keys.website!;
    const follow = 'reads:follow';
    const q = `season=s1&stat=${follow}&server=${second}`;
    await upload(a, CREATIVE, [{ key: follow, value: 10 }]);
    expect(await board(web, q)).toEqual([[a, 10]]);
    await upload(b, CREATIVE, [{ key: follow, value: 20 }]);
    expect(await board(web, q)).toEqual([
      [b, 20],
      [a, 10],
    ]);
    const rank = await getJson(
      ctx,
      web,
      `/api/v1/leaderboards/rank?season=s1&stat=${follow}&player=${a}&server=${second}`,
    );
    expect(rank.json()).toMatchObject({ total: 2, entry: { rank: 2, value: 10 } });
    await upload(a, CREATIVE, [{ key: follow, value: 25 }]);
    expect(await board(web, q)).toEqual([
      [a, 25],
      [b, 20],
    ]);
  });

  it('reads one server from its board index exactly as a board summed over servers: tops, pages, ranks, ties, hidden players', async () => {
    const web = fx.keys.website!;
    const indexed = 'reads:indexed';
    const players = Array.from({ length: 14 }, () => uuid());
    // Values on the second server only, with ties (value 7 four times) and one hidden player among them.
    for (const [i, p] of players.entries()) {
      await upload(p, CREATIVE, [{ key: indexed, value: i % 5 === 0 ? 7 : 100 - i * 3 }]);
    }
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, players[5]!, { public: false });
    // A key restricted to both servers sums over them: the board summed at read time, the same values here.
    const both = await restrictedKey([fx.serverId, second]);
    const same = async (path: string) => {
      const one = await getJson(ctx, web, `${path}&server=${second}`);
      const summed = await getJson(ctx, both, path);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.body).toBe(summed.body);
      return one.json();
    };
    const top = await same(`/api/v1/leaderboards?season=s1&stat=${indexed}&limit=100`);
    expect(top.entries).toHaveLength(13);
    expect(top.entries.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12]);
    await same(`/api/v1/leaderboards?season=s1&stat=${indexed}&limit=4&offset=8`);
    await same(`/api/v1/leaderboards?season=s1&stat=${indexed}&limit=3&offset=11`);
    for (const p of [players[0]!, players[1]!, players[10]!, players[13]!]) {
      await same(`/api/v1/leaderboards/rank?season=s1&stat=${indexed}&player=${p}&around=2`);
    }
    // A hidden player has no rank on either.
    expectError(
      await getJson(
        ctx,
        web,
        `/api/v1/leaderboards/rank?season=s1&stat=${indexed}&player=${players[5]}&server=${second}`,
      ),
      404,
    );
    // An upload moves the one-server board at once (its cached top is dropped with the value).
    await upload(players[13]!, CREATIVE, [{ key: indexed, value: 1_000 }]);
    const moved = await same(`/api/v1/leaderboards?season=s1&stat=${indexed}&limit=1`);
    expect(moved.entries[0]).toMatchObject({ rank: 1, value: 1_000, player: { uuid: players[13] } });
  });

  it("gives a player's values summed, or one server's", async () => {
    const web = fx.keys.website!;
    const values = async (q: string) => {
      const res = await getJson(ctx, web, `/api/v1/players/${a}/stats?season=s1${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().stats.find((s: { key: string }) => s.key === stat)?.value;
    };
    expect(await values('')).toBe(80);
    expect(await values(`&server=${fx.serverId}`)).toBe(50);
    expect(await values(`&server=${second}`)).toBe(30);
    const history = await getJson(
      ctx,
      web,
      `/api/v1/players/${a}/stats/history?season=s1&stat=${stat}&server=${second}&interval=hour&from=${new Date(clock - 86_400_000).toISOString()}`,
    );
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().points.map((p: { value: number }) => p.value)).toEqual([30]);
  });

  it('answers 404 for an unknown server and 422 for one that is not an id', async () => {
    const web = fx.keys.website!;
    for (const path of [
      `/api/v1/leaderboards?season=s1&stat=${stat}&server=${uuid()}`,
      `/api/v1/leaderboards/rank?season=s1&stat=${stat}&player=${a}&server=${uuid()}`,
      `/api/v1/players/${a}/stats?season=s1&server=${uuid()}`,
      `/api/v1/players/${a}/stats/history?season=s1&stat=${stat}&server=${uuid()}`,
    ]) {
      expectError(await getJson(ctx, web, path), 404, 'NOT_FOUND');
    }
    expectError(await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${stat}&server=nope`), 422);
  });

  it('sums over the servers of a key restricted to servers, and refuses server= outside them with 403', async () => {
    const creative = await restrictedKey([second]);
    expect(await board(creative, `season=s1&stat=${stat}`)).toEqual([
      [b, 70],
      [a, 30],
    ]);
    const stats = await getJson(ctx, creative, `/api/v1/players/${a}/stats?season=s1`);
    expect(stats.json().stats.find((s: { key: string }) => s.key === stat)?.value).toBe(30);
    expectError(await getJson(ctx, creative, `/api/v1/leaderboards?season=s1&stat=${stat}&server=${fx.serverId}`), 403);
    // Outside the restriction is 403 whether or not the server exists.
    expectError(await getJson(ctx, creative, `/api/v1/leaderboards?season=s1&stat=${stat}&server=${uuid()}`), 403);
    const both = await restrictedKey([second, fx.serverId]);
    expect(await board(both, `season=s1&stat=${stat}`)).toEqual([
      [a, 80],
      [b, 70],
    ]);
  });
});

describe('leader_changed', () => {
  it('announces a network total that takes rank 1 through the sum of two servers', async () => {
    await ctx.services.webhooks.create(ACTOR, fx.workspaceId, {
      url: 'http://127.0.0.1:9/hook',
      events: ['leaderboard.leader_changed'],
    });
    const stat = 'lead:score';
    const [x, y] = [uuid(), uuid()];
    await upload(x, MAIN, [{ key: stat, value: 50 }]);
    await upload(y, MAIN, [{ key: stat, value: 40 }]);
    // Creative's 20 alone does not beat 50; the network total of 60 does.
    await upload(y, CREATIVE, [{ key: stat, value: 20 }]);
    const messages = await sql(
      ctx,
      `SELECT data FROM webhook_messages WHERE type = 'leaderboard.leader_changed' AND data->'stat'->>'key' = $1
       ORDER BY created_at, id`,
      [stat],
    );
    expect(
      messages.map((m) => {
        const d = m.data as { player: { uuid: string }; value: number; previous: { value: number | null } };
        return [d.player.uuid, d.value, d.previous.value];
      }),
    ).toEqual([
      [x, 50, null],
      [y, 60, 50],
    ]);
  });
});

describe('statboard import --server', () => {
  it("writes the named server's values; with several servers and none named, says which to name", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'statboard-per-server-'));
    try {
      const p = uuid();
      await mkdir(join(dir, 'world', 'stats'), { recursive: true });
      await writeFile(
        join(dir, 'world', 'stats', `${p}.json`),
        JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:play_time': 64 } }, DataVersion: 3955 }),
      );
      const req = { season: 's1', world: join(dir, 'world') };
      await expect(ctx.services.imports.importWorld(ACTOR, fx.workspaceId, req)).rejects.toThrow(
        /2 servers: name the one these values come from with --server ID/,
      );
      await expect(
        ctx.services.imports.importWorld(ACTOR, fx.workspaceId, { ...req, server: uuid() }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await upload(p, MAIN, [{ key: PLAY, value: 100 }]);
      const r = await ctx.services.imports.importWorld(ACTOR, fx.workspaceId, { ...req, server: second });
      expect(r.values).toBe(1);
      const s = await stored(fx.seasonId, p, PLAY);
      expect(s.network?.value).toBe(164);
      expect(s.servers.map((x) => [x.server_id, x.value])).toEqual([
        [fx.serverId, 100],
        [second, 64],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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

  it('reads gains in a season that counts them, and follows a switch of scoring at once', async () => {
    const web = fx.keys.website!;
    const q = `season=s2&stat=${PLAY}`;
    const gains = await board(web, q);
    expect(gains).toEqual([
      [reset, 300],
      [carried, 155],
      [fresh, 20],
    ]);
    const rank = await getJson(ctx, web, `/api/v1/leaderboards/rank?${q}&player=${fresh}`);
    expect(rank.json()).toMatchObject({ total: 3, entry: { rank: 3, value: 20 } });
    const mine = async () =>
      (await getJson(ctx, web, `/api/v1/players/${carried}/stats?season=s2`)).json().stats[0].value as number;
    expect(await mine()).toBe(155);
    // What PUT /admin/seasons/{id} does.
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, s2.id, { scoring: 'absolute' });
    expect(await board(web, q)).toEqual([
      [fresh, 520],
      [reset, 300],
      [carried, 65],
    ]);
    expect(await mine()).toBe(65);
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, s2.id, { scoring: 'gains' });
    expect(await board(web, q)).toEqual(gains);
    expect(await mine()).toBe(155);
    // One server's gains.
    expect(await board(web, `${q}&server=${second}`)).toEqual([[carried, 5]]);
  });
});
