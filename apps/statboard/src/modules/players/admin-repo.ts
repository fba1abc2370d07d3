import type { Queryable } from '#src/db/types.ts';

export interface AdminPlayerRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
  first_seen_at: Date;
  last_seen_at: Date;
}

const COLUMNS = 'id, uuid, username, public, first_seen_at, last_seen_at';

/** `%` and `_` are literal in a search term. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Players of the workspace, public or not, by username; a search matches a username substring or the UUID. */
export function listAllPlayers(
  db: Queryable,
  workspaceId: string,
  search: string | null,
  limit: number,
): Promise<AdminPlayerRow[]> {
  return db.query<AdminPlayerRow>(
    `SELECT ${COLUMNS} FROM players
     WHERE workspace_id = $1 AND ($2::text IS NULL OR username ILIKE $3 OR uuid::text = lower($2))
     ORDER BY lower(username), uuid LIMIT $4`,
    [workspaceId, search, search === null ? null : likePattern(search), limit],
  );
}

/** By internal id or game UUID. */
export async function findPlayer(db: Queryable, workspaceId: string, ref: string): Promise<AdminPlayerRow | null> {
  const rows = await db.query<AdminPlayerRow>(
    `SELECT ${COLUMNS} FROM players WHERE workspace_id = $1 AND (id = $2 OR uuid = $2) ORDER BY (uuid = $2) DESC LIMIT 1`,
    [workspaceId, ref],
  );
  return rows[0] ?? null;
}

export async function setPublic(db: Queryable, id: string, isPublic: boolean): Promise<AdminPlayerRow> {
  const rows = await db.query<AdminPlayerRow>(
    `UPDATE players SET public = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, isPublic],
  );
  return rows[0]!;
}
