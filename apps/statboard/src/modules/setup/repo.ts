import type { Queryable } from '#src/db/types.ts';

export async function insertToken(
  db: Queryable,
  t: {
    id: string;
    tokenHash: string;
    source: 'env' | 'cli' | 'startup';
    expiresAt: Date | null;
    workspaceId?: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO bootstrap_tokens (id, token_hash, source, expires_at, workspace_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (token_hash) DO NOTHING`,
    [t.id, t.tokenHash, t.source, t.expiresAt, t.workspaceId ?? null],
  );
}

/** A usable token, locked until the transaction ends (null: unknown, used or expired). */
export async function findUsableToken(
  tx: Queryable,
  tokenHash: string,
): Promise<{ id: string; workspace_id: string | null } | null> {
  const rows = await tx.query<{ id: string; workspace_id: string | null }>(
    `SELECT id, workspace_id FROM bootstrap_tokens
     WHERE token_hash = $1 AND used_at IS NULL AND (expires_at IS NULL OR expires_at > now()) FOR UPDATE`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** Usable tokens: all of them, or those that make their redeemer owner of `workspaceId`. */
export async function countUsableTokens(db: Queryable, workspaceId: string | null = null): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM bootstrap_tokens
     WHERE used_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND ($1::uuid IS NULL OR workspace_id = $1)`,
    [workspaceId],
  );
  return rows[0]?.n ?? 0;
}

/** Marks a token found by `findUsableToken` used. */
export async function useToken(tx: Queryable, id: string): Promise<void> {
  await tx.query('UPDATE bootstrap_tokens SET used_at = now() WHERE id = $1', [id]);
}

/** Serialises bootstraps: the second of two concurrent requests sees the first one's workspace. */
export async function lockBootstrap(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(7263012)');
}
