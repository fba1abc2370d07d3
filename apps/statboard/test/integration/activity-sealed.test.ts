import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeBus } from '#src/cache/bus.ts';
import { ACTIVITY_SEALED_AFTER_MS, IngestDiagnostics } from '#src/modules/ingest/diagnostics.ts';
import { activity } from '#src/modules/ingest/repo.ts';
import { createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

const H = 3_600_000;

/**
 * The admin overview keeps activity buckets that ended more than ACTIVITY_SEALED_AFTER_MS ago and reads only the
 * recent ones: answers stay those of the query over the whole range as time moves on, recent buckets keep
 * counting, and an import (a workspace-wide player change) or an unhealthy bus makes kept buckets be read again.
 */
describe('activity: final buckets kept, recent ones read', () => {
  let ctx: TestContext;
  let fx: Fixture;
  let bus: ChangeBus;
  let diagnostics: IngestDiagnostics;
  // A fixed clock, moved by the tests: 10:05 UTC on a day in the past (the 09:00 bucket ended 5 minutes ago).
  let now = Date.parse('2026-10-02T10:05:00Z');

  const player = async (name: string, firstSeen: number) =>
    (
      await ctx.db.query<{ id: string }>(
        `INSERT INTO players (workspace_id, uuid, username, username_observed_at, first_seen_at)
         VALUES ($1, gen_random_uuid(), $2, now(), $3) RETURNING id`,
        [fx.workspaceId, name, new Date(firstSeen)],
      )
    )[0]!.id;
  const session = (playerId: string, start: number, last: number) =>
    ctx.db.query(
      `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version,
         game_version, started_at, last_seen_at)
       VALUES ($1, $2, gen_random_uuid(), $3, $4, '1', '1.21', $5, $6)`,
      [fx.workspaceId, playerId, fx.serverId, fx.seasonId, new Date(start), new Date(last)],
    );
  const overview = () => diagnostics.activity(fx.workspaceId, {});
  const truth = async () =>
    (await activity(ctx.db, fx.workspaceId, new Date(Math.floor((now - 24 * H) / H) * H), new Date(now), 'hour')).map(
      (r) => ({ ...r, at: new Date(r.at).toISOString() }),
    );

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services);
    bus = ChangeBus.local();
    diagnostics = new IngestDiagnostics(ctx.db, () => now, bus);
    const a = await player('Early', now - 30 * H);
    const b = await player('Midday', now - 20 * H);
    await session(a, now - 23 * H, now - 20.5 * H);
    await session(b, now - 19.5 * H, now - 2 * H);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('answers as the query over the whole range, and again from kept buckets', async () => {
    const first = await overview();
    expect(first).toHaveLength(25);
    expect(first).toEqual(await truth());
    expect(first.reduce((n, r) => n + r.active_players, 0)).toBeGreaterThan(0);
    expect(await overview()).toEqual(first);
  });

  it('keeps counting the recent buckets, including one that ended less than the sealing delay ago', async () => {
    const c = await player('Recent', now - 0.5 * H);
    // Ended within the last hour, and in the bucket that ended a few minutes ago.
    await session(c, now - 40 * 60_000, now - 35 * 60_000);
    const rows = await overview();
    expect(rows).toEqual(await truth());
    expect(rows.at(-2)!.active_players).toBe(1);
    expect(rows.at(-1)!.new_players + rows.at(-2)!.new_players).toBe(1);
  });

  it('moves on with the clock: new buckets appear, old ones leave, the answer stays exact', async () => {
    now += 3 * H + ACTIVITY_SEALED_AFTER_MS;
    const d = await player('Later', now - 10 * 60_000);
    await session(d, now - 10 * 60_000, now);
    expect(await overview()).toEqual(await truth());
  });

  it('reads kept buckets again after an import (players of the whole workspace changed)', async () => {
    // A player first seen long ago appears (as an import adds them) in a bucket already kept.
    await player('Imported', now - 15 * H);
    const stale = await overview();
    expect(stale.reduce((n, r) => n + r.new_players, 0)).toBe(
      (await truth()).reduce((n, r) => n + r.new_players, 0) - 1,
    );
    bus.applyLocal({ topic: 'player', workspaceId: fx.workspaceId });
    expect(await overview()).toEqual(await truth());
  });

  it('reads kept buckets again when the change bus was unhealthy (a change may have been missed)', async () => {
    const e = await player('Missed', now - 12 * H);
    await session(e, now - 12 * H, now - 11 * H);
    bus.applyLocal({ topic: 'player', workspaceId: fx.workspaceId, players: [] }); // a rename: buckets are kept
    expect(await overview()).not.toEqual(await truth());
    (bus as unknown as { emitter: { emit(e: string, c: null): void } }).emitter.emit('change', null);
    expect(await overview()).toEqual(await truth());
  });

  it('shares one read among concurrent requests for the same buckets', async () => {
    now += H;
    const answers = await Promise.all(Array.from({ length: 8 }, () => overview()));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]).toEqual(await truth());
  });
});
