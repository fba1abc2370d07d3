import type { Queryable } from '#src/db/types.ts';
import type { KeyType } from './token.ts';

/** What verifying a token reads of a key: no name, description or times that only the admin list shows. */
export interface VerifiableKeyRow {
  id: string;
  workspace_id: string;
  type: KeyType;
  secret_hash: string;
  enabled: boolean;
  scopes: string[];
  player_restrictions: string[];
  server_restrictions: string[];
  season_restrictions: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

export async function findVerifiableKey(db: Queryable, id: string): Promise<VerifiableKeyRow | null> {
  const rows = await db.query<VerifiableKeyRow>(
    `SELECT id, workspace_id, type, secret_hash, enabled, scopes, player_restrictions, server_restrictions,
       season_restrictions, expires_at, revoked_at
     FROM api_keys WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Writes the collected last-use times in one statement; an older time never replaces a newer one. */
export async function touchKeys(db: Queryable, ids: string[], times: Date[]): Promise<void> {
  await db.query(
    `UPDATE api_keys k SET last_used_at = v.t
     FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t)
     WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.t)`,
    [ids, times],
  );
}
