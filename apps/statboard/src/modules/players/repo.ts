import type { Queryable } from '#src/db/types.ts';

export interface PlayerRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
}

const COLUMNS = 'p.id, p.uuid, p.username, p.public';

/** The `ILIKE` pattern of a username substring search: `%`, `_` and the backslash are literal in the term. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The query of a page of a list searched with `term`, in `order` (`columns`: of `select`'s, those to return). A term of 3 characters or more has trigrams:
 * its matches are read from `players_username_trgm_idx` and only they are sorted (top-N), the order kept from the
 * planner behind `OFFSET 0`. Without that, the planner may read players in the list's order (from
 * `players_workspace_lower_username_uuid_idx`) and filter them until the page is full, estimating that matches
 * are spread evenly through that order; but the matches of a term mostly sit together in it (names that start
 * with the term), and that scan then reads most players of the workspace. A shorter term has no trigram: every
 * player is a candidate, and the planner's choice stands (usually that ordered scan, which stops at the page).
 */
export function searchPage(select: string, term: string | null, order: string, columns = '*'): string {
  if (term === null || [...term].length < 3) return `${select} ORDER BY ${order}`;
  return `SELECT ${columns} FROM (${select} OFFSET 0) p ORDER BY ${order}`;
}

/**
 * A page of the public players of a workspace by `lower(username), uuid`, and their exact total.
 *
 * Unfiltered, the page is read in order from `players_workspace_lower_username_uuid_idx` (which holds every
 * column of a row), and the total is the workspace's row of `workspace_player_counts`, kept by triggers in the
 * transaction that changes players: one row, however many players. Filtered, the total is counted as before,
 * a count bounded by the filter's candidates: the key's players (`onlyUuids`, the unique (workspace_id, uuid)
 * index), one username (the prefix of the order's index), or the trigram index's rows for a search of 3
 * characters or more. A search of 1 or 2 characters has no trigram, so its count reads every public player of
 * the workspace (as it did before).
 */
export async function listPublicPlayers(
  db: Queryable,
  q: {
    workspaceId: string;
    search: string | null;
    /** Case-insensitive exact username (served by `players_workspace_lower_username_uuid_idx`). */
    username: string | null;
    onlyUuids: readonly string[] | null;
    limit: number;
    offset: number | null;
  },
): Promise<{ rows: PlayerRow[]; total: number }> {
  // Only the conditions that apply, so that each is planned against its index.
  const params: unknown[] = [q.workspaceId];
  const conditions = ['p.workspace_id = $1', 'p.public'];
  if (q.search !== null) {
    params.push(likePattern(q.search));
    conditions.push(`p.username ILIKE $${params.length}`);
  }
  if (q.onlyUuids !== null) {
    params.push(q.onlyUuids);
    conditions.push(`p.uuid = ANY($${params.length}::uuid[])`);
  }
  if (q.username !== null) {
    params.push(q.username);
    conditions.push(`lower(p.username) = lower($${params.length})`);
  }
  const where = conditions.join(' AND ');
  const filtered = params.length > 1;
  const page = searchPage(`SELECT ${COLUMNS} FROM players p WHERE ${where}`, q.search, 'lower(p.username), p.uuid');
  const [count, rows] = await Promise.all([
    filtered
      ? db.query<{ n: number }>(`SELECT count(*)::int AS n FROM players p WHERE ${where}`, params)
      : db.query<{ n: number }>(
          'SELECT public_players::int AS n FROM workspace_player_counts WHERE workspace_id = $1',
          [q.workspaceId],
        ),
    q.offset === null
      ? Promise.resolve([])
      : db.query<PlayerRow>(`${page} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
          ...params,
          q.limit,
          q.offset,
        ]),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

export async function findPlayerByUuid(db: Queryable, workspaceId: string, uuid: string): Promise<PlayerRow | null> {
  const rows = await db.query<PlayerRow>(`SELECT ${COLUMNS} FROM players p WHERE p.workspace_id = $1 AND p.uuid = $2`, [
    workspaceId,
    uuid,
  ]);
  return rows[0] ?? null;
}

/**
 * The values text of `PlayerValuesRow` as an aggregate of rows `s` (`stat_id`, `column`, `updated_at`): for a
 * statement that reads the player's values beside more (a public player page's, `history/repo.readPageValues`).
 */
export function valuesAggregate(column: 'value' | 'gain'): string {
  return `string_agg(s.stat_id::text || ' ' || s.${column}::text || ' '
         || floor(extract(epoch FROM s.updated_at) * 1000)::int8::text, ' ')`;
}

/** The values text of `PlayerValuesRow` as a subquery, from `source` (rows `s` of the player `p`). */
function valuesText(column: 'value' | 'gain', source: string): string {
  return `(SELECT ${valuesAggregate(column)}
       FROM ${source})`;
}

/**
 * The values text of `PlayerValuesRow` (the network totals) as a subquery of a statement that has the player as
 * `p` and the season as `$3`: how `playerWithValues` reads them.
 */
function networkValuesSql(column: 'value' | 'gain'): string {
  return valuesText(column, 'player_stats s WHERE s.season_id = $3 AND s.player_id = p.id');
}

/** A player and its values in a season (see `playerWithValues`). */
export interface PlayerValuesRow extends PlayerRow {
  /**
   * The values, `stat id, value, updated_at` each (the value as PostgreSQL writes a float8, which is how JSON
   * has it; `updated_at` in whole milliseconds since the epoch, rounded down), separated by spaces; null: none.
   */
  values: string | null;
}

/**
 * A player and its values in a season in ONE round trip (null: no such player), every value of the player,
 * public or not, in no order: the rows are read by (player, season) from `player_stats_player_idx` (or, for
 * some servers, `server_stats_player_idx`) and nothing else is joined; the keys, their visibility and their order
 * are the caller's (the definitions, kept in memory). The values come back as one text rather than a row each,
 * which costs PostgreSQL and `pg` far less than 100 rows, or than JSON built by the database.
 */
export async function playerWithValues(
  db: Queryable,
  workspaceId: string,
  uuid: string,
  seasonId: string,
  /** `value`, or `gain` for a season that counts gains. */
  column: 'value' | 'gain' = 'value',
  /** Null: the network totals (the stored sums); else the sums of these servers' values, made here. */
  servers: readonly string[] | null = null,
): Promise<PlayerValuesRow | null> {
  const values =
    servers === null
      ? networkValuesSql(column)
      : valuesText(
          column,
          `(SELECT stat_id, sum(${column}) AS ${column}, max(updated_at) AS updated_at FROM server_stats
          WHERE season_id = $3 AND player_id = p.id AND server_id = ANY($4::uuid[]) GROUP BY stat_id) s`,
        );
  const rows = await db.query<PlayerValuesRow>(
    `SELECT ${COLUMNS}, ${values} AS values
     FROM players p WHERE p.workspace_id = $1 AND p.uuid = $2`,
    servers === null ? [workspaceId, uuid, seasonId] : [workspaceId, uuid, seasonId, servers],
  );
  return rows[0] ?? null;
}
