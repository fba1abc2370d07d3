import type { Queryable } from '#src/db/types.ts';
import type { Interval } from '#src/lib/time-buckets.ts';

export interface HistoryPointRow {
  at: Date;
  value: number;
}

/**
 * The value at the end of each bucket of [from, to) that holds a point (history points and the current value,
 * the last of its bucket), oldest first, and the value at the end of the last bucket before `from` (null: none).
 */
export async function bucketValues(
  db: Queryable,
  q: {
    playerId: string;
    seasonId: string;
    statId: string;
    from: Date;
    to: Date;
    interval: Interval;
    /** `value`, or `gain` for a season that counts gains. */
    column?: 'value' | 'gain';
    /** Null: the network totals (history is kept for them); else only these servers' current values, summed. */
    servers?: readonly string[] | null;
  },
): Promise<{ before: number | null; buckets: HistoryPointRow[] }> {
  const c = q.column ?? 'value';
  const point = c === 'gain' ? 'coalesce(gain, value)' : 'value';
  const servers = q.servers ?? null;
  // The current value: the network row, or the sum of the servers' rows (observed at the latest of them).
  const current =
    servers === null
      ? `SELECT observed_at, ${c} AS value FROM player_stats WHERE season_id = $2 AND stat_id = $3 AND player_id = $1`
      : `SELECT max(observed_at) AS observed_at, sum(${c}) AS value FROM server_stats
         WHERE season_id = $2 AND stat_id = $3 AND player_id = $1 AND server_id = ANY($7::uuid[]) HAVING count(*) > 0`;
  // History points are the network's: a read of some servers shows their current value alone.
  const history =
    servers === null ? 'stat_history' : '(SELECT NULL::timestamptz AS at, 0::float8 AS value, 0::float8 AS gain) none';
  const rows = await db.query<{ at: Date | null; value: number }>(
    `WITH cur AS (${current}), points AS (
       SELECT at, ${point} AS value, 0 AS src FROM ${history}
       WHERE ${servers === null ? 'player_id = $1 AND season_id = $2 AND stat_id = $3 AND at >= $4 AND at < $5' : 'false'}
       UNION ALL
       SELECT date_trunc('hour', observed_at, 'UTC'), value, 1 FROM cur WHERE observed_at >= $4 AND observed_at < $5
     ), buckets AS (
       SELECT DISTINCT ON (b) date_trunc($6, at, 'UTC') AS b, value FROM points ORDER BY b, src DESC, at DESC
     ), before AS (
       SELECT value FROM (
         (SELECT at, ${point} AS value, 0 AS src FROM ${history}
          WHERE ${servers === null ? 'player_id = $1 AND season_id = $2 AND stat_id = $3 AND at < $4' : 'false'}
          ORDER BY at DESC LIMIT 1)
         UNION ALL
         SELECT observed_at, value, 1 FROM cur WHERE observed_at < $4
       ) p ORDER BY src DESC, at DESC LIMIT 1
     )
     SELECT 0 AS k, NULL::timestamptz AS at, value FROM before
     UNION ALL
     SELECT 1, b, value FROM buckets
     ORDER BY k, at`,
    [q.playerId, q.seasonId, q.statId, q.from, q.to, q.interval, ...(servers === null ? [] : [servers])],
  );
  const first = rows[0];
  const before = first && first.at === null ? first.value : null;
  return { before, buckets: rows.filter((r): r is HistoryPointRow => r.at !== null) };
}

/**
 * When the next point at or after `at` lies (a history point or the current value's observation), or null: an
 * observation may lie ahead of the clock (a client's clock running ahead), and enters "up to now" answers when
 * now passes it.
 */
export async function nextPointAt(
  db: Queryable,
  q: { playerId: string; seasonId: string; statId: string; at: Date },
): Promise<Date | null> {
  const rows = await db.query<{ at: Date | null }>(
    `SELECT least(
       (SELECT min(at) FROM stat_history WHERE player_id = $1 AND season_id = $2 AND stat_id = $3 AND at >= $4),
       (SELECT observed_at FROM player_stats
        WHERE season_id = $2 AND stat_id = $3 AND player_id = $1 AND observed_at >= $4)
     ) AS at`,
    [q.playerId, q.seasonId, q.statId, q.at],
  );
  return rows[0]?.at ?? null;
}

/** The fold's progress (days before it hold one point each; null: none folded yet), locked until commit. */
export async function lockFoldedUntil(tx: Queryable): Promise<Date | null> {
  const rows = await tx.query<{ folded_until: Date | null }>('SELECT folded_until FROM stat_history_fold FOR UPDATE');
  return rows[0]?.folded_until ?? null;
}

export async function setFoldedUntil(tx: Queryable, until: Date): Promise<void> {
  await tx.query('UPDATE stat_history_fold SET folded_until = $1', [until]);
}

/** The first point at or after `from` (where the next fold starts), or null. */
export async function firstPointFrom(db: Queryable, from: Date): Promise<Date | null> {
  const rows = await db.query<{ at: Date }>('SELECT at FROM stat_history WHERE at >= $1 ORDER BY at LIMIT 1', [from]);
  return rows[0]?.at ?? null;
}

/** Keeps only the last point of each (player, season, statistic, UTC day) in [from, to); returns how many went. */
export async function foldDays(tx: Queryable, from: Date, to: Date): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH last AS (
       SELECT player_id, season_id, stat_id, date_trunc('day', at, 'UTC') AS day, max(at) AS at
       FROM stat_history WHERE at >= $1 AND at < $2
       GROUP BY 1, 2, 3, 4
     ), gone AS (
       DELETE FROM stat_history h USING last l
       WHERE h.at >= $1 AND h.at < $2 AND h.player_id = l.player_id AND h.season_id = l.season_id
         AND h.stat_id = l.stat_id AND date_trunc('day', h.at, 'UTC') = l.day AND h.at < l.at
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [from, to],
  );
  return rows[0]?.n ?? 0;
}
