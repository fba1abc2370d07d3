import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, expectInvalid, getJson, ingestOk, mutate, uuid } from './support.ts';

/** `GET /stats`, `/players?username=`, `/online?server=`, `/leaderboards?offset=`, `/leaderboards/rank`. */

let ctx: TestContext;
let fx: Fixture;
let web: string;

const SCORE = 'depth.custom:depth.score';
const LOW = 'depth.custom:depth.best_time';
const HIDDEN = 'depth.custom:depth.hidden';

/** Through the integration key: a client key's newcomers into a board's top 10 are held at first sight. */
async function post(player: string, username: string, stats: { key: string; value: number }[], extra = {}) {
  await ingestOk(ctx, fx.keys.integration!, modBatch({ uuid: player, username, stats, sessionId: uuid(), ...extra }));
}

async function ok<T>(url: string, token = web): Promise<T> {
  const res = await getJson(ctx, token, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

interface Entry {
  rank: number;
  player: { uuid: string; username: string };
  value: number;
  updated_at: string;
}

/** 30 players: scores 0..29 with ties in pairs (29, 28, 28, 26, 26, …), one hidden player with the best score. */
const players: { uuid: string; name: string; score: number }[] = [];
let hidden: string;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Depth');
  web = fx.keys.website!;
  for (let i = 0; i < 30; i++) {
    const p = { uuid: uuid(), name: `Depth${String(i).padStart(2, '0')}`, score: i % 2 === 0 ? i : i + 1 };
    players.push(p);
    // One at a time: among equal scores, the earlier upload ranks first.
    await post(p.uuid, p.name, [
      { key: SCORE, value: p.score },
      { key: LOW, value: 100 - i },
    ]);
  }
  hidden = uuid();
  await post(hidden, 'HiddenOne', [
    { key: SCORE, value: 1000 },
    { key: HIDDEN, value: 1 },
  ]);
  await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [hidden]);
  await mutate(ctx, fx.workspaceId, 'UPDATE stat_definitions SET public = false WHERE key = $1', [HIDDEN]);
  await mutate(
    ctx,
    fx.workspaceId,
    "UPDATE stat_definitions SET sort_order = 'asc', display_name = 'Best time' WHERE key = $1",
    [LOW],
  );
});
afterAll(async () => {
  await ctx?.close();
});

runSecurityMatrix('GET /api/v1/stats', () => ctx, { method: 'GET', scope: 'stats:read', url: () => '/api/v1/stats' });
runSecurityMatrix('GET /api/v1/leaderboards/rank', () => ctx, {
  method: 'GET',
  scope: 'leaderboards:read',
  url: (w) =>
    `/api/v1/leaderboards/rank?season=${w.home.seasonId}&stat=${encodeURIComponent(w.statKey)}&player=${w.playerUuid}`,
});
runSecurityMatrix('GET /api/v1/leaderboards?offset=', () => ctx, {
  method: 'GET',
  scope: 'leaderboards:read',
  url: (w) => `/api/v1/leaderboards?season=${w.home.seasonId}&stat=${encodeURIComponent(w.statKey)}&offset=1`,
});
runSecurityMatrix('GET /api/v1/players?username=', () => ctx, {
  method: 'GET',
  scope: 'players:read',
  url: () => '/api/v1/players?username=matrixplayer',
});
runSecurityMatrix('GET /api/v1/online?server=', () => ctx, {
  method: 'GET',
  scope: 'presence:read',
  url: (w) => `/api/v1/online?server=${w.home.serverId}`,
  outsideRestriction: (w) => ({ server_restrictions: [w.lobbyServerId] }),
});

describe('GET /api/v1/stats', () => {
  it('lists the public definitions by key with display name, category (first segment), sort order and unit', async () => {
    const { data } = await ok<{ data: Record<string, unknown>[] }>('/api/v1/stats');
    expect(data).toEqual([
      { key: LOW, display_name: 'Best time', category: 'depth.custom', sort_order: 'asc', unit: 'count' },
      // Not the game's namespace: named by its key until an admin names it.
      { key: SCORE, display_name: SCORE, category: 'depth.custom', sort_order: 'desc', unit: 'count' },
    ]);
  });
});

describe('GET /api/v1/players?username=', () => {
  it('matches the whole username, case-insensitively, with pagination', async () => {
    const res = await ok<{ data: { uuid: string }[]; meta: { total: number } }>('/api/v1/players?username=dEpTh07');
    expect(res.data.map((p) => p.uuid)).toEqual([players[7]!.uuid]);
    expect(res.meta.total).toBe(1);
    // Not a substring match, unlike `search`.
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=Depth0')).meta.total).toBe(0);
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?search=Depth0')).meta.total).toBe(10);
    // Combined with search (both must hold) and with a page past the end.
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=depth07&search=07')).meta.total).toBe(1);
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=depth07&search=08')).meta.total).toBe(0);
    expect((await ok<{ data: unknown[] }>('/api/v1/players?username=depth07&page=2')).data).toEqual([]);
  });

  it('never finds a hidden player, and `%` or `_` are literal', async () => {
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=hiddenone')).meta.total).toBe(0);
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=Depth_7')).meta.total).toBe(0);
    expect((await ok<{ meta: { total: number } }>('/api/v1/players?username=%25')).meta.total).toBe(0);
  });
});

