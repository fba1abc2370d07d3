import { isoText } from '#src/db/iso-text.ts';
import type { Queryable } from '#src/db/types.ts';
import type { Interval } from '#src/lib/time-buckets.ts';
import { type PlayerRow, valuesAggregate } from '#src/modules/players/repo.ts';

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
    /** Null: the network totals; else only these servers' values, summed (see `readServersHistory`). */
    servers?: readonly string[] | null;
  },
): Promise<HistoryRead | null> {
  if (q.servers) return readServersHistory(db, { ...q, servers: q.servers });
  const c = q.column ?? 'value';
  const rows = await db.query<HistoryRow>(
    statement(`history|${c}`, () => networkHistorySql(c)),
    networkParams(q),
  );
  return toHistoryRead(rows[0]);
}

/** Statements by name, each made once (a text made per read costs its making, and `pg`'s lookup by text). */
const statements = new Map<string, string>();

function statement(name: string, make: () => string): string {
  let text = statements.get(name);
  if (text === undefined) {
    text = make();
    statements.set(name, text);
  }
  return text;
}

/** The parameters of `networkHistorySql` (times as ISO 8601 text: `pg`'s own writing of a Date costs more). */
function networkParams(q: Omit<Parameters<typeof readHistory>[1], 'servers'>): unknown[] {
  return [q.workspaceId, q.uuid, q.seasonId, q.statId, q.from.toISOString(), q.to.toISOString(), q.interval];
}

/**
 * The statement of `readHistory` for the network totals: $1 workspace, $2 the player's UUID, $3 season, $4
 * statistic, $5 from, $6 to, $7 interval.
 */
function networkHistorySql(c: 'value' | 'gain'): string {
  const point = pointOf(c);
  const ofPlayer = (range: string) => `player_id = (SELECT id FROM p) AND season_id = $3 AND stat_id = $4 AND ${range}`;
  return `WITH p AS (
       SELECT id, uuid, username, public FROM players WHERE workspace_id = $1 AND uuid = $2
     ), cur AS (
       SELECT observed_at, ${c} AS value FROM player_stats
       WHERE season_id = $3 AND stat_id = $4 AND player_id = (SELECT id FROM p)
     ), points AS (
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
       least(
         (SELECT min(at) FROM stat_history WHERE ${ofPlayer('at >= $6')}),
         (SELECT observed_at FROM cur WHERE observed_at >= $6)) AS next
     FROM p`;
}

/** A history point's value: in a season that counts gains its gain (a point from before gains were kept: its value). */
function pointOf(c: 'value' | 'gain'): string {
  return c === 'gain' ? 'coalesce(gain, value)' : 'value';
}

/**
 * What a public player page reads (see `readPageValues`): the player, every value of the player in the season as
 * `playerWithValues` reads them, and the raw parts of one statistic's points around [from, to), which the caller
 * puts into buckets as `readHistory` does (see `history/service.pagePoints`).
 */
export interface PageValuesRead {
  player: PlayerRow;
  /** The values text of `PlayerValuesRow`. */
  playerValues: string | null;
  /** The statistic's history points in [from, to), oldest first: each its time (ms since the epoch), then its value. */
  points: number[];
  /** The value of the statistic's last history point before `from` (null: none). */
  before: number | null;
  /** The statistic's current value and its observation (ms since the epoch, rounded down); null: no value. */
  current: { at: number; value: number } | null;
}

/**
 * A public player page's read in ONE statement: the player by UUID, its values in the season (one scan of the
 * player's rows, which yields the charted statistic's current value too) and the charted statistic's history
 * points in [from, to) and the last one before (two probes of `stat_history`'s key), left raw: no buckets, arrays
 * or dates made by the database (which, with the common table expressions they took, cost it twice the API's read
 * of the same values). $1 workspace, $2 the player's UUID, $3 season, $4 statistic, $5 from, $6 to. Null: no such
 * player in the workspace.
 */
