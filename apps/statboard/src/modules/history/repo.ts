import { isoText } from '#src/db/iso-text.ts';
import type { Queryable } from '#src/db/types.ts';
import type { Interval } from '#src/lib/time-buckets.ts';
import type { PlayerRow } from '#src/modules/players/repo.ts';

/** What a history answer is made of, read in one statement (see `readHistory`). */
export interface HistoryRead {
  /** The player with that UUID in the workspace, public or not (the caller applies the visibility rule). */
  player: PlayerRow;
  /** The value at the end of the last bucket before `from` (null: none). */
  before: number | null;
  /** The start of each bucket of [from, to) that holds a point, oldest first, in ISO 8601 UTC with milliseconds. */
  at: string[];
  /** The value at the end of each of those buckets. */
  values: number[];
  /**
   * When the next point at or after `to` lies (a history point or the current value's observation), or null:
   * an observation may lie ahead of the clock (a client's clock running ahead), and enters "up to now" answers
   * when now passes it. Always null for a read of some servers (their answers are never kept).
   */
  next: Date | null;
}

/**
 * A player's history of one statistic in ONE round trip: the player by UUID, the value at the end of each bucket
 * of [from, to) that holds a point (history points and the current value, the last of its bucket), the value
 * before `from`, and when the next point after `to` lies. Null: no player with that UUID in the workspace.
 */
export async function readHistory(
  db: Queryable,
  q: {
    workspaceId: string;
    uuid: string;
    seasonId: string;
    statId: string;
    from: Date;
    to: Date;
    interval: Interval;
    /** `value`, or `gain` for a season that counts gains. */
    column?: 'value' | 'gain';
    /**
     * Null: the network totals (history is kept for them); else only these servers' values, summed: their history
     * when no other server holds a value of the statistic, else their current values alone.
     */
    servers?: readonly string[] | null;
  },
): Promise<HistoryRead | null> {
  const c = q.column ?? 'value';
  const point = c === 'gain' ? 'coalesce(gain, value)' : 'value';
  const servers = q.servers ?? null;
  // The current value: the network row, or the sum of the servers' rows (observed at the latest of them).
  const current =
    servers === null
      ? `SELECT observed_at, ${c} AS value FROM player_stats
         WHERE season_id = $3 AND stat_id = $4 AND player_id = (SELECT id FROM p)`
      : `SELECT max(observed_at) AS observed_at, sum(${c}) AS value FROM server_stats
         WHERE season_id = $3 AND stat_id = $4 AND player_id = (SELECT id FROM p) AND server_id = ANY($8::uuid[])
         HAVING count(*) > 0`;
  // History points are the network's. They are these servers' history too when no other server holds a value of
  // the statistic (one server, or a player who plays on these servers only); else a read of some servers shows
  // their current value alone.
  const ofPlayer = (range: string) =>
    `player_id = (SELECT id FROM p) AND season_id = $3 AND stat_id = $4 AND ${range}${
      servers === null
        ? ''
        : ` AND EXISTS (SELECT 1 FROM cur) AND NOT EXISTS (SELECT 1 FROM server_stats o
             WHERE o.player_id = (SELECT id FROM p) AND o.season_id = $3 AND o.stat_id = $4
               AND o.server_id <> ALL($8::uuid[]))`
    }`;
  const next =
    servers === null
      ? `least(
           (SELECT min(at) FROM stat_history WHERE ${ofPlayer('at >= $6')}),
           (SELECT observed_at FROM cur WHERE observed_at >= $6))`
      : 'NULL::timestamptz';
  const rows = await db.query<
    PlayerRow & {
      before: number | null;
      bucket_at: string[] | null;
      bucket_values: number[] | null;
      next: Date | null;
    }
  >(
    `WITH p AS (
       SELECT id, uuid, username, public FROM players WHERE workspace_id = $1 AND uuid = $2
     ), cur AS (${current}), points AS (
       SELECT at, ${point} AS value, 0 AS src FROM stat_history WHERE ${ofPlayer('at >= $5 AND at < $6')}
       UNION ALL
       SELECT date_trunc('hour', observed_at, 'UTC'), value, 1 FROM cur WHERE observed_at >= $5 AND observed_at < $6
     ), buckets AS (
       SELECT DISTINCT ON (b) date_trunc($7, at, 'UTC') AS b, value FROM points ORDER BY b, src DESC, at DESC
     ), before AS (
       SELECT value FROM (
         (SELECT at, ${point} AS value, 0 AS src FROM stat_history WHERE ${ofPlayer('at < $5')} ORDER BY at DESC LIMIT 1)
         UNION ALL
         SELECT observed_at, value, 1 FROM cur WHERE observed_at < $5
       ) x ORDER BY src DESC, at DESC LIMIT 1
     )
     SELECT p.id, p.uuid, p.username, p.public, (SELECT value FROM before) AS before,
       (SELECT array_agg(${isoText('b')} ORDER BY b) FROM buckets) AS bucket_at,
       (SELECT array_agg(value ORDER BY b) FROM buckets) AS bucket_values,
       ${next} AS next
     FROM p`,
    [q.workspaceId, q.uuid, q.seasonId, q.statId, q.from, q.to, q.interval, ...(servers === null ? [] : [servers])],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    player: { id: r.id, uuid: r.uuid, username: r.username, public: r.public },
    before: r.before,
    at: r.bucket_at ?? [],
    values: r.bucket_values ?? [],
    next: r.next,
  };
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
