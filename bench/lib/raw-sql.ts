/**
 * Statements the benchmarks send straight to the database, beside the service: the "raw ceiling" of ingest and
 * the EXPLAIN ANALYZE of a player's values. Each mirrors a statement of the service (named below); they live here
 * because only the benchmarks use them.
 */
import { numberArray, timestampArray, uuidArray } from '../../apps/statboard/src/db/array-literal.ts';
import type { Queryable } from '../../apps/statboard/src/db/types.ts';

export interface StatUpsert {
  seasonId: string;
  statId: string;
  playerId: string;
  value: number;
  observedAt: Date;
}

/**
 * The values alone, in one statement, with the rule of the writer's `writeGroup` (ingest/repo.ts): the stored
 * value follows the latest `observed_at` and `updated_at` moves only when the value changes.
 */
export async function upsertStats(db: Queryable, rows: StatUpsert[]): Promise<void> {
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT s, d, p, v, o, now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::float8[], $5::timestamptz[]) AS t(s, d, p, v, o)
     ON CONFLICT (season_id, stat_id, player_id) DO UPDATE SET
       value = excluded.value,
       observed_at = excluded.observed_at,
       updated_at = CASE WHEN player_stats.value = excluded.value THEN player_stats.updated_at ELSE excluded.updated_at END
     WHERE player_stats.observed_at <= excluded.observed_at
       AND (player_stats.value <> excluded.value OR player_stats.observed_at < excluded.observed_at)`,
    [
      uuidArray(rows.map((r) => r.seasonId)),
      uuidArray(rows.map((r) => r.statId)),
      uuidArray(rows.map((r) => r.playerId)),
      numberArray(rows.map((r) => r.value)),
      timestampArray(rows.map((r) => r.observedAt)),
    ],
  );
}

/** A player's public values in a season, sorted by key: what `GET /players/{uuid}/stats` answers (players/repo.ts `playerWithValues`, keys from the definitions in memory). */
export function playerStats(db: Queryable, seasonId: string, playerId: string): Promise<unknown[]> {
  return db.query(
    `SELECT d.key, s.value, s.updated_at FROM player_stats s JOIN stat_definitions d ON d.id = s.stat_id
     WHERE s.season_id = $1 AND s.player_id = $2 AND d.public ORDER BY d.key COLLATE "C"`,
    [seasonId, playerId],
  );
}

/** The ingest ceiling's own table: a plain table of absolute values, nothing else (no foreign keys, one index). */
export const RAW_TABLE_DDL = `CREATE TABLE IF NOT EXISTS bench_raw_stats (
  player uuid NOT NULL, key text NOT NULL, value float8 NOT NULL, observed_at timestamptz NOT NULL,
  PRIMARY KEY (player, key)
)`;

/**
 * Not the ceiling, a diagnostic beside it: the plain table with the indexes `player_stats` needs (the unique key a
 * board is read by, a player's values, the board's order by value), so that every changed value is a non-HOT
 * update with three index entries, as in the service. It shows how much of the gap to the ceiling is the indexes.
 */
export const RAW_INDEXED_DDL = `CREATE TABLE IF NOT EXISTS bench_raw_indexed (
  player uuid NOT NULL, key text NOT NULL, value float8 NOT NULL, observed_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key, player)
);
CREATE INDEX IF NOT EXISTS bench_raw_indexed_player ON bench_raw_indexed (player);
CREATE INDEX IF NOT EXISTS bench_raw_indexed_top ON bench_raw_indexed (key, value DESC, updated_at)`;

export interface RawValue {
  player: string;
  key: string;
  value: number;
  observedAt: Date;
}

/**
 * The ingest ceiling: one multi-row INSERT per batch into the plain table, keeping the value with the latest
 * observation; what any store of absolute values must do at the least.
 */
export async function upsertRaw(db: Queryable, rows: RawValue[], indexed = false): Promise<void> {
  const values: unknown[] = [];
  const tuples = rows.map((r, i) => {
    values.push(r.player, r.key, r.value, r.observedAt);
    return `($${4 * i + 1}::uuid, $${4 * i + 2}, $${4 * i + 3}::float8, $${4 * i + 4}::timestamptz)`;
  });
  await db.query(
    indexed
      ? `INSERT INTO bench_raw_indexed AS t (player, key, value, observed_at) VALUES ${tuples.join(', ')}
         ON CONFLICT (key, player) DO UPDATE SET value = excluded.value, observed_at = excluded.observed_at,
           updated_at = CASE WHEN t.value = excluded.value THEN t.updated_at ELSE now() END
         WHERE excluded.observed_at >= t.observed_at`
      : `INSERT INTO bench_raw_stats AS t (player, key, value, observed_at) VALUES ${tuples.join(', ')}
         ON CONFLICT (player, key) DO UPDATE SET value = excluded.value, observed_at = excluded.observed_at
         WHERE excluded.observed_at >= t.observed_at`,
    values,
  );
}