export async function readPageValues(
  db: Queryable,
  q: Omit<Parameters<typeof readHistory>[1], 'servers' | 'interval'>,
): Promise<PageValuesRead | null> {
  const c = q.column ?? 'value';
  const rows = await db.query<PageValuesRow>(
    statement(`page|${c}`, () => pageValuesSql(c)),
    [q.workspaceId, q.uuid, q.seasonId, q.statId, q.from.toISOString(), q.to.toISOString()],
  );
  const r = rows[0];
  if (!r) return null;
  const points: number[] = [];
  if (r.points !== null) for (const part of r.points.split(' ')) points.push(Number(part));
  return {
    player: { id: r.id, uuid: r.uuid, username: r.username, public: r.public },
    playerValues: r.player_values,
    points,
    before: r.before,
    current: r.cur_at === null || r.cur_value === null ? null : { at: Number(r.cur_at), value: r.cur_value },
  };
}

type PageValuesRow = PlayerRow & {
  player_values: string | null;
  /** Milliseconds since the epoch (int8, as text). */
  cur_at: string | null;
  cur_value: number | null;
  /** `ms value` of each point, separated by spaces. */
  points: string | null;
  before: number | null;
};

function pageValuesSql(c: 'value' | 'gain'): string {
  const point = pointOf(c);
  const ofPlayer = 'h.player_id = p.id AND h.season_id = $3 AND h.stat_id = $4';
  return `SELECT p.id, p.uuid, p.username, p.public, v.player_values, v.cur_at, v.cur_value,
       (SELECT string_agg(floor(extract(epoch FROM h.at) * 1000)::int8::text || ' ' || (${point})::text, ' '
          ORDER BY h.at)
        FROM stat_history h WHERE ${ofPlayer} AND h.at >= $5 AND h.at < $6) AS points,
       (SELECT ${point} FROM stat_history h WHERE ${ofPlayer} AND h.at < $5 ORDER BY h.at DESC LIMIT 1) AS before
     FROM players p CROSS JOIN LATERAL (
       SELECT ${valuesAggregate(c)} AS player_values,
         floor(extract(epoch FROM max(s.observed_at) FILTER (WHERE s.stat_id = $4)) * 1000)::int8::text AS cur_at,
         max(s.${c}) FILTER (WHERE s.stat_id = $4) AS cur_value
       FROM player_stats s WHERE s.season_id = $3 AND s.player_id = p.id
     ) v
     WHERE p.workspace_id = $1 AND p.uuid = $2`;
}

/**
 * `readHistory` of some servers' values, summed (`server=`, a key restricted to servers), in one statement. When no
 * other server holds a value of the statistic (one server, or a player who plays on these servers only), their
 * history is the network's (kept since before values were kept per server); else each server's history
 * (`server_stat_history`) and current value, and at the end of each bucket the sum of each server's last value up
 * to it. `next` is always null: these answers are never kept.
 */
