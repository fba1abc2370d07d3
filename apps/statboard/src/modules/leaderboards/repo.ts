import { numberArray } from '#src/db/array-literal.ts';
import { microsSql } from '#src/db/iso-text.ts';
import type { Db, Queryable } from '#src/db/types.ts';

export interface DefinitionRow {
  id: string;
  key: string;
  public: boolean;
  sort_order: 'asc' | 'desc';
}

export async function findDefinition(db: Queryable, workspaceId: string, key: string): Promise<DefinitionRow | null> {
  const rows = await db.query<DefinitionRow>(
    'SELECT id, key, public, sort_order FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
    [workspaceId, key],
  );
  return rows[0] ?? null;
}

/**
 * Which column of `player_stats` a board ranks: `value` (the season's scoring is `absolute`) or `gain` (`gains`);
 * each has its board index (`player_stats_top_idx`, `player_stats_gain_idx`).
 */
export type Column = 'value' | 'gain';

/**
 * The leaderboard's order, for `player_stats s JOIN players p`: the value in the statistic's order, ties to the
 * earlier `updated_at`, then the lower player UUID. Every query that ranks uses it.
 */
export function rankOrder(order: 'asc' | 'desc', column: Column = 'value'): string {
  return `s.${column} ${order === 'asc' ? 'ASC' : 'DESC'}, s.updated_at ASC, p.uuid ASC`;
}

export interface RankedRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
  value: number;
  updated_at: Date;
}

/**
 * The top `limit` public values of a statistic in a season, in the definition's order; ties go to the
 * earlier `updated_at`, then the lower player UUID. Served by `player_stats_rank_idx`.
 */
