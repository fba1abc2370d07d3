import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '#src/db/migrate.ts';
import type { Db } from '#src/db/types.ts';
import { importFiles } from '#src/modules/import/repo.ts';
import { buildServices } from '#src/services.ts';
import { ACTOR, createTestDb, DB_KIND, type TestDb, testConfig } from '../helpers.ts';

/**
 * Migration 0017 on a database populated as it was before it (values per (season, statistic, player) only): every
 * value is kept, moved to the server it came through, with its baseline and gain.
 */

let t: TestDb;
let db: Db;
const ids: Record<string, string> = {};

async function one<T>(text: string, params: unknown[] = []): Promise<T> {
  return (await db.query<Record<string, T>>(text, params))[0]!.v!;
}

async function player(workspace: string, name: string): Promise<string> {
  return one(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at) VALUES ($1, gen_random_uuid(), $2, now())
     RETURNING id AS v`,
    [workspace, name],
  );
}

async function stat(workspace: string, key: string): Promise<string> {
  return one('INSERT INTO stat_definitions (workspace_id, key) VALUES ($1, $2) RETURNING id AS v', [workspace, key]);
}

async function value(season: string, statId: string, playerId: string, v: number, observedAt: string): Promise<void> {
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
    [season, statId, playerId, v, observedAt],
  );
}

async function session(workspace: string, playerId: string, server: string, season: string, at: string): Promise<void> {
  await db.query(
    `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version, game_version,
       started_at, last_seen_at)
     VALUES ($1, $2, gen_random_uuid(), $3, $4, '1.2.0', '1.21.4', $5, $5)`,
    [workspace, playerId, server, season, at],
  );
}

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  const s = buildServices(db, testConfig());
  // Workspaces, servers and seasons through the service (their schema is unchanged by 0017).
  const net = await s.workspaces.create(ACTOR, { name: 'Network' });
  ids.net = net.id;
  ids.a = (await s.servers.create(ACTOR, net.id, { name: 'A', hostname: 'a.example.com', port: 25565 })).id;
  ids.b = (await s.servers.create(ACTOR, net.id, { name: 'B', hostname: 'b.example.com', port: 25565 })).id;
  ids.s0 = (
    await s.seasons.create(ACTOR, net.id, {
      name: 'Season 0',
      slug: 's0',
      started_at: '2026-01-01T00:00:00Z',
      ended_at: '2026-02-01T00:00:00Z',
    })
  ).id;
  ids.s1 = (
    await s.seasons.create(ACTOR, net.id, { name: 'Season 1', slug: 's1', started_at: '2026-03-01T00:00:00Z' })
  ).id;
  const solo = await s.workspaces.create(ACTOR, { name: 'Solo' });
  ids.solo = solo.id;
  ids.soloServer = (
    await s.servers.create(ACTOR, solo.id, { name: 'Only', hostname: 'solo.example.com', port: 25565 })
  ).id;
  ids.soloSeason = (await s.seasons.create(ACTOR, solo.id, { name: 'One', slug: 'one' })).id;
  const none = await s.workspaces.create(ACTOR, { name: 'No server' });
  ids.none = none.id;
  ids.noneSeason = (await s.seasons.create(ACTOR, none.id, { name: 'One', slug: 'one' })).id;

  // The database as it was before 0017.
  await db.exec(`
    DROP INDEX player_stats_gain_idx;
    ALTER TABLE player_stats DROP COLUMN gain;
    ALTER TABLE player_stats DROP COLUMN replaced_gain;
    ALTER TABLE stat_history DROP COLUMN gain;
    DROP TABLE server_stat_history;
    DROP TABLE server_stats;
    DELETE FROM schema_migrations WHERE name IN ('0017_values_per_server.sql', '0025_server_history.sql');
  `);

  const play = await stat(net.id, 'minecraft.custom:minecraft.play_time');
  ids.play = play;
  // p1 played on B in season 1 (and season 0): its values are B's; season 0's value is season 1's baseline.
  ids.p1 = await player(net.id, 'OnB');
  await session(net.id, ids.p1, ids.b, ids.s1, '2026-03-05T00:00:00Z');
  await value(ids.s0, play, ids.p1, 100, '2026-01-20T00:00:00Z');
  await value(ids.s1, play, ids.p1, 150, '2026-03-05T00:00:00Z');
  // p2's only session is on A, in season 0: its season 1 value is A's; a value below the last season's is a reset.
  ids.p2 = await player(net.id, 'OnA');
  await session(net.id, ids.p2, ids.a, ids.s0, '2026-01-10T00:00:00Z');
  await value(ids.s0, play, ids.p2, 500, '2026-01-10T00:00:00Z');
  await value(ids.s1, play, ids.p2, 40, '2026-03-06T00:00:00Z');
  // p3 has no session (imported): the first registered server's; its first history point is the baseline.
  ids.p3 = await player(net.id, 'Imported');
  await value(ids.s1, play, ids.p3, 25, '2026-03-09T00:00:00Z');
  await db.query(`INSERT INTO stat_history (player_id, season_id, stat_id, at, value) VALUES ($1, $2, $3, $4, 10)`, [
    ids.p3,
    ids.s1,
    play,
    '2026-03-02T00:00:00Z',
  ]);
  // A workspace with one server, and one with none.
  const soloStat = await stat(solo.id, 'x:y');
  ids.q = await player(solo.id, 'Solo');
  await value(ids.soloSeason, soloStat, ids.q, 7, '2026-03-01T00:00:00Z');
  const noneStat = await stat(none.id, 'x:y');
  ids.r = await player(none.id, 'Nowhere');
  await value(ids.noneSeason, noneStat, ids.r, 9, '2026-03-01T00:00:00Z');

  // 0025 (history per server) alters server_stats, which 0017 creates.
  expect((await migrate(db)).applied).toEqual(['0017_values_per_server.sql', '0025_server_history.sql']);
});

afterAll(() => t?.drop());

describe(`migration 0017 on a populated database (${DB_KIND})`, () => {
  it('keeps every value: the network rows are unchanged', async () => {
    const rows = await db.query<{ player_id: string; season_id: string; value: number }>(
      'SELECT player_id, season_id, value FROM player_stats ORDER BY value',
    );
    expect(rows.map((r) => r.value)).toEqual([7, 9, 25, 40, 100, 150, 500]);
  });

  it('moves each value to the server it came through', async () => {
    const rows = await db.query<{ player_id: string; season_id: string; server_id: string; value: number }>(
      'SELECT player_id, season_id, server_id, value FROM server_stats ORDER BY value',
    );
    expect(rows.map((r) => [r.value, r.server_id])).toEqual([
      [7, ids.soloServer], // the workspace's only server
      [25, ids.a], // no session: the first registered server
      [40, ids.a], // the player's latest session in the workspace
      [100, ids.b], // no session in season 0: the latest in the workspace
      [150, ids.b], // the player's latest session in the season
      [500, ids.a],
    ]);
    // A workspace without a server has nowhere to put its values: they stay network values.
    expect(await one('SELECT count(*)::int AS v FROM server_stats WHERE player_id = $1', [ids.r])).toBe(0);
  });

  it('gives them their baselines and gains', async () => {
    const gain = (p: string) =>
      one<number>('SELECT gain AS v FROM player_stats WHERE player_id = $1 AND season_id = $2', [p, ids.s1]);
    expect(await gain(ids.p1!)).toBe(50); // from season 0's 100
    expect(await gain(ids.p2!)).toBe(40); // below season 0's 500: a reset counter, counted from 0
    expect(await gain(ids.p3!)).toBe(15); // from its first history point, 10
    expect(
      await one('SELECT gain AS v FROM stat_history WHERE player_id = $1 AND season_id = $2', [ids.p3, ids.s1]),
    ).toBe(0);
  });

  it('adds later values through another server to the sum, and an unattached network value takes the new one', async () => {
    const s = buildServices(db, testConfig());
    const uuidOf = (p: string) => one<string>('SELECT uuid::text AS v FROM players WHERE id = $1', [p]);
    const at = new Date('2026-03-10T00:00:00Z');
    await importFiles(
      db,
      ids.net!,
      ids.s1!,
      ids.a!,
      [{ uuid: await uuidOf(ids.p1!), username: null, observedAt: at, values: [{ statId: ids.play!, value: 20 }] }],
      true,
    );
    expect(
      await one('SELECT value AS v FROM player_stats WHERE player_id = $1 AND season_id = $2', [ids.p1, ids.s1]),
    ).toBe(170);
    const server = await s.servers.create(ACTOR, ids.none!, {
      name: 'Late',
      hostname: 'late.example.com',
      port: 25565,
    });
    const noneStat = await one<string>('SELECT stat_id AS v FROM player_stats WHERE player_id = $1', [ids.r]);
    await importFiles(
      db,
      ids.none!,
      ids.noneSeason!,
      server.id,
      [{ uuid: await uuidOf(ids.r!), username: null, observedAt: at, values: [{ statId: noneStat, value: 12 }] }],
      true,
    );
    expect(await one('SELECT value AS v FROM player_stats WHERE player_id = $1', [ids.r])).toBe(12);
  });
});
