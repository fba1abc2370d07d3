import type { Queryable } from '#src/db/types.ts';

export interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  /** The workspace the session acts in, as chosen (null: the user's oldest membership). */
  workspace_id: string | null;
}

/** A new session starts in the workspace its user chose last (null when none was chosen). */
export async function insertSession(
  db: Queryable,
  s: { idHash: string; userId: string; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO admin_sessions (id_hash, user_id, created_at, last_seen_at, expires_at, workspace_id)
     SELECT $1, $2, $3, $3, $4, u.last_workspace_id FROM users u WHERE u.id = $2`,
    [s.idHash, s.userId, s.at, s.expiresAt],
  );
}

export async function findSession(db: Queryable, idHash: string): Promise<SessionRow | null> {
  const rows = await db.query<SessionRow>(
    'SELECT id_hash, user_id, created_at, last_seen_at, expires_at, workspace_id FROM admin_sessions WHERE id_hash = $1',
    [idHash],
  );
  return rows[0] ?? null;
}

export async function touchSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at < $2', [idHash, at]);
}

/** Records the session's choice of workspace, and makes it the user's last choice (where new sessions start). */
export async function chooseWorkspace(
  db: Queryable,
  idHash: string,
  userId: string,
  workspaceId: string,
): Promise<void> {
  await db.query('UPDATE admin_sessions SET workspace_id = $2 WHERE id_hash = $1', [idHash, workspaceId]);
  await db.query('UPDATE users SET last_workspace_id = $2 WHERE id = $1', [userId, workspaceId]);
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE id_hash = $1', [idHash]);
}

/** Removes sessions that ended: past their absolute expiry or idle since `idleBefore`. */
export async function deleteExpired(db: Queryable, now: Date, idleBefore: Date): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleBefore]);
}

export interface LoginStateRow {
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: Date;
}

export async function insertLoginState(
  db: Queryable,
  s: { idHash: string; state: string; nonce: string; codeVerifier: string; returnTo: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO login_states (id_hash, state, nonce, code_verifier, return_to, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [s.idHash, s.state, s.nonce, s.codeVerifier, s.returnTo, s.expiresAt],
  );
}

/** Deletes and returns a pending login: each is used once. */
export async function takeLoginState(db: Queryable, idHash: string): Promise<LoginStateRow | null> {
  const rows = await db.query<LoginStateRow>(
    'DELETE FROM login_states WHERE id_hash = $1 RETURNING state, nonce, code_verifier, return_to, expires_at',
    [idHash],
  );
  return rows[0] ?? null;
}

export async function deleteExpiredLoginStates(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM login_states WHERE expires_at <= $1', [now]);
}
