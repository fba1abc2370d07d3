import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#src/config.ts';
import { ACTOR, createTestContext, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk } from '../http/support.ts';

/**
 * `/leaderboards/rank` against `/leaderboards` on generated boards with many ties, in both orders, after
 * generated changes: every player's rank, entry and neighbourhood are exactly those of the leaderboard's pages, and
 * the ranks a player page counts (`networkRanks`) theirs.
 */

/**
 * Boards held in memory (the default), boards larger than the budget (answered by queries after their size is
 * counted), boards held as counts only (compact boards: larger than the budget of full entries, within the bytes),
 * and no board cache at all (every read a query).
 */
describe.each<{ name: string; env: Record<string, string>; overrides: Partial<Config> }>([
  { name: 'boards in memory', env: {}, overrides: {} },
  // Room for 3 full entries and no compact board (its fixed part alone is larger).
  { name: 'boards over the budget', env: {}, overrides: { rankCacheEntries: 3, rankCacheBytes: 4_500 } },
  { name: 'compact boards', env: {}, overrides: { rankCacheEntries: 3 } },
  { name: 'no board cache', env: { RANK_CACHE_MB: '0' }, overrides: {} },
])('$name', ({ env, overrides }) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(env, overrides);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  interface Entry {
    rank: number;
    player: { uuid: string };
    value: number;
    updated_at: string;
  }

  const board = fc.record({
    order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
    // Few distinct values: many ties, broken by upload order (updated_at) and then UUID.
    values: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 14 }),
    changes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 4 })), { maxLength: 4 }),
    around: fc.integer({ min: 0, max: 4 }),
    // Players hidden after the first read (their values leave the board; ranks and totals close up).
    hidden: fc.array(fc.nat(), { maxLength: 3 }),
    pageSize: fc.integer({ min: 1, max: 5 }),
  });

  let n = 0;

  describe('ranks and pages', () => {
    it('agree with /leaderboards on generated boards with ties', async () => {
      await fc.assert(
        fc.asyncProperty(board, async ({ order, values, changes, around, pageSize, hidden }) => {
          const fx = await seedWorkspace(ctx.services, `Ranks ${n++}`);
          const stat = `prop.board:prop.s${n}`;
          const players = values.map(() => crypto.randomUUID());
          const send = (i: number, value: number, observedAt: string) =>
            ingestOk(
              ctx,
              fx.keys.client!,
              modBatch({
                uuid: players[i],
                username: `P${i}`,
                stats: [{ key: stat, value }],
                observedAt,
                sessionId: crypto.randomUUID(),
              }),
            );
          // Pairs sent together share their updated_at: ties broken by UUID.
          for (let i = 0; i < values.length; i += 2) {
            await Promise.all(
              [i, i + 1].filter((j) => j < values.length).map((j) => send(j, values[j]!, '2026-10-01T00:00:00Z')),
            );
          }
          if (order === 'asc') await ctx.services.stats.update(ACTOR, fx.workspaceId, stat, { sort_order: 'asc' });
          const web = fx.keys.website!;
          // Read once (the rank board is loaded), then change values: the board must follow.
          await getJson(ctx, web, `/api/v1/leaderboards/rank?season=s1&stat=${stat}&player=${players[0]}`);
          for (const [at, [who, value]] of changes.entries()) {
            await send(who % values.length, value, `2026-10-01T0${at + 1}:00:00Z`);
          }
          const hide = new Set(hidden.map((h) => h % values.length));
          // Never every player: an empty board has nothing to rank.
          if (hide.size === values.length) hide.delete(0);
          for (const h of hide) {
            await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, players[h]!, { public: false });
          }
          const all = (
            (await getJson(ctx, web, `/api/v1/leaderboards?season=s1&stat=${stat}&limit=100`)).json() as {
              entries: Entry[];
            }
          ).entries;
          expect(all).toHaveLength(values.length - hide.size);
          for (let offset = 0; offset < all.length; offset += pageSize) {
            const page = await getJson(
              ctx,
              web,
              `/api/v1/leaderboards?season=s1&stat=${stat}&limit=${pageSize}&offset=${offset}`,
            );
            expect((page.json() as { entries: Entry[] }).entries).toEqual(all.slice(offset, offset + pageSize));
          }
          for (const [i, e] of all.entries()) {
            const res = await getJson(
              ctx,
              web,
              `/api/v1/leaderboards/rank?season=s1&stat=${stat}&player=${e.player.uuid}&around=${around}`,
            );
            expect(res.statusCode, res.body).toBe(200);
            const body = res.json() as { total: number; entry: Entry; entries: Entry[] };
            expect(body.total).toBe(all.length);
            expect(body.entry).toEqual(e);
            expect(body.entries).toEqual(all.slice(Math.max(0, i - around), i + around + 1));
          }
          // A player page's counted ranks (a small network's) are these ranks too.
          const key = (await ctx.services.verifier.verify(web))!;
          const season = await ctx.services.seasons.readable(key, 's1');
          const def = await ctx.services.leaderboards.definition(fx.workspaceId, stat);
          for (const e of all) {
            const counted = await ctx.services.leaderboards.networkRanks(key, season, [
              { statId: def.id, value: e.value, order },
            ]);
            expect(counted?.get(def.id)).toEqual({ rank: e.rank, total: all.length });
          }
        }),
        { numRuns: 25 },
      );
    });
  });
});
