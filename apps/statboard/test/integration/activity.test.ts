import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity } from '#src/modules/ingest/repo.ts';
import { createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

const H = 3_600_000;

/**
 * `activity` counts each session in every bucket it overlaps (started before the bucket's end, last seen at or
 * after its start) and each player once per bucket, in one pass: checked against that rule evaluated bucket by
 * bucket on sessions that start before the range, span several buckets, end after it, or fall on an edge.
 */
describe('activity per bucket', () => {
  let ctx: TestContext;
  let fx: Fixture;
  const from = new Date('2026-10-01T00:00:00Z');
  const to = new Date('2026-10-01T10:00:00Z');
  // [player, started (hours after `from`), last seen (hours after `from`)]
  const sessions: [number, number, number][] = [
    [0, -5, -1], // before the range
    [0, -2, 0.5], // into the first bucket
    [1, 0, 0], // on the first edge, a moment long
    [1, 1, 1], // exactly on a bucket's start
    [1, 1.5, 3.2], // spans buckets 1–3
    [2, 2.99, 3], // ends on an edge: buckets 2 and 3
    [2, 3.1, 3.4], // same player again in bucket 3 (counted once)
    [3, 8.5, 30], // runs past the end
    [4, 10, 12], // starts at `to`: outside
    [5, 9.999, 9.9995],
  ];
  const firstSeen = [-100, 0.2, 5, 9.5, 10, 3];

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services);
    const at = (h: number) => new Date(from.getTime() + h * H);
    const ids: string[] = [];
    for (const [i, seen] of firstSeen.entries()) {
      const [row] = await ctx.db.query<{ id: string }>(
        `INSERT INTO players (workspace_id, uuid, username, username_observed_at, first_seen_at)
         VALUES ($1, gen_random_uuid(), $2, now(), $3) RETURNING id`,
        [fx.workspaceId, `A${i}`, at(seen)],
      );
      ids.push(row!.id);
    }
    for (const [p, start, last] of sessions) {
      await ctx.db.query(
        `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version,
           game_version, started_at, last_seen_at)
         VALUES ($1, $2, gen_random_uuid(), $3, $4, '1', '1.21', $5, $6)`,
        [fx.workspaceId, ids[p], fx.serverId, fx.seasonId, at(start), at(last)],
      );
    }
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('matches the rule evaluated bucket by bucket', async () => {
    const rows = await activity(ctx.db, fx.workspaceId, from, to, 'hour');
    expect(rows).toHaveLength(10);
    for (const [i, r] of rows.entries()) {
      expect(new Date(r.at).getTime()).toBe(from.getTime() + i * H);
      const active = new Set(sessions.filter(([, s, l]) => l >= i && s < i + 1).map(([p]) => p));
      expect(r.active_players, `bucket ${i}`).toBe(active.size);
      expect(r.new_players, `bucket ${i}`).toBe(firstSeen.filter((h) => h >= i && h < i + 1).length);
    }
  });

  it('gives days the same way', async () => {
    const rows = await activity(ctx.db, fx.workspaceId, new Date('2026-09-30T00:00:00Z'), to, 'day');
    expect(rows.map((r) => [r.active_players, r.new_players])).toEqual([
      [1, 0],
      [6, 5],
    ]);
  });
});
