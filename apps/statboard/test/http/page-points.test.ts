import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '#src/lib/time-buckets.ts';
import { siteKey } from '#src/modules/public-site/service.ts';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';
import { sql, uuid } from './support.ts';

/**
 * A public player page reads its chart's points with the player's values in one statement of its own and puts
 * them into days itself (`HistoryService.pageRead`): the points must be exactly those of
 * `GET /players/{uuid}/stats/history` (30 days by day), whatever the history holds: points before the 30 days,
 * several in a day, the current value observed before, inside or ahead of the range, in a season of values and
 * in one that counts gains (where a point from before gains were kept counts its value).
 */

let ctx: TestContext;
let fx: Fixture;
let statId: string;
const STAT = 'minecraft.custom:minecraft.jump';

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Page points');
  await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Gains', slug: 'gains', scoring: 'gains' });
  const [def] = await sql(
    ctx,
    `INSERT INTO stat_definitions (workspace_id, key, category) VALUES ($1, $2, 'custom') RETURNING id`,
    [fx.workspaceId, STAT],
  );
  statId = def!.id as string;
});
afterAll(async () => {
  await ctx?.close();
});

/** A history point or the current value: hours from now (negative: past), a value and maybe a gain. */
const point = fc.record({
  hours: fc.integer({ min: -40 * 24, max: 0 }),
  value: fc.integer({ min: 0, max: 6 }),
  gain: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
});
const current = fc.option(
  fc.record({
    // Minutes from now: up to 35 days back, or up to 2 hours ahead of the clock.
    minutes: fc.integer({ min: -35 * 24 * 60, max: 120 }),
    value: fc.integer({ min: 0, max: 6 }),
    gain: fc.integer({ min: 0, max: 6 }),
  }),
  { nil: null },
);

describe('a public page’s chart points', () => {
  it('are those of the history route, in a season of values and in one of gains', async () => {
    const key = siteKey(fx.workspaceId);
    const seasons: Season[] = [
      await ctx.services.seasons.readable(key, 's1'),
      await ctx.services.seasons.readable(key, 'gains'),
    ];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(point, { maxLength: 30 }), current, async (history, cur) => {
        const player = uuid();
        const [row] = await sql(
          ctx,
          `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
           VALUES ($1, $2, $3, now()) RETURNING id`,
          [fx.workspaceId, player, `Charted${n++}`],
        );
        const now = Date.now();
        const hourNow = now - (now % HOUR_MS);
        for (const season of seasons) {
          const seen = new Set<number>();
          for (const p of history) {
            if (seen.has(p.hours)) continue;
            seen.add(p.hours);
            await sql(
              ctx,
              `INSERT INTO stat_history (player_id, season_id, stat_id, at, value, gain) VALUES ($1, $2, $3, $4, $5, $6)`,
              [row!.id, season.id, statId, new Date(hourNow + p.hours * HOUR_MS), p.value, p.gain],
            );
          }
          if (cur) {
            // Never within 2 minutes of the clock: the two reads each take the time anew.
            const minutes = cur.minutes >= 0 ? cur.minutes + 2 : cur.minutes - 2;
            const at = new Date(now + minutes * 60_000 + 1234);
            await sql(
              ctx,
              `INSERT INTO player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $6)`,
              [season.id, statId, row!.id, cur.value, cur.gain, at],
            );
          }
          const page = await ctx.services.history.pageRead(key, player, season, STAT);
          const api = JSON.parse(
            (
              await ctx.services.history.historyJson(key, player, { stat: STAT, season: season.id, interval: 'day' })
            ).toString(),
          ) as { points: { at: string; value: number }[] };
          expect(page.points.map((p) => ({ at: new Date(p.at).toISOString(), value: p.value }))).toEqual(api.points);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
