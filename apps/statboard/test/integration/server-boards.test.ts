import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardRef } from '#src/modules/leaderboards/boards.ts';
import { CompactBoard } from '#src/modules/leaderboards/compact-board.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk, uuid } from '../http/support.ts';

const MAIN = { hostname: 'mc.example.com', port: 25565 };
const CREATIVE = { hostname: 'creative.example.com', port: 25565 };

/**
 * Mod uploads of one statistic by the client key of `workspace()`'s fixture, observed one second apart (from an
 * hour ago; `restart` moves the clock to now).
 */
function uploader(workspace: () => { ctx: TestContext; fx: Fixture }, key: string) {
  let clock = Date.now() - 60 * 60_000;
  return {
    upload(player: string, via: typeof MAIN, value: number) {
      clock += 1_000;
      const { ctx, fx } = workspace();
      return ingestOk(
        ctx,
        fx.keys.client!,
        modBatch({
          uuid: player,
          username: `P${player.slice(0, 6)}`,
          ...via,
          stats: [{ key, value }],
          observedAt: new Date(clock).toISOString(),
        }),
      );
    },
    restart() {
      clock = Date.now();
    },
  };
}

/**
 * One server's boards (`server=`) held in memory as compact boards (RANK_CACHE_MB's entries set to 3 here) and
 * read from `server_stats_top_idx`: every page and rank agrees byte for byte with the same board summed at read
 * time (a key restricted to that server and to every player takes that path), with ties of value and of time and
 * hidden players; uploads through one server move its board (and not the other's) without reading it again.
 */
describe("one server's compact boards", () => {
  let ctx: TestContext;
  let fx: Fixture;
  let second: string;
  /** Keys restricted to one server and every player: boards summed over that server at read time. */
  const summed: Record<string, string> = {};
  const N = 24;
  const players = Array.from({ length: N }, () => uuid());
  const STAT = 'servers:compact';
  const { upload } = uploader(() => ({ ctx, fx }), STAT);

  beforeAll(async () => {
    ctx = await createTestContext({}, { rankCacheEntries: 3 });
    fx = await seedWorkspace(ctx.services, 'Compact servers');
    second = (await ctx.services.servers.create(ACTOR, fx.workspaceId, { name: 'Creative', ...CREATIVE })).id;
    // Every player on the main server, two in three on the second too: runs of tied values on both.
    for (const [i, p] of players.entries()) {
      await upload(p, MAIN, (i * 7) % 5);
      if (i % 3 !== 0) await upload(p, CREATIVE, (i * 3) % 4);
    }
    // Ties of time too (before any read: nothing to tell the boards).
    await ctx.db.query(
      `UPDATE server_stats SET updated_at = timestamptz '2026-10-01T00:00:00Z' + (value::int % 2) * interval '1 hour'`,
    );
    for (const p of players.slice(0, 2)) {
      await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, p, { public: false });
    }
    for (const server of [fx.serverId, second]) {
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: `summed ${server}`,
        type: 'website',
        scopes: ['stats:read', 'leaderboards:read'],
        server_restrictions: [server],
        player_restrictions: players,
      });
      summed[server] = k.secret;
    }
  });

  afterAll(async () => {
    await ctx?.close();
  });

  const ref = async (server: string): Promise<BoardRef> => {
    const [def] = await ctx.db.query<{ id: string }>(
      'SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
      [fx.workspaceId, STAT],
    );
    return { workspaceId: fx.workspaceId, seasonId: fx.seasonId, statId: def!.id, order: 'desc', serverId: server };
  };

  /** Reads until `server`'s board is held as a compact board (loaded in the background). */
  async function settle(server: string): Promise<CompactBoard> {
    const r = await ref(server);
    for (let i = 0; i < 100; i++) {
      await getJson(
        ctx,
        fx.keys.website!,
        `/api/v1/leaderboards/rank?season=s1&stat=${STAT}&player=${players[5]}&server=${server}`,
      );
      const b = ctx.services.leaderboards.boards.ready(r);
      if (b instanceof CompactBoard) return b;
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new Error('the compact board was never loaded');
  }

  /** Every page (3 entries, at every offset), the top, and every player's rank, as the summed board answers. */
  async function agree(server: string): Promise<number> {
    const path = (p: string) => `/api/v1/leaderboards${p}&season=s1&stat=${STAT}`;
    const same = async (p: string) => {
      const one = await getJson(ctx, fx.keys.website!, `${path(p)}&server=${server}`);
      const reference = await getJson(ctx, summed[server]!, path(p));
      expect(one.statusCode, one.body).toBe(reference.statusCode);
      // A hidden player or none on that server: 404 on both (bodies differ by their request ids).
      if (one.statusCode === 200) expect(one.body).toBe(reference.body);
      return one;
    };
    const top = (await same('?limit=100')).json() as { entries: unknown[] };
    for (let offset = 1; offset <= top.entries.length; offset++) await same(`?limit=3&offset=${offset}`);
    for (const p of players) await same(`/rank?player=${p}&around=2`);
    return top.entries.length;
  }

  it('answers tops, pages and ranks of each server exactly', async () => {
    for (const server of [fx.serverId, second]) {
      const b = await settle(server);
      expect(await agree(server)).toBe(b.size);
      // Answered from that board, which nothing changed.
      expect(ctx.services.leaderboards.boards.ready(await ref(server))).toBe(b);
    }
  });

  it("follows one server's uploads without reading its board again, and leaves the other server's board", async () => {
    const main = await settle(fx.serverId);
    const creative = await settle(second);
    const mainSize = main.size;
    // (No rate for this statistic's namespace; a player new to a server gets a low value: neither is held.)
    await upload(players[7]!, CREATIVE, 50);
    await upload(players[8]!, CREATIVE, 0);
    // A player new to the second server.
    await upload(players[3]!, CREATIVE, 0);
    expect(ctx.services.leaderboards.boards.ready(await ref(second))).toBe(creative);
    expect(ctx.services.leaderboards.boards.ready(await ref(fx.serverId))).toBe(main);
    expect(main.size).toBe(mainSize);
    await agree(second);
    await agree(fx.serverId);
    const top = await getJson(
      ctx,
      fx.keys.website!,
      `/api/v1/leaderboards?season=s1&stat=${STAT}&limit=1&server=${second}`,
    );
    expect(top.json().entries[0]).toMatchObject({ rank: 1, value: 50, player: { uuid: players[7] } });
  });
});

