import type { Queryable } from '#src/db/types.ts';

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
 * The leaderboard's order, for `player_stats s JOIN players p`: the value in the statistic's order, ties to the
 * earlier `updated_at`, then the lower player UUID. Every query that ranks uses it.
 */
export function rankOrder(order: 'asc' | 'desc'): string {
  return `s.value ${order === 'asc' ? 'ASC' : 'DESC'}, s.updated_at ASC, p.uuid ASC`;
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
  q: { seasonId: string; statId: string; order: 'asc' | 'desc'; onlyUuids: readonly string[] | null; limit: number },
): Promise<RankedRow[]> {
  return db.query<RankedRow>(
    `SELECT p.id, p.uuid, p.username, p.public, s.value, s.updated_at
     FROM player_stats s JOIN players p ON p.id = s.player_id
     WHERE s.season_id = $1 AND s.stat_id = $2 AND p.public AND ($3::uuid[] IS NULL OR p.uuid = ANY($3::uuid[]))
     ORDER BY ${rankOrder(q.order)}
     LIMIT $4`,
    [q.seasonId, q.statId, q.onlyUuids, q.limit],
  );
}

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
  q: { seasonId: string; statId: string; onlyUuids: readonly string[] | null },
): Promise<BoardRow[]> {
  return db.query<BoardRow>(
    `SELECT p.id, p.uuid::text AS uuid, p.username, s.value, (extract(epoch FROM s.updated_at) * 1000000)::float8 AS at
     FROM player_stats s JOIN players p ON p.id = s.player_id
     WHERE s.season_id = $1 AND s.stat_id = $2 AND p.public AND ($3::uuid[] IS NULL OR p.uuid = ANY($3::uuid[]))`,
    [q.seasonId, q.statId, q.onlyUuids],
  );
}