describe('GET /api/v1/leaderboards?offset=', () => {
  it('skips entries and keeps the global competition ranks (ties across the page boundary too)', async () => {
    const all = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=100`);
    expect(all.entries).toHaveLength(30);
    for (const offset of [1, 2, 3, 7, 29]) {
      const page = await ok<{ entries: Entry[] }>(
        `/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=4&offset=${offset}`,
      );
      expect(page.entries).toEqual(all.entries.slice(offset, offset + 4));
    }
    // Ties: 28 and 28 share rank 2, so the page starting at the second of them starts at rank 2.
    const tie = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=1&offset=2`);
    expect(tie.entries[0]!.rank).toBe(2);
    expect((await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&offset=30`)).entries).toEqual(
      [],
    );
  });

  it('refuses an offset outside 0–10000 or not an integer with 422', async () => {
    for (const bad of ['-1', '10001', '1.5', 'x']) {
      const res = await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${SCORE}&offset=${bad}`);
      expectInvalid(res, 'offset');
    }
    expect((await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${SCORE}&offset=10000`)).statusCode).toBe(200);
  });

  it('follows a new value at once (the board behind the pages is kept up to date)', async () => {
    const p = players[3]!;
    await post(p.uuid, p.name, [{ key: LOW, value: 0.5 }], { observedAt: '2026-10-06T13:00:00Z' });
    const page = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${LOW}&limit=2&offset=1`);
    const top = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${LOW}&limit=3`);
    expect(top.entries[0]!.player.uuid).toBe(p.uuid);
    expect(page.entries).toEqual(top.entries.slice(1, 3));
  });
});

describe('GET /api/v1/leaderboards/rank', () => {
  const rank = (player: string, extra = '', token = web) =>
    getJson(ctx, token, `/api/v1/leaderboards/rank?season=s1&stat=${SCORE}&player=${player}${extra}`);

  it("gives the player's entry, total, and the entries around it in leaderboard order", async () => {
    const all = (await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=100`)).entries;
    for (const [i, e] of all.entries()) {
      const res = await rank(e.player.uuid, '&around=2');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { total: number; entry: Entry; entries: Entry[]; stat: string; season: unknown };
      expect(body.stat).toBe(SCORE);
      expect(body.total).toBe(30);
      expect(body.entry).toEqual(e);
      expect(body.entries).toEqual(all.slice(Math.max(0, i - 2), i + 3));
    }
  });

  it('defaults around to 5 and takes 0–50 (else 422)', async () => {
    const mid = (await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=100`)).entries[15]!;
    expect(((await rank(mid.player.uuid)).json() as { entries: unknown[] }).entries).toHaveLength(11);
    expect(((await rank(mid.player.uuid, '&around=0')).json() as { entries: unknown[] }).entries).toHaveLength(1);
    expect(((await rank(mid.player.uuid, '&around=50')).json() as { entries: unknown[] }).entries).toHaveLength(30);
    for (const bad of ['-1', '51', '2.5']) expectInvalid(await rank(mid.player.uuid, `&around=${bad}`), 'around');
  });

  it('is 404 for a player without a public value, a hidden player, an unknown or hidden statistic', async () => {
    expectError(await rank(uuid()), 404, 'NOT_FOUND');
    expectError(await rank(hidden), 404, 'NOT_FOUND');
    const hiddenStat = await getJson(
      ctx,
      web,
      `/api/v1/leaderboards/rank?season=s1&stat=${HIDDEN}&player=${players[0]!.uuid}`,
    );
    expectError(hiddenStat, 404, 'NOT_FOUND');
    expectInvalid(await getJson(ctx, web, `/api/v1/leaderboards/rank?season=s1&stat=${SCORE}&player=nope`), 'player');
  });

  it('applies the player restriction: 403 outside it, ranks among its players inside it', async () => {
    const mine = [players[29]!, players[5]!, players[6]!];
    const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'restricted',
      type: 'website',
      scopes: ['leaderboards:read'],
      player_restrictions: mine.map((p) => p.uuid),
    });
    expectError(await rank(players[0]!.uuid, '', key.secret), 403, 'FORBIDDEN');
    const board = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}`, key.secret);
    const res = await rank(players[6]!.uuid, '&around=1', key.secret);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { total: number; entry: Entry; entries: Entry[] };
    expect(body.total).toBe(3);
    // 30, then 6 and 6: tied at rank 2, the earlier upload (player 5) first.
    expect(board.entries.map((e) => e.rank)).toEqual([1, 2, 2]);
    expect(body.entry).toEqual(board.entries[2]);
    expect(body.entries).toEqual(board.entries.slice(1, 3));
    // Pages of a restricted board are pages of its players.
    const page = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&offset=1`, key.secret);
    expect(page.entries).toEqual(board.entries.slice(1));
  });

  it('follows changes at once: a new value moves the player, hiding a player takes it off the board', async () => {
    const p = players[0]!;
    await post(p.uuid, p.name, [{ key: SCORE, value: 500 }], { observedAt: '2026-10-06T13:00:00Z' });
    const first = (await rank(p.uuid)).json() as { entry: Entry; total: number };
    expect(first.entry.rank).toBe(1);
    // A rename shows at once, in the player's entry and in its neighbours' windows.
    await post(p.uuid, 'Renamed', [], { observedAt: '2026-10-06T14:00:00Z' });
    expect(((await rank(p.uuid)).json() as { entry: Entry }).entry.player.username).toBe('Renamed');
    const second = (await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=2`)).entries[1]!;
    const around = (await rank(second.player.uuid, '&around=1')).json() as { entries: Entry[] };
    expect(around.entries[0]!.player.username).toBe('Renamed');
    const page = await ok<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${SCORE}&limit=1&offset=1`);
    expect(page.entries[0]!.player.uuid).toBe(second.player.uuid);
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, p.uuid, { public: false });
    expectError(await rank(p.uuid), 404, 'NOT_FOUND');
    expect(((await rank(players[1]!.uuid)).json() as { total: number }).total).toBe(first.total - 1);
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, p.uuid, { public: true });
    expect(((await rank(p.uuid)).json() as { entry: Entry }).entry.rank).toBe(1);
  });
});

describe('a board after many changes', () => {
  it('reads the whole board again rather than moving thousands of players one by one, with the same answers', async () => {
    const target = players[10]!;
    const before = (
      await getJson(ctx, web, `/api/v1/leaderboards/rank?season=s1&stat=${LOW}&player=${target.uuid}`)
    ).json();
    // The value changes in the database, and a change names thousands of players (as a burst of uploads would).
    const [def] = await ctx.db.query<{ id: string }>(
      'SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
      [fx.workspaceId, LOW],
    );
    await ctx.db.query(
      `UPDATE player_stats SET value = -1, updated_at = now()
       WHERE stat_id = $1 AND player_id = (SELECT id FROM players WHERE uuid = $2)`,
      [def!.id, target.uuid],
    );
    await ctx.bus.publish({
      topic: 'values',
      workspaceId: fx.workspaceId,
      pairs: [[fx.seasonId, def!.id]],
      players: [target.uuid, ...Array.from({ length: 3_000 }, () => uuid())],
    });
    const after = (
      await getJson(ctx, web, `/api/v1/leaderboards/rank?season=s1&stat=${LOW}&player=${target.uuid}`)
    ).json() as {
      entry: Entry;
    };
    expect(after.entry.value).toBe(-1);
    expect(after.entry.rank).toBe(1);
    expect(after).not.toEqual(before);
  });
});

describe('GET /api/v1/online?server=', () => {
  it('gives every entry its server and keeps only the players on the one asked for', async () => {
    const second = await ctx.services.servers.create(ACTOR, fx.workspaceId, {
      name: 'Lobby',
      hostname: 'lobby.example.com',
      port: 25566,
    });
    const now = new Date().toISOString();
    const a = uuid();
    const b = uuid();
    await post(a, 'OnMain', [], { observedAt: now });
    await post(b, 'OnLobby', [], { observedAt: now, hostname: 'lobby.example.com', port: 25566 });
    type Online = { data: { player: { uuid: string }; server: { id: string; name: string } }[] };
    const all = await ok<Online>('/api/v1/online');
    const byUuid = new Map(all.data.map((e) => [e.player.uuid, e.server]));
    expect(byUuid.get(a)).toEqual({ id: fx.serverId, name: 'Main' });
    expect(byUuid.get(b)).toEqual({ id: second.id, name: 'Lobby' });
    const lobby = await ok<Online>(`/api/v1/online?server=${second.id}`);
    expect(lobby.data.map((e) => e.player.uuid)).toEqual([b]);
    expect((await ok<Online>(`/api/v1/online?server=${uuid()}`)).data).toEqual([]);
    expectInvalid(await getJson(ctx, web, '/api/v1/online?server=lobby'), 'server');
  });
});