/**
 * Boards of a season that counts gains, held in memory as compact boards of the gains (moved by the gains the
 * writer reports): every page and rank agrees byte for byte with the same board ranked at read time (a key
 * restricted to every player takes that path), through uploads, counter drops and a switch of scoring.
 */
describe('compact boards of gains', () => {
  let ctx: TestContext;
  let fx: Fixture;
  let everyone: string;
  let onServer: string;
  const N = 24;
  const players = Array.from({ length: N }, () => uuid());
  const STAT = 'gains:compact';
  const uploads = uploader(() => ({ ctx, fx }), STAT);
  const upload = (player: string, value: number) => uploads.upload(player, MAIN, value);
  let seasonId: string;

  beforeAll(async () => {
    ctx = await createTestContext({}, { rankCacheEntries: 3 });
    fx = await seedWorkspace(ctx.services, 'Compact gains');
    // Season 1's values are the baselines of season 2.
    for (const [i, p] of players.entries()) await upload(p, 100 + i);
    const s2 = await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Season 2',
      slug: 's2',
      scoring: 'gains',
    });
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, s2.id);
    seasonId = s2.id;
    uploads.restart();
    // Gains with ties: 0, 5 or 10 each; one counter dropped (a reset world): its gain counts on from 0.
    for (const [i, p] of players.entries()) await upload(p, 100 + i + (i % 3) * 5);
    await upload(players[4]!, 3);
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, players[1]!, { public: false });
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'everyone',
      type: 'website',
      scopes: ['stats:read', 'leaderboards:read'],
      player_restrictions: players,
    });
    everyone = k.secret;
    // The same players on the one server their values are on: that server's board summed at read time.
    const s = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'everyone on the server',
      type: 'website',
      scopes: ['stats:read', 'leaderboards:read'],
      player_restrictions: players,
      server_restrictions: [fx.serverId],
    });
    onServer = s.secret;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  const ref = async (): Promise<BoardRef> => {
    const [def] = await ctx.db.query<{ id: string }>(
      'SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
      [fx.workspaceId, STAT],
    );
    return { workspaceId: fx.workspaceId, seasonId, statId: def!.id, order: 'desc', column: 'gain' };
  };

  async function settle(): Promise<CompactBoard> {
    const r = await ref();
    for (let i = 0; i < 100; i++) {
      await getJson(ctx, fx.keys.website!, `/api/v1/leaderboards/rank?season=s2&stat=${STAT}&player=${players[5]}`);
      const b = ctx.services.leaderboards.boards.ready(r);
      if (b instanceof CompactBoard) return b;
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new Error('the compact board was never loaded');
  }

  /** Every page and rank as the board ranked at read time gives it; `server`: that server's board alone. */
  async function agree(server?: string): Promise<unknown[]> {
    const path = (p: string) => `/api/v1/leaderboards${p}&season=s2&stat=${STAT}`;
    const same = async (p: string) => {
      const one = await getJson(ctx, fx.keys.website!, server ? `${path(p)}&server=${server}` : path(p));
      const reference = await getJson(ctx, server ? onServer : everyone, path(p));
      expect(one.statusCode, one.body).toBe(reference.statusCode);
      if (one.statusCode === 200) expect(one.body).toBe(reference.body);
      return one;
    };
    const top = (await same('?limit=100')).json() as { entries: unknown[] };
    for (let offset = 1; offset <= top.entries.length; offset++) await same(`?limit=3&offset=${offset}`);
    for (const p of players) await same(`/rank?player=${p}&around=2`);
    return top.entries;
  }

  it('ranks gains from a compact board, and follows uploads without reading it again', async () => {
    const b = await settle();
    const top = await agree();
    expect(top).toHaveLength(b.size);
    expect(top[0]).toMatchObject({ rank: 1, value: 10 });
    await upload(players[7]!, 200);
    await upload(players[4]!, 1);
    expect(ctx.services.leaderboards.boards.ready(await ref())).toBe(b);
    const after = await agree();
    expect(after[0]).toMatchObject({ rank: 1, player: { uuid: players[7] } });
  });

  it("ranks one server's gains as the same board summed at read time", async () => {
    const top = await agree(fx.serverId);
    expect(top[0]).toMatchObject({ rank: 1, player: { uuid: players[7] } });
    await upload(players[9]!, 500);
    expect((await agree(fx.serverId))[0]).toMatchObject({ rank: 1, player: { uuid: players[9] } });
  });
});
