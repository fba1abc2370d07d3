import type { Queryable } from '#src/db/types.ts';

export interface PlayerRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
}

const COLUMNS = 'p.id, p.uuid, p.username, p.public';

/** `%` and `_` are literal in a search term. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listPublicPlayers(
  db: Queryable,
  q: {
    workspaceId: string;
    search: string | null;
    /** Case-insensitive exact username (served by `players_workspace_lower_username_idx`). */
    username: string | null;
    onlyUuids: readonly string[] | null;
    limit: number;
    offset: number | null;
  },
): Promise<{ rows: PlayerRow[]; total: number }> {
  const where = `p.workspace_id = $1 AND p.public AND ($2::text IS NULL OR p.username ILIKE $2)
    AND ($3::uuid[] IS NULL OR p.uuid = ANY($3::uuid[])) AND ($4::text IS NULL OR lower(p.username) = lower($4))`;
  const params = [q.workspaceId, q.search === null ? null : likePattern(q.search), q.onlyUuids, q.username];
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM players p WHERE ${where}`, params),
    q.offset === null
      ? Promise.resolve([])
      : db.query<PlayerRow>(
          `SELECT ${COLUMNS} FROM players p WHERE ${where} ORDER BY lower(p.username), p.uuid LIMIT $5 OFFSET $6`,
          [...params, q.limit, q.offset],
        ),
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
 * A player and its public values in a season in ONE round trip, the values rendered by the database as the
 * JSON array of the answer (`[{key, value, updated_at}]`, ISO 8601 UTC with milliseconds). Null: no such player.
 */
export async function playerWithStatsJson(
  db: Queryable,
  workspaceId: string,
  uuid: string,
  seasonId: string,
): Promise<(PlayerRow & { stats: string }) | null> {
  const rows = await db.query<PlayerRow & { stats: string }>(
    `SELECT ${COLUMNS}, (
       SELECT coalesce(json_agg(json_build_object(
           'key', d.key,
           'value', s.value,
           'updated_at', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         ) ORDER BY d.key COLLATE "C"), '[]')::text
       FROM player_stats s JOIN stat_definitions d ON d.id = s.stat_id
       WHERE s.season_id = $3 AND s.player_id = p.id AND d.public
     ) AS stats
     FROM players p WHERE p.workspace_id = $1 AND p.uuid = $2`,
    [workspaceId, uuid, seasonId],
  );
  return rows[0] ?? null;
}
