import { isoText } from '#src/db/iso-text.ts';
import type { Queryable } from '#src/db/types.ts';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  type: 'client' | 'website' | 'integration';
  description: string | null;
  secret_hash: string;
  enabled: boolean;
  scopes: string[];
  player_restrictions: string[];
  server_restrictions: string[];
  season_restrictions: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  rotated_from: string | null;
  /** ISO 8601 text (never null, and only shown): not parsed into a `Date` and formatted back for every row. */
  created_at: string;
  updated_at: string;
}

/**
 * The times a key's status depends on stay `Date`s (null, and not parsed, for most keys); the two every key has
 * come as the text the answer shows. (An ORDER BY must name `api_keys.created_at`, the stored time: a bare
 * `created_at` is this text, without the microseconds.)
 */
const COLUMNS = `id, workspace_id, name, type, description, secret_hash, enabled, scopes, player_restrictions,
  server_restrictions, season_restrictions, expires_at, last_used_at, revoked_at, rotated_from,
  ${isoText('created_at')} AS created_at, ${isoText('updated_at')} AS updated_at`;

export interface KeyWrite {
  name: string;
  description: string | null;
  scopes: string[];
  playerRestrictions: string[];
  serverRestrictions: string[];
  seasonRestrictions: string[];
  expiresAt: Date | null;
}

export async function findKey(db: Queryable, workspaceId: string, id: string): Promise<ApiKeyRow | null> {
  const rows = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND workspace_id = $2`, [
    id,
    workspaceId,
  ]);
  return rows[0] ?? null;
}

export function listKeys(db: Queryable, workspaceId: string): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = $1 ORDER BY api_keys.created_at DESC, api_keys.id DESC`,
    [workspaceId],
  );
}

export async function insertKey(
  db: Queryable,
  k: KeyWrite & { id: string; workspaceId: string; type: string; secretHash: string; rotatedFrom: string | null },
): Promise<ApiKeyRow> {
  const rows = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, workspace_id, name, type, description, secret_hash, scopes, player_restrictions,
       server_restrictions, season_restrictions, expires_at, rotated_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8::uuid[], $9::uuid[], $10::uuid[], $11, $12)
     RETURNING ${COLUMNS}`,
    [
      k.id,
      k.workspaceId,
      k.name,
      k.type,
      k.description,
      k.secretHash,
      k.scopes,
      k.playerRestrictions,
      k.serverRestrictions,
      k.seasonRestrictions,
      k.expiresAt,
      k.rotatedFrom,
    ],
  );
  return rows[0]!;
}

export async function updateKey(
  db: Queryable,
  workspaceId: string,
  id: string,
  k: KeyWrite,
): Promise<ApiKeyRow | null> {
  const rows = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET name = $3, description = $4, scopes = $5::text[], player_restrictions = $6::uuid[],
       server_restrictions = $7::uuid[], season_restrictions = $8::uuid[], expires_at = $9, updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [
      id,
      workspaceId,
      k.name,
      k.description,
      k.scopes,
      k.playerRestrictions,
      k.serverRestrictions,
      k.seasonRestrictions,
      k.expiresAt,
    ],
  );
  return rows[0] ?? null;
}

/** Revokes now, or at `at` (a rotation grace window). Keeps an earlier revocation time. */
export async function revokeKey(
  db: Queryable,
  workspaceId: string,
  id: string,
  at: Date | null,
): Promise<ApiKeyRow | null> {
  const rows = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = LEAST(COALESCE(revoked_at, 'infinity'), COALESCE($3::timestamptz, now())),
       enabled = CASE WHEN $3::timestamptz IS NULL THEN false ELSE enabled END, updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [id, workspaceId, at],
  );
  return rows[0] ?? null;
}

/** Which of `ids` are rows of `table` in the workspace. */
export async function existingIds(
  db: Queryable,
  table: 'servers' | 'seasons',
  workspaceId: string,
  ids: string[],
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM ${table} WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
    [workspaceId, ids],
  );
  return rows.map((r) => r.id);
}
