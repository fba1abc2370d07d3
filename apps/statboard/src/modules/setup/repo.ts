import type { Queryable } from '#src/db/types.ts';

export async function insertToken(
  db: Queryable,
  t: { id: string; tokenHash: string; source: 'env' | 'cli' | 'startup'; expiresAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO bootstrap_tokens (id, token_hash, source, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (token_hash) DO NOTHING`,
    [t.id, t.tokenHash, t.source, t.expiresAt],
  );
}

export async function countUsableTokens(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM bootstrap_tokens WHERE used_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
  );
  return rows[0]?.n ?? 0;
}

/** Marks a usable token used; returns whether it was usable. Single use even under concurrency. */
export async function useToken(tx: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE bootstrap_tokens SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND (expires_at IS NULL OR expires_at > now()) RETURNING id`,
    [tokenHash],
  );
  return rows.length > 0;
}

/** Serialises bootstraps: the second of two concurrent requests sees the first one's workspace. */
export async function lockBootstrap(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(7263012)');
}