async function readServersHistory(
  db: Queryable,
  q: Parameters<typeof readHistory>[1] & { servers: readonly string[] },
): Promise<HistoryRead | null> {
  const c = q.column ?? 'value';
  const point = pointOf(c);
  const ofPlayer = 'player_id = (SELECT id FROM p) AND season_id = $3 AND stat_id = $4 AND at < $6';
  const rows = await db.query<HistoryRow>(
    `WITH p AS (
       SELECT id, uuid, username, public FROM players WHERE workspace_id = $1 AND uuid = $2
     ), sv AS (
       SELECT server_id, observed_at, ${c} AS value FROM server_stats
       WHERE season_id = $3 AND stat_id = $4 AND player_id = (SELECT id FROM p) AND server_id = ANY($8::uuid[])
     ), alone AS (
       SELECT EXISTS (SELECT 1 FROM sv) AND NOT EXISTS (
         SELECT 1 FROM server_stats o WHERE o.player_id = (SELECT id FROM p) AND o.season_id = $3 AND o.stat_id = $4
           AND o.server_id <> ALL($8::uuid[])) AS v
     ), points AS (
       -- Series s: the network's (null) when alone, else each server's; src 1: a current value.
       SELECT NULL::uuid AS s, at, ${point} AS value, 0 AS src FROM stat_history
       WHERE (SELECT v FROM alone) AND ${ofPlayer}
       UNION ALL
       SELECT NULL::uuid, max(date_trunc('hour', observed_at, 'UTC')), sum(value), 1 FROM sv
       WHERE (SELECT v FROM alone) AND observed_at < $6 HAVING count(*) > 0
       UNION ALL
       SELECT server_id, at, ${point}, 0 FROM server_stat_history
       WHERE NOT (SELECT v FROM alone) AND server_id = ANY($8::uuid[]) AND ${ofPlayer}
       UNION ALL
       SELECT server_id, date_trunc('hour', observed_at, 'UTC'), value, 1 FROM sv
       WHERE NOT (SELECT v FROM alone) AND observed_at < $6
     ), per AS (
       -- Each series' value at the end of each bucket it has a point in (those before from: one bucket, -infinity).
       SELECT DISTINCT ON (s, b) s, b, value FROM (
         SELECT s, CASE WHEN at < $5 THEN '-infinity'::timestamptz ELSE date_trunc($7, at, 'UTC') END AS b, value, src,
           at
         FROM points
       ) x
       ORDER BY s, b, src DESC, at DESC
     ), sums AS (
       SELECT k.b, sum(l.value) AS value
       FROM (SELECT DISTINCT b FROM per) k
       CROSS JOIN LATERAL (SELECT DISTINCT ON (s) value FROM per WHERE per.b <= k.b ORDER BY s, b DESC) l
       GROUP BY k.b
     )
     SELECT p.id, p.uuid, p.username, p.public,
       (SELECT value FROM sums WHERE b = '-infinity'::timestamptz) AS before,
       (SELECT array_agg(${isoText('b')} ORDER BY b) FROM sums WHERE b > '-infinity'::timestamptz) AS bucket_at,
       (SELECT array_agg(value ORDER BY b) FROM sums WHERE b > '-infinity'::timestamptz) AS bucket_values,
       NULL::timestamptz AS next
     FROM p`,
    [q.workspaceId, q.uuid, q.seasonId, q.statId, q.from, q.to, q.interval, q.servers],
  );
  return toHistoryRead(rows[0]);
}

type HistoryRow = PlayerRow & {
  before: number | null;
  bucket_at: string[] | null;
  bucket_values: number[] | null;
  next: Date | null;
};

function toHistoryRead(r: HistoryRow | undefined): HistoryRead | null {
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

/** The first point (the network's or a server's) at or after `from` (where the next fold starts), or null. */
export async function firstPointFrom(db: Queryable, from: Date): Promise<Date | null> {
  const rows = await db.query<{ at: Date | null }>(
    `SELECT least((SELECT at FROM stat_history WHERE at >= $1 ORDER BY at LIMIT 1),
       (SELECT at FROM server_stat_history WHERE at >= $1 ORDER BY at LIMIT 1)) AS at`,
    [from],
  );
  return rows[0]?.at ?? null;
}

/**
 * Keeps only the last point of each (player, season, statistic, UTC day) in [from, to), of the network's history
 * and of each server's; returns how many went.
 */
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
     ), server_last AS (
       SELECT player_id, season_id, stat_id, server_id, date_trunc('day', at, 'UTC') AS day, max(at) AS at
       FROM server_stat_history WHERE at >= $1 AND at < $2
       GROUP BY 1, 2, 3, 4, 5
     ), server_gone AS (
       DELETE FROM server_stat_history h USING server_last l
       WHERE h.at >= $1 AND h.at < $2 AND h.player_id = l.player_id AND h.season_id = l.season_id
         AND h.stat_id = l.stat_id AND h.server_id = l.server_id AND date_trunc('day', h.at, 'UTC') = l.day
         AND h.at < l.at
       RETURNING 1
     )
     SELECT ((SELECT count(*) FROM gone) + (SELECT count(*) FROM server_gone))::int AS n`,
    [from, to],
  );
  return rows[0]?.n ?? 0;
}
