/**
 * The public site benchmarks' data (bench/site/run.ts, bench/site/uncached-ab.ts): players with values of every
 * statistic in the active season, written in SQL as bench:reads seeds, and the site switched on.
 */
import type { Db } from '../../apps/statboard/src/db/types.ts';
import type { BenchWorkspace } from '../lib/statboard.ts';

/** The featured statistics: the first keys of a workspace seeded, the home page's boards. */
export const FEATURED = 3;

/** A workspace's seed: its players and statistics, and how many of a player's values are not 0. */
export interface Seeded {
  ws: BenchWorkspace;
  players: number;
  keys: readonly string[];
  /** Values of a player not 0 (the featured ones always, the rest at random); all of them when it is `keys.length`. */
  nonZero: number;
}

/** `s.players` players and `s.keys` statistics in `s.ws` (no values yet), and its site switched on. */
export async function seedPlayers(db: Db, s: Seeded): Promise<void> {
  await db.query(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
     SELECT $1, gen_random_uuid(), 'Player' || g, now() FROM generate_series(1, $2::int) g`,
    [s.ws.workspaceId, s.players],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category)
     SELECT $1, k, split_part(k, ':', 2) FROM unnest($2::text[]) k`,
    [s.ws.workspaceId, s.keys],
  );
  await db.query(
    `INSERT INTO public_sites (workspace_id, enabled, title, description, featured_stats)
     VALUES ($1, true, 'Bench Club', 'The public site benchmark.', $2)`,
    [s.ws.workspaceId, s.keys.slice(0, FEATURED)],
  );
}

/**
 * The values of every workspace seeded (each player × each statistic in the active season), written with
 * `player_stats`' indexes dropped and built again after.
 */
export async function seedValues(db: Db, all: readonly Seeded[]): Promise<void> {
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = 'player_stats' AND indexname NOT LIKE '%pkey'`,
  );
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  for (const s of all) {
    // Each value past the featured ones is not 0 with this chance.
    const rest = s.keys.length - FEATURED;
    const share = rest > 0 ? Math.max(0, s.nonZero - FEATURED) / rest : 1;
    await db.query(
      `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
       SELECT $1, d.id, p.id,
         CASE WHEN random() < $3 OR d.key = ANY($4::text[]) THEN floor(power(random(), 3) * 1000000) ELSE 0 END,
         now() - random() * interval '30 days', now() - random() * interval '30 days'
       FROM stat_definitions d CROSS JOIN players p WHERE d.workspace_id = $2 AND p.workspace_id = $2`,
      [s.ws.seasonId, s.ws.workspaceId, share, s.keys.slice(0, FEATURED)],
    );
  }
  for (const i of indexes) await db.query(i.def);
  for (const t of ['player_stats', 'players', 'stat_definitions']) await db.query(`VACUUM ANALYZE ${t}`);
  // The seed's gigabytes written out now, not by a checkpoint in the middle of a measured round.
  await db.query('CHECKPOINT');
}