export function topValues(
  db: Queryable,
  q: {
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    onlyUuids: readonly string[] | null;
    limit: number;
    column?: Column;
    /** One server's board (`server_stats_top_idx`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<RankedRow[]> {
  const c = q.column ?? 'value';
  return db.query<RankedRow>(
    `SELECT p.id, p.uuid, p.username, p.public, s.${c} AS value, s.updated_at
     FROM ${statsTable(q.serverId)} s JOIN players p ON p.id = s.player_id
     WHERE s.season_id = $1 AND s.stat_id = $2 AND p.public AND ($3::uuid[] IS NULL OR p.uuid = ANY($3::uuid[]))
       ${q.serverId ? `AND s.server_id = $5 AND ${SERVER_BOARD}` : ''}
     ORDER BY ${rankOrder(q.order, c)}
     LIMIT $4`,
    [q.seasonId, q.statId, q.onlyUuids, q.limit, ...(q.serverId ? [q.serverId] : [])],
  );
}

/** The table a board's values are in: one server's (`server_stats`) or the network totals (`player_stats`). */
function statsTable(serverId: string | null | undefined): string {
  return serverId ? 'server_stats' : 'player_stats';
}

/**
 * The predicate of `server_stats_top_idx` (always true: `updated_at` is the service's clock), named by the queries
 * that read a server's board in its order, and only by them: a lookup of a player's value on a server by its key
 * cannot be planned on the board index (on tables not analysed yet the planner took it, scanning a server's whole
 * board for each lookup), since it does not name the predicate.
 */
const SERVER_BOARD = "s.updated_at > timestamptz '2000-01-01 00:00:00+00'";

export interface BoardRow {
  /** The player's row id, game UUID and name (the board's entries are answered without another query). */
  id: string;
  uuid: string;
  username: string;
  value: number;
  /** `updated_at` in microseconds since the epoch. */
  at: number;
}

/**
 * The public values of a statistic in a season, unordered (a rank board sorts them), with `updated_at` to the
 * microsecond; `onlyUuids`: only those players'. Served by `player_stats_rank_idx` (and the primary key of players).
 */
export function boardEntries(
  db: Queryable,
  q: {
    seasonId: string;
    statId: string;
    onlyUuids: readonly string[] | null;
    column?: Column;
    /** One server's board (`server_stats`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<BoardRow[]> {
  return db.query<BoardRow>(
    `SELECT p.id, p.uuid::text AS uuid, p.username, s.${q.column ?? 'value'} AS value, ${microsSql('s.updated_at')} AS at
     FROM ${statsTable(q.serverId)} s JOIN players p ON p.id = s.player_id
     WHERE s.season_id = $1 AND s.stat_id = $2 AND p.public AND ($3::uuid[] IS NULL OR p.uuid = ANY($3::uuid[]))
       ${q.serverId ? 'AND s.server_id = $4' : ''}`,
    [q.seasonId, q.statId, q.onlyUuids, ...(q.serverId ? [q.serverId] : [])],
  );
}

/**
 * The public values of a statistic in a season summed over some servers (a read by `server=`, or by a key
 * restricted to servers), unordered (a rank board sorts them): each player's values on those servers from
 * `server_stats`, added up at read time; `updated_at` the latest of them. Not served by a board index: it reads
 * every value of the board on those servers.
 */
export function serverBoardEntries(
  db: Queryable,
  q: {
    seasonId: string;
    statId: string;
    servers: readonly string[];
    onlyUuids: readonly string[] | null;
    column?: Column;
  },
): Promise<BoardRow[]> {
  return db.query<BoardRow>(
    `SELECT p.id, p.uuid::text AS uuid, p.username, v.value, ${microsSql('v.updated_at')} AS at
     FROM (
       SELECT player_id, sum(${q.column ?? 'value'}) AS value, max(updated_at) AS updated_at FROM server_stats
       WHERE season_id = $1 AND stat_id = $2 AND server_id = ANY($3::uuid[])
       GROUP BY player_id
     ) v JOIN players p ON p.id = v.player_id
     WHERE p.public AND ($4::uuid[] IS NULL OR p.uuid = ANY($4::uuid[]))`,
    [q.seasonId, q.statId, q.servers, q.onlyUuids],
  );
}

/** How many values a board has, counted up to `cap` (an index-only range scan of at most `cap` entries). */
export async function boardSizeUpTo(
  db: Queryable,
  q: { seasonId: string; statId: string; cap: number; serverId?: string | null },
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${statsTable(q.serverId)}
       WHERE season_id = $1 AND stat_id = $2 ${q.serverId ? 'AND server_id = $4' : ''} LIMIT $3) x`,
    [q.seasonId, q.statId, q.cap, ...(q.serverId ? [q.serverId] : [])],
  );
  return rows[0]?.n ?? 0;
}

/** Players of a workspace (public or not), counted up to `cap`: how large its boards can be at most. */
export async function workspacePlayersUpTo(db: Queryable, workspaceId: string, cap: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM players WHERE workspace_id = $1 LIMIT $2) x',
    [workspaceId, cap],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The competition ranks (one more than the public values strictly better) and their boards' public sizes of a
 * public player's values (`values`: the statistics by id, the player's value of each and its board's order) on a
 * season's network boards, as `rankWindow` counts them: each board counted in one range of its index (every value,
 * and those better than the player's), the hidden players' values (few) looked up by key, counted apart and taken
 * off. Every board is read whole: for small networks (a player's page; bench/site/counted-ranks.ts). The values
 * are the ones the caller read (the page's): a player's other values (thousands, with the game's client) are not
 * read again.
 */
export function valueRanks(
  db: Queryable,
  q: {
    seasonId: string;
    workspaceId: string;
    column: Column;
    values: readonly { statId: string; value: number; order: 'asc' | 'desc' }[];
  },
): Promise<{ stat_id: string; rank: number; total: number }[]> {
  const better = (v: string) => `CASE WHEN x.ascending THEN ${v} < x.v ELSE ${v} > x.v END`;
  // Per statistic, two counts: its board read whole from its index (every value, and those better), and the hidden
  // players' values looked up by key (none, or a few; their ids an array made once).
  const counts = (table: string, extra: string) =>
    `SELECT count(*) AS total, count(*) FILTER (WHERE ${better(`${table}.${q.column}`)}) AS better
       FROM player_stats ${table} WHERE ${table}.season_id = $1 AND ${table}.stat_id = x.id${extra}`;
  return db.query(
    `SELECT x.id::text AS stat_id, (1 + b.better - h.better)::int AS rank, (b.total - h.total)::int AS total
     FROM unnest($3::uuid[], $4::float8[], $5::boolean[]) AS x (id, v, ascending)
     CROSS JOIN LATERAL (${counts('s', '')}) b
     CROSS JOIN LATERAL (${counts(
       'h',
       ' AND h.player_id = ANY(ARRAY(SELECT id FROM players WHERE workspace_id = $2 AND NOT public))',
     )}) h`,
    [
      q.seasonId,
      q.workspaceId,
      q.values.map((v) => v.statId),
      q.values.map((v) => v.value),
      q.values.map((v) => v.order === 'asc'),
    ],
  );
}

export interface RankWindowRow extends BoardRow {
  /** The window's entries in board order; the counts repeat on every row. */
  total: number;
  /** Public values strictly better than the window's first entry's. */
  better: number;
  /** Public values ordered before the window's first entry (its position on the board). */
  position: number;
}

/**
 * The pieces of a board query in one order: `better`/`worse` compare values, `best`/`reverse` sort them.
 * "Before" on a board is a better value, or the same value set earlier, or the same time and a lower UUID:
 * each of those three is a range of `player_stats_top_idx` (season, stat, value, updated_at), so every query
 * below is written as that union of ranges instead of one OR, which no index serves.
 */
function boardSql(order: 'asc' | 'desc', column: Column = 'value', serverParam = 0) {
  const desc = order === 'desc';
  const table = serverParam ? 'server_stats' : 'player_stats';
  const own = `s.season_id = $2 AND s.stat_id = $3${serverParam ? ` AND s.server_id = $${serverParam}` : ''}`;
  // Ranges of the board in its order: a server's name its board index's predicate.
  const ranged = serverParam ? `${own} AND ${SERVER_BOARD}` : own;
  return {
    /** The board's values: the network totals, or one server's (its id the parameter `serverParam`). */
    table,
    /** The condition on `s` that keeps the board's values (a lookup by player: `me`, hidden players). */
    own,
    /** The same, for ranges of the board in its order (served by the board's index). */
    ranged,
    /** The ranked column. */
    v: `s.${column}`,
    better: desc ? '>' : '<',
    worse: desc ? '<' : '>',
    best: desc ? 'DESC' : 'ASC',
    reverse: desc ? 'ASC' : 'DESC',
    /** Public values of the board, joined to their players. */
    board: `${table} s JOIN players p ON p.id = s.player_id WHERE ${ranged} AND p.public`,
    cols: `p.id, p.uuid, p.username, s.${column} AS value, s.updated_at`,
    /** Every value of the board (hidden players' too), from the index alone. */
    values: `${table} s WHERE ${ranged}`,
    /** The hidden players' values of the board (few, by `players_hidden_idx`; the workspace is $1). */
    hiddenValues: `players p JOIN ${table} s ON s.player_id = p.id AND ${own} WHERE p.workspace_id = $1 AND NOT p.public`,
  };
}

/**
 * Counts for the competition ranks of entries that follow `first` (a CTE of one row with value, updated_at,
 * uuid): the hidden players' values (`hidden`, whose `total` the board's public size is taken from), the public values strictly better than `first`'s, and `first`'s position. The
 * board's own counts read the index alone; hidden players' values (few, by `players_hidden_idx`) are counted
 * apart and taken off, and the ties at `first`'s value and time are the only rows joined to their players.
 */
function countsSql(order: 'asc' | 'desc', column: Column = 'value', serverParam = 0): string {
  const q = boardSql(order, column, serverParam);
  // The first entry's value, time and UUID as scalar subqueries: parameters of the index scans below (a join to
  // the CTE would put it on the inner side and scan the board from its end).
  const fv = '(SELECT value FROM first)';
  const fu = '(SELECT updated_at FROM first)';
  const fi = '(SELECT uuid FROM first)';
  return `hidden AS (
       SELECT count(*) AS total,
         count(*) FILTER (WHERE ${q.v} ${q.better} ${fv}) AS better,
         count(*) FILTER (WHERE ${q.v} ${q.better} ${fv} OR (${q.v} = ${fv} AND (s.updated_at < ${fu}
           OR (s.updated_at = ${fu} AND p.uuid < ${fi})))) AS before
       FROM ${q.hiddenValues}
     ), counts AS (
       SELECT (b.n - h.better)::int AS better,
         (b.n + (SELECT count(*) FROM ${q.values} AND ${q.v} = ${fv} AND s.updated_at < ${fu})
           + (SELECT count(*) FROM ${q.table} s JOIN players p ON p.id = s.player_id
              WHERE ${q.ranged} AND ${q.v} = ${fv} AND s.updated_at = ${fu}
                AND p.uuid < ${fi})
           - h.before)::int AS position
       FROM hidden h, (SELECT count(*) AS n FROM ${q.values} AND ${q.v} ${q.better} ${fv}) b
     )`;
}

const AT_MICROS = `${microsSql('w.updated_at')} AS at`;

/**
 * A player's entry with up to `around` entries on each side, in leaderboard order, and the counts that give
 * their competition ranks and the board's size: one statement, for boards not held in memory. The window comes
 * from index ranges next to the player's value; the counts read the index alone, from the top down to the
 * window, and the whole board for the total: their cost grows with the board (about 30 ns per value on this
 * machine's PostgreSQL), which is why boards that fit RANK_CACHE_MB are held in memory. No rows: the player
 * has no public value.
 */
export function rankWindow(
  db: Queryable,
  q: {
    workspaceId: string;
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    uuid: string;
    around: number;
    column?: Column;
    /** One server's board (`server_stats_top_idx`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<RankWindowRow[]> {
  const srv = q.serverId ? 6 : 0;
  const b = boardSql(q.order, q.column, srv);
  return db.query<RankWindowRow>(
    `WITH ${windowSql(q.order, q.column, srv)}, first AS (
       SELECT * FROM win ORDER BY value ${b.best}, updated_at, uuid LIMIT 1
     ), ${countsSql(q.order, q.column, srv)}
     SELECT w.id, w.uuid::text AS uuid, w.username, w.value, ${AT_MICROS}, c.better, c.position,
       ((SELECT count(*) FROM ${b.values}) - h.total)::int AS total
     FROM win w, counts c, hidden h
     ORDER BY w.value ${b.best}, w.updated_at, w.uuid`,
    [q.workspaceId, q.seasonId, q.statId, q.uuid, q.around, ...(q.serverId ? [q.serverId] : [])],
  );
}

/**
 * The window of `rankWindow` alone, without its counts: for a board whose counts are held in memory (a compact
 * board), index ranges next to the player's value, whatever the board's size. No rows: no public value.
 */
export function rankNeighbours(
  db: Queryable,
  q: {
    workspaceId: string;
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    uuid: string;
    around: number;
    column?: Column;
    /** One server's board (`server_stats_top_idx`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<BoardRow[]> {
  const srv = q.serverId ? 6 : 0;
  const b = boardSql(q.order, q.column, srv);
  return db.query<BoardRow>(
    `WITH ${windowSql(q.order, q.column, srv)}
     SELECT w.id, w.uuid::text AS uuid, w.username, w.value, ${AT_MICROS}
     FROM win w ORDER BY w.value ${b.best}, w.updated_at, w.uuid`,
    [q.workspaceId, q.seasonId, q.statId, q.uuid, q.around, ...(q.serverId ? [q.serverId] : [])],
  );
}

/**
 * CTEs \`me\` (the player's public entry, by $4), \`above\`/\`below\` (up to $5 entries each side) and \`win\` (all of
 * them): index ranges next to the player's value.
 */
function windowSql(order: 'asc' | 'desc', column: Column = 'value', serverParam = 0): string {
  const b = boardSql(order, column, serverParam);
  // The player's value, time and UUID as scalar subqueries: parameters of the index ranges (see countsSql).
  const mv = '(SELECT value FROM me)';
  const mu = '(SELECT updated_at FROM me)';
  const mi = '(SELECT uuid FROM me)';
  return `me AS (
       SELECT ${b.cols} FROM players p JOIN ${b.table} s ON s.player_id = p.id AND ${b.own}
       WHERE p.workspace_id = $1 AND p.uuid = $4 AND p.public
     ), above AS (
       SELECT * FROM (
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} = ${mv} AND s.updated_at = ${mu}
           AND p.uuid < ${mi} ORDER BY p.uuid DESC LIMIT $5)
         UNION ALL
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} = ${mv} AND s.updated_at < ${mu}
           ORDER BY s.updated_at DESC FETCH FIRST $5 ROWS WITH TIES)
         UNION ALL
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} ${b.better} ${mv}
           ORDER BY ${b.v} ${b.reverse}, s.updated_at DESC FETCH FIRST $5 ROWS WITH TIES)
       ) x ORDER BY x.value ${b.reverse}, x.updated_at DESC, x.uuid DESC LIMIT $5
     ), below AS (
       SELECT * FROM (
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} = ${mv} AND s.updated_at = ${mu}
           AND p.uuid > ${mi} ORDER BY p.uuid LIMIT $5)
         UNION ALL
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} = ${mv} AND s.updated_at > ${mu}
           ORDER BY s.updated_at FETCH FIRST $5 ROWS WITH TIES)
         UNION ALL
         (SELECT ${b.cols} FROM ${b.board} AND ${b.v} ${b.worse} ${mv}
           ORDER BY ${b.v} ${b.best}, s.updated_at FETCH FIRST $5 ROWS WITH TIES)
       ) x ORDER BY x.value ${b.best}, x.updated_at, x.uuid LIMIT $5
     ), win AS (
       SELECT * FROM above UNION ALL SELECT * FROM me UNION ALL SELECT * FROM below
     )`;
}

/**
 * `limit` entries of a board from position `offset`, in leaderboard order, with the count of public values
 * strictly better than the first one's (its competition rank minus one): for boards not held in memory. The
 * page is read in order from `player_stats_top_idx` past `offset` entries (cost grows with the offset, at most
 * 10,000); only the page's rows come back.
 */
export function boardPage(
  db: Queryable,
  q: {
    workspaceId: string;
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    offset: number;
    limit: number;
    column?: Column;
    /** One server's board (`server_stats_top_idx`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<(BoardRow & { better: number })[]> {
  const srv = q.serverId ? 6 : 0;
  const b = boardSql(q.order, q.column, srv);
  return db.query<BoardRow & { better: number }>(
    `WITH win AS (
       SELECT ${b.cols} FROM ${b.board} ORDER BY ${rankOrder(q.order, q.column)} LIMIT $4 OFFSET $5
     ), first AS (
       SELECT * FROM win ORDER BY value ${b.best}, updated_at, uuid LIMIT 1
     ), ${countsSql(q.order, q.column, srv)}
     SELECT w.id, w.uuid::text AS uuid, w.username, w.value, ${AT_MICROS}, c.better
     FROM win w, counts c
     ORDER BY w.value ${b.best}, w.updated_at, w.uuid`,
    [q.workspaceId, q.seasonId, q.statId, q.limit, q.offset, ...(q.serverId ? [q.serverId] : [])],
  );
}

/**
 * `limit` entries of a board from the `skip`-th public entry (0: the first) whose value is `value`, in leaderboard
 * order: a page whose position a compact board found (the value at that position, and the public values before
 * it: `skip` is the position less the values strictly better). The ties at `value` are ordered by earlier
 * \`updated_at\`, then lower UUID; a tie can hold hundreds of thousands of entries (every player at 0), and
 * skipping `skip` of them row by row (each joined to its player, for its UUID and whether it is public) costs
 * milliseconds per thousand. Instead the skip is found from the index alone: `t`, the \`updated_at\` of the
 * `skip`-th value of the tie counting every player (the public entry sought is that one or a later one, since
 * hidden players' values only push it back), and how many public values come before `t`: the tie's values
 * before it, counted in the index, less the hidden players' among them, whose times the compact board holds
 * (`hiddenAt`, in microseconds). The page is then an index range from `t`, past the few entries between (those
 * at `t` itself, and as many as the hidden players' before it), then the worse values. At a million players, a
 * page 9,000 entries into a tie of 35,000 costs about 4 ms of PostgreSQL (was 180–240 ms).
 */
export function pageFrom(
  db: Queryable,
  q: {
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    value: number;
    skip: number;
    limit: number;
    hiddenAt: readonly number[];
    column?: Column;
    /** One server's board (`server_stats_top_idx`) instead of the network's. */
    serverId?: string | null;
  },
): Promise<BoardRow[]> {
  const b = boardSql(q.order, q.column, q.serverId ? 7 : 0);
  const tie = `${b.values} AND ${b.v} = $1`;
  const t = '(SELECT updated_at FROM t)';
  return db.query<BoardRow>(
    `WITH t AS (
       SELECT s.updated_at FROM ${tie} ORDER BY s.updated_at OFFSET $5 LIMIT 1
     ), before AS (
       SELECT (SELECT count(*) FROM ${tie} AND s.updated_at < ${t})
         - (SELECT count(*) FROM unnest($6::float8[]) AS h(at) WHERE h.at < ${microsSql(t)}) AS n
     )
     SELECT w.id, w.uuid::text AS uuid, w.username, w.value, ${AT_MICROS} FROM (
       (SELECT ${b.cols} FROM ${b.board} AND ${b.v} = $1 AND s.updated_at >= ${t}
         ORDER BY s.updated_at, p.uuid LIMIT $4 OFFSET $5 - (SELECT n FROM before))
       UNION ALL
       (SELECT ${b.cols} FROM ${b.board} AND ${b.v} ${b.worse} $1
         ORDER BY ${b.v} ${b.best}, s.updated_at FETCH FIRST $4 ROWS WITH TIES)
     ) w ORDER BY w.value ${b.best}, w.updated_at, w.uuid LIMIT $4`,
    [q.value, q.seasonId, q.statId, q.limit, q.skip, numberArray(q.hiddenAt), ...(q.serverId ? [q.serverId] : [])],
  );
}

/** Where a page starts on a board, as `pageStart` finds it without a board in memory. */
export interface PageStartRow {
  /** The value at position `at` counting every player's values (hidden players' too). */
  value: number;
  /** Values strictly better than `value`, and equal to it, counting every player's. */
  all_better: number;
  all_at: number;
  /** Hidden players' values strictly better than `value`, and the times (microseconds) of those equal to it. */
  hidden_better: number;
  hidden_at: number[];
}

/**
 * The value at position `at` of a board counting every player (hidden players' too), with the counts that place a
 * public position around it: the values strictly better than it and equal to it, from the board's index alone,
 * and the hidden players' among them (few, by `players_hidden_idx`). A page of a board not held in memory starts
 * from these (see `LeaderboardService.seekPage`) instead of skipping its offset row by row, each row joined to its
 * player: a skip of 10,000 on a board on disk read ~10,000 heap pages (30–300 ms), where the index alone is a few
 * dozen pages. Null: the board has no value at `at`. Boards whose order has no index (one server's gains) are not
 * read here.
 */
export async function pageStart(
  db: Queryable,
  q: {
    workspaceId: string;
    seasonId: string;
    statId: string;
    order: 'asc' | 'desc';
    at: number;
    column?: Column;
    serverId?: string | null;
  },
): Promise<PageStartRow | null> {
  const b = boardSql(q.order, q.column, q.serverId ? 5 : 0);
  // The value as a scalar subquery: a parameter of the index ranges below (see countsSql).
  const av = '(SELECT value FROM a)';
  const rows = await db.query<PageStartRow>(
    `WITH a AS (
       SELECT ${b.v} AS value FROM ${b.values} ORDER BY ${b.v} ${b.best}, s.updated_at OFFSET $4 LIMIT 1
     ), h AS (
       SELECT ${b.v} AS value, s.updated_at FROM ${b.hiddenValues}
     )
     SELECT a.value,
       (SELECT count(*) FROM ${b.values} AND ${b.v} ${b.better} ${av})::int AS all_better,
       (SELECT count(*) FROM ${b.values} AND ${b.v} = ${av})::int AS all_at,
       (SELECT count(*) FROM h WHERE h.value ${b.better} ${av})::int AS hidden_better,
       (SELECT coalesce(array_agg(${microsSql('h.updated_at')}), '{}'::float8[]) FROM h WHERE h.value = ${av}) AS hidden_at
     FROM a`,
    [q.workspaceId, q.seasonId, q.statId, q.at, ...(q.serverId ? [q.serverId] : [])],
  );
  return rows[0] ?? null;
}

/** A hidden player's value on a board: the player's id, the value, its `updated_at` in microseconds. */
export type HiddenValue = [playerId: string, value: number, atMicros: number];

/** Distinct values read per statement of `boardRuns` (~1.5 MB of text each: no large transient buffers). */
const RUNS_CHUNK = 65_536;

/**
 * A board's values for a compact board: its distinct values in ascending order and how many of each (all
 * players'), read from \`player_stats_top_idx\` in chunks of RUNS_CHUNK distinct values, each chunk one row of
 * \`float8send\`/\`int4send\` bytes (one aggregated value instead of a row per value: no text to parse); the
 * hidden players' values (few, by \`players_hidden_idx\`) to take off, each with its player and time (where it
 * stands among the ties, for pages); and the snapshot all of it was read in
 * (the writes it saw are not to be applied to the board again). A board of one chunk is one statement; a larger
 * one is read again in one REPEATABLE READ transaction (one snapshot for every chunk).
 */
export async function boardRuns(
  db: Db,
  q: {
    workspaceId: string;
    seasonId: string;
    statId: string;
    chunk?: number;
    column?: Column;
    serverId?: string | null;
  },
): Promise<{ values: Float64Array; counts: Int32Array; hidden: HiddenValue[]; snapshot: string }> {
  const size = q.chunk ?? RUNS_CHUNK;
  const first = await runsFrom(db, q, null, size, true);
  if (first.values.length < size) return { ...first, hidden: first.hidden!, snapshot: first.snapshot! };
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const head = await runsFrom(tx, q, null, size, true);
    const values = [head.values];
    const counts = [head.counts];
    for (let last = head.values; last.length === size; ) {
      const next = await runsFrom(tx, q, last[size - 1]!, size, false);
      values.push(next.values);
      counts.push(next.counts);
      last = next.values;
    }
    return {
      values: concat(values, Float64Array),
      counts: concat(counts, Int32Array),
      hidden: head.hidden!,
      snapshot: head.snapshot!,
    };
  });
}

/** Up to `size` runs of values above `after` (null: from the lowest); `head`: with the hidden values and snapshot. */
async function runsFrom(
  db: Queryable,
  q: { workspaceId: string; seasonId: string; statId: string; column?: Column; serverId?: string | null },
  after: number | null,
  size: number,
  head: boolean,
): Promise<{ values: Float64Array; counts: Int32Array; hidden: HiddenValue[] | null; snapshot: string | null }> {
  const table = statsTable(q.serverId);
  const c = q.column ?? 'value';
  // One server's board: its id is the last parameter.
  const server = q.serverId ? `AND s.server_id = $${head ? 6 : 5}` : '';
  const srv = q.serverId ? `${server} AND ${SERVER_BOARD}` : '';
  const rows: {
    vals: Uint8Array | null;
    counts: Uint8Array | null;
    hidden: HiddenValue[] | null;
    snapshot: string | null;
  }[] = await db.query(
    `SELECT r.vals, r.counts,
         ${
           head
             ? `pg_current_snapshot()::text AS snapshot,
         (SELECT coalesce(json_agg(json_build_array(p.id, s.${c}, ${microsSql('s.updated_at')})), '[]') FROM players p
          JOIN ${table} s ON s.player_id = p.id AND s.season_id = $1 AND s.stat_id = $2 ${server}
          WHERE p.workspace_id = $5 AND NOT p.public) AS hidden`
             : 'NULL AS snapshot, NULL AS hidden'
         }
       FROM (
         SELECT string_agg(float8send(v), ''::bytea ORDER BY v) AS vals, string_agg(int4send(c), ''::bytea ORDER BY v) AS counts
         FROM (SELECT s.${c} AS v, count(*)::int AS c FROM ${table} s
               WHERE s.season_id = $1 AND s.stat_id = $2 ${srv} AND ($3::float8 IS NULL OR s.${c} > $3)
               GROUP BY s.${c} ORDER BY s.${c} LIMIT $4) x
       ) r`,
    [q.seasonId, q.statId, after, size, ...(head ? [q.workspaceId] : []), ...(q.serverId ? [q.serverId] : [])],
  );
  const r = rows[0];
  const vals = r?.vals ?? new Uint8Array(0);
  const cs = r?.counts ?? new Uint8Array(0);
  const n = vals.length / 8;
  const view = new DataView(vals.buffer, vals.byteOffset, vals.byteLength);
  const cview = new DataView(cs.buffer, cs.byteOffset, cs.byteLength);
  const values = new Float64Array(n);
  const counts = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = view.getFloat64(i * 8);
    counts[i] = cview.getInt32(i * 4);
  }
  return { values, counts, hidden: r?.hidden ?? null, snapshot: r?.snapshot ?? null };
}

function concat<T extends Float64Array | Int32Array>(parts: T[], make: new (n: number) => T): T {
  if (parts.length === 1) return parts[0]!;
  const out = new make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
