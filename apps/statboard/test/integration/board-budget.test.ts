import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeBus } from '#src/cache/bus.ts';
import { Changes } from '#src/cache/changes.ts';
import { BoardCache, type BoardRef } from '#src/modules/leaderboards/boards.ts';
import { CompactBoard } from '#src/modules/leaderboards/compact-board.ts';
import { boardRuns } from '#src/modules/leaderboards/repo.ts';
import { createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

/**
 * Rank boards within RANK_CACHE_MB's budget of entries: a board is answered by queries until it is loaded in the
 * background, one larger than the budget is never loaded, and boards read recently are not pushed out for
 * another (which then stays on queries), so boards read in turn never load each other again and again.
 */
describe('rank boards within their budget', () => {
  let ctx: TestContext;
  let fx: Fixture;
  const refs: Record<string, BoardRef> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services);
    // Boards of 6, 6 and 12 values.
    const sizes: Record<string, number> = { a: 6, b: 6, big: 12 };
    const players = await ctx.db.query<{ id: string }>(
      `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT $1, gen_random_uuid(), 'P' || g, now() FROM generate_series(1, 12) g RETURNING id`,
      [fx.workspaceId],
    );
    for (const [key, n] of Object.entries(sizes)) {
      const [def] = await ctx.db.query<{ id: string }>(
        `INSERT INTO stat_definitions (workspace_id, key) VALUES ($1, $2) RETURNING id`,
        [fx.workspaceId, `budget:${key}`],
      );
      for (const [i, p] of players.slice(0, n).entries()) {
        await ctx.db.query(
          `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
           VALUES ($1, $2, $3, $4, now(), now())`,
          [fx.seasonId, def!.id, p.id, i],
        );
      }
      refs[key] = { workspaceId: fx.workspaceId, seasonId: fx.seasonId, statId: def!.id, order: 'desc' };
    }
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** Reads until the background load has landed (or gives up): the board, or null. */
  async function settle(cache: BoardCache, ref: BoardRef): Promise<Awaited<ReturnType<BoardCache['board']>>> {
    for (let i = 0; i < 50; i++) {
      const b = await cache.board(ref);
      if (b) return b;
      await new Promise((r) => setTimeout(r, 20));
    }
    return null;
  }

  it('answers by query first, then from the board loaded in the background', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10);
    expect(await cache.board(refs.a!)).toBeNull();
    const board = await settle(cache, refs.a!);
    expect(board?.size).toBe(6);
    expect(cache.ready(refs.a!)).toBe(board);
  });

  it('tells a small board (one to hold whole) from a large one, counting each at most once a minute', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10);
    const counts: string[] = [];
    const db = {
      ...ctx.db,
      query: ((sql: string, params?: readonly unknown[]) => {
        if (sql.includes('SELECT count(*)::int AS n FROM (SELECT 1 FROM')) counts.push(String(params?.[1]));
        return ctx.db.query(sql, params);
      }) as typeof ctx.db.query,
    };
    const counted = new BoardCache(db, new Changes(ChangeBus.local(), true), 10);
    expect(await counted.isSmall(refs.a!)).toBe(true);
    expect(await counted.isSmall(refs.big!)).toBe(false);
    // Known now: answered at once, without counting again.
    expect(counted.isSmall(refs.a!)).toBe(true);
    expect(counted.isSmall(refs.big!)).toBe(false);
    expect(counts).toEqual([refs.a!.statId, refs.big!.statId]);
    // The season's boards counted large, for pages to pass over for a minute.
    const large = counted.countedLarge(fx.workspaceId, fx.seasonId, 'value');
    expect([...large.keys()]).toEqual([refs.big!.statId]);
    expect(large.get(refs.big!.statId)).toBeGreaterThan(Date.now() + 50_000);
    // A board held whole is small without a count; with no budget nothing is.
    expect((await settle(cache, refs.b!))?.size).toBe(6);
    expect(cache.isSmall(refs.b!)).toBe(true);
    expect(new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 0, 0).isSmall(refs.a!)).toBe(false);
  });

  it('never loads a board larger than the whole budget', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10);
    expect(await settle(cache, refs.big!)).toBeNull();
    expect(cache.ready(refs.big!)).toBeUndefined();
  });

  it('does not push out a board read recently: the other stays on queries', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10);
    expect((await settle(cache, refs.a!))?.size).toBe(6);
    // a (6) + b (6) > 10: b waits while a is read.
    expect(await settle(cache, refs.b!)).toBeNull();
    expect(cache.ready(refs.a!)?.size).toBe(6);
  });

  it('holds a board too large for full entries as a compact board, within the bytes', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10, 1024 * 1024);
    const big = await settle(cache, refs.big!);
    expect(big).toBeInstanceOf(CompactBoard);
    expect(big?.size).toBe(12);
    // A full board still fits its entries beside it.
    expect(await settle(cache, refs.a!)).not.toBeInstanceOf(CompactBoard);
    expect(cache.ready(refs.big!)).toBe(big);
  });

  it("applies a write's changed values to a compact board once: not when the board was read after it", async () => {
    const bus = ChangeBus.local();
    const cache = new BoardCache(ctx.db, new Changes(bus, true), 0, 1024 * 1024);
    const ref = refs.big!;
    const first = (await settle(cache, ref)) as CompactBoard;
    // The board's statistic is asked for in detail from now on.
    expect(bus.detailed([ref.statId, 'other'])).toEqual([ref.statId]);
    const best = first.valueAt(0)!;
    // A write the board has not seen: its xid is not in the board's snapshot, so the move applies.
    const [late] = await ctx.db.query<{ xid: string }>(`SELECT pg_current_xact_id()::text AS xid`);
    const move = (xid: string) =>
      bus.applyLocal({
        topic: 'values',
        workspaceId: fx.workspaceId,
        pairs: [[ref.seasonId, ref.statId]],
        moves: { xid, stats: [ref.statId], rows: [[ref.seasonId, ref.statId, null, best + 100, null, null]] },
      });
    move(late!.xid);
    expect(cache.ready(ref)).toBe(first);
    expect(first.size).toBe(13);
    expect(first.valueAt(0)).toBe(best + 100);
    // A board read after that write committed saw it (its snapshot): the same change is not applied again.
    bus.applyLocal({ topic: 'values', workspaceId: fx.workspaceId, pairs: [[ref.seasonId, ref.statId]] });
    const second = (await settle(cache, ref)) as CompactBoard;
    expect(second).not.toBe(first);
    move(late!.xid);
    expect(second.size).toBe(12);
  });

  it("reads a compact board's values in chunks, whatever their size", async () => {
    const whole = await boardRuns(ctx.db, refs.big!);
    expect([...whole.counts].reduce((a, b) => a + b, 0)).toBe(12);
    for (const chunk of [1, 4, 5]) {
      const parts = await boardRuns(ctx.db, { ...refs.big!, chunk });
      expect([...parts.values]).toEqual([...whole.values]);
      expect([...parts.counts]).toEqual([...whole.counts]);
    }
  });

  it('knows which statistics it may hold a board of, by season and column: a page looks for ranks in those only', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 10);
    const slotted = (column: 'value' | 'gain') => new Set(cache.slotted(fx.workspaceId, fx.seasonId, column));
    expect(slotted('value')).toEqual(new Set());
    const board = await settle(cache, refs.a!);
    expect(board?.size).toBe(6);
    expect(slotted('value')).toEqual(new Set([refs.a!.statId]));
    expect(slotted('gain')).toEqual(new Set());
    // A board asked for that does not fit now is on its way, not held: among them, and `ready` has none of it.
    expect(await settle(cache, refs.b!)).toBeNull();
    expect(slotted('value')).toEqual(new Set([refs.a!.statId, refs.b!.statId]));
    expect(cache.ready(refs.b!)).toBeUndefined();
    // Every board `ready` returns is among them.
    expect(cache.ready(refs.a!)).toBe(board);
  });

  it('holds nothing without a budget', async () => {
    const cache = new BoardCache(ctx.db, new Changes(ChangeBus.local(), true), 0);
    expect(await settle(cache, refs.a!)).toBeNull();
  });
});
