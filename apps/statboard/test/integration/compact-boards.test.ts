import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardRef } from '#src/modules/leaderboards/boards.ts';
import { CompactBoard } from '#src/modules/leaderboards/compact-board.ts';
import { pageFrom } from '#src/modules/leaderboards/repo.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk } from '../http/support.ts';

/**
 * Boards too large for full entries and held as counts only (compact boards: RANK_CACHE_MB's entries set to 3
 * here, the bytes left at their default): ranks and pages agree exactly with `/leaderboards` (always a query) on
 * boards with ties of value and of time, hidden players, in both orders, with pages that start inside a run of
 * ties; after uploads (read-your-writes) and after a change that tells no values (the board is read again,
 * answered by queries meanwhile).
 */
describe('compact rank boards', () => {
  let ctx: TestContext;
  let fx: Fixture;
  const N = 40;
  const uuids: string[] = [];
  const refs: Record<'asc' | 'desc', BoardRef> = {} as never;
  const keys = { asc: 'compact:asc', desc: 'compact:desc' } as const;

  interface Entry {
    rank: number;
    player: { uuid: string };
    value: number;
    updated_at: string;
  }

  beforeAll(async () => {
    ctx = await createTestContext({}, { rankCacheEntries: 3 });
    fx = await seedWorkspace(ctx.services);
    const players = await ctx.db.query<{ id: string; uuid: string }>(
      `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT $1, gen_random_uuid(), 'P' || g, now() FROM generate_series(1, $2::int) g RETURNING id, uuid::text AS uuid`,
      [fx.workspaceId, N],
    );
    uuids.push(...players.map((p) => p.uuid));
    for (const order of ['asc', 'desc'] as const) {
      const [def] = await ctx.db.query<{ id: string }>(
        `INSERT INTO stat_definitions (workspace_id, key, sort_order) VALUES ($1, $2, $3) RETURNING id`,
        [fx.workspaceId, keys[order], order],
      );
      // Five values, three times: runs of ties of value and of time (broken by UUID).
      for (const [i, p] of players.entries()) {
        await ctx.db.query(
          `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
           VALUES ($1, $2, $3, $4, timestamptz '2026-09-01T00:00:00Z', timestamptz '2026-10-01T00:00:00Z' + $5 * interval '1 hour')`,
          [fx.seasonId, def!.id, p.id, (i * 7) % 5, i % 3],
        );
      }
      refs[order] = { workspaceId: fx.workspaceId, seasonId: fx.seasonId, statId: def!.id, order };
    }
    // Hidden players (before any read): their values are not on the boards.
    await ctx.db.query('UPDATE players SET public = false WHERE uuid = ANY($1::uuid[])', [uuids.slice(0, 3)]);
    // The writer learns the definitions (its first upload of a key announces new definitions: boards read again).
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: uuids[N - 1],
        username: `P${N}`,
        observedAt: '2026-09-15T00:00:00Z',
        stats: [
          { key: keys.asc, value: ((N - 1) * 7) % 5 },
          { key: keys.desc, value: ((N - 1) * 7) % 5 },
        ],
      }),
    );
  });

  afterAll(async () => {
    await ctx?.close();
  });

  const board = (order: 'asc' | 'desc') => ctx.services.leaderboards.boards.ready(refs[order]);

  /** Reads until the board is held as a compact board (loaded in the background). */
  async function settle(order: 'asc' | 'desc'): Promise<CompactBoard> {
    for (let i = 0; i < 100; i++) {
      await getJson(
        ctx,
        fx.keys.website!,
        `/api/v1/leaderboards/rank?season=s1&stat=${keys[order]}&player=${uuids[5]}`,
      );
      const b = board(order);
      if (b instanceof CompactBoard) return b;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the compact board was never loaded');
  }

  /** Every rank and every page (3 entries, at every offset) against the whole board as `/leaderboards` gives it. */
  async function agree(order: 'asc' | 'desc'): Promise<void> {
    const web = fx.keys.website!;
    const all = (
      (await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${keys[order]}&limit=100`)).json() as {
        entries: Entry[];
      }
    ).entries;
    for (let offset = 1; offset <= all.length + 1; offset++) {
      const page = await getJson(
        ctx,
        web,
        `/api/v1/leaderboards?season=s1&stat=${keys[order]}&limit=3&offset=${offset}`,
      );
      expect(page.statusCode, page.body).toBe(200);
      expect((page.json() as { entries: Entry[] }).entries).toEqual(all.slice(offset, offset + 3));
    }
    for (const [i, e] of all.entries()) {
      const res = await getJson(
        ctx,
        web,
        `/api/v1/leaderboards/rank?season=s1&stat=${keys[order]}&player=${e.player.uuid}&around=2`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { total: number; entry: Entry; entries: Entry[] };
      expect(body.total).toBe(all.length);
      expect(body.entry).toEqual(e);
      expect(body.entries).toEqual(all.slice(Math.max(0, i - 2), i + 3));
    }
    const hidden = await getJson(
      ctx,
      web,
      `/api/v1/leaderboards/rank?season=s1&stat=${keys[order]}&player=${uuids[0]}`,
    );
    expect(hidden.statusCode).toBe(404);
    // The page's own query finds every start inside runs of ties, past hidden players' values, from the index and
    // the hidden values the board holds (the service would fall back to a query of the board were it wrong
    // in the count of rows or the first value; a start off by a hidden value would pass that).
    const b = board(order);
    if (b instanceof CompactBoard) {
      for (let offset = 0; offset < all.length; offset++) {
        const value = b.valueAt(offset)!;
        const rows = await pageFrom(ctx.db, {
          ...refs[order],
          value,
          skip: offset - b.better(value),
          limit: 4,
          hiddenAt: b.hiddenAt(value),
        });
        expect(rows.map((r) => r.uuid)).toEqual(all.slice(offset, offset + 4).map((e) => e.player.uuid));
      }
    }
  }

  it.each(['asc', 'desc'] as const)('answers ranks and pages exactly (%s)', async (order) => {
    const b = await settle(order);
    expect(b.size).toBe(N - 3);
    await agree(order);
    // Answered from that board, which nothing changed.
    expect(board(order)).toBe(b);
  });

  it('follows uploads without reading the board again, and a client sees its own at once', async () => {
    const desc = await settle('desc');
    const asc = await settle('asc');
    // Player i's upload: 2 or 9 on the descending board (by j), j on the ascending one.
    const upload = (i: number, j: number) =>
      ingestOk(
        ctx,
        fx.keys.client!,
        modBatch({
          uuid: uuids[i],
          username: `P${i + 1}`,
          sessionId: crypto.randomUUID(),
          observedAt: '2026-10-02T00:00:00Z',
          stats: [
            { key: keys.desc, value: j % 2 === 0 ? 2 : 9 },
            { key: keys.asc, value: j },
          ],
        }),
      );
    // Hidden players' values move too (into the runs of ties, before the public values written next): the board
    // keeps where they stand among the ties.
    for (const [j, i] of [1, 2].entries()) await upload(i, j);
    await Promise.all([3, 4, 5, 6, 7, 8].map((i, j) => upload(i, j)));
    // The boards took the changed values as the writes told them (old value out, new value in).
    expect(board('desc')).toBe(desc);
    expect(board('asc')).toBe(asc);
    await agree('desc');
    await agree('asc');
    expect(board('desc')).toBe(desc);
  });

  it('follows uploads that come while the board is read', async () => {
    const desc = await settle('desc');
    // Stale (a change that tells no values): read again in the background at the next read, during the uploads.
    ctx.bus.applyLocal({
      topic: 'values',
      workspaceId: fx.workspaceId,
      pairs: [[refs.desc.seasonId, refs.desc.statId]],
    });
    const reading = getJson(ctx, fx.keys.website!, `/api/v1/leaderboards?season=s1&stat=${keys.desc}&offset=1`);
    await Promise.all(
      [11, 12, 13, 14].map((i, j) =>
        ingestOk(
          ctx,
          fx.keys.client!,
          modBatch({
            uuid: uuids[i],
            username: `P${i + 1}`,
            sessionId: crypto.randomUUID(),
            observedAt: '2026-10-03T00:00:00Z',
            stats: [{ key: keys.desc, value: 100 + (j % 2) }],
          }),
        ),
      ),
    );
    await reading;
    const again = await settle('desc');
    expect(again).not.toBe(desc);
    await agree('desc');
  });

  it('reads a board again after a change that tells no values, answering by queries meanwhile', async () => {
    const before = await settle('asc');
    await ctx.db.query(
      `UPDATE player_stats SET value = value + 1 WHERE stat_id = $1 AND player_id IN (SELECT id FROM players WHERE uuid = $2)`,
      [refs.asc.statId, uuids[10]],
    );
    ctx.bus.applyLocal({ topic: 'values', workspaceId: fx.workspaceId });
    expect(board('asc')).toBeUndefined();
    await agree('asc');
    const after = await settle('asc');
    expect(after).not.toBe(before);
    await agree('asc');
  });

  it('reads a board again when a player is hidden', async () => {
    await settle('desc');
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, uuids[20]!, { public: false });
    expect(board('desc')).toBeUndefined();
    await agree('desc');
    expect((await settle('desc')).size).toBe(N - 4);
    await agree('desc');
  });
});
