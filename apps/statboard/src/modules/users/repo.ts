import type { Role } from '#src/access/roles.ts';
import type { Queryable } from '#src/db/types.ts';

export interface UserRow {
  id: string;
  oidc_issuer: string;
  oidc_subject: string;
  email: string | null;
  /** The provider said `email` is verified (OIDC `email_verified`), at the latest login. */
  email_verified: boolean;
  display_name: string;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'u.id, u.oidc_issuer, u.oidc_subject, u.email, u.email_verified, u.display_name, u.last_login_at, u.created_at, ' +
  'u.updated_at';

/**
 * Creates the user of (issuer, subject) or refreshes its email, its verification and name; records the login
 * time. (issuer, subject) alone identifies a user: an email never joins a login to an existing user.
 */
export async function upsertUser(
  db: Queryable,
  u: { issuer: string; subject: string; email: string | null; emailVerified: boolean; displayName: string; at: Date },
): Promise<UserRow> {
  const rows = await db.query<UserRow>(
    `INSERT INTO users AS u (oidc_issuer, oidc_subject, email, email_verified, display_name, last_login_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (oidc_issuer, oidc_subject) DO UPDATE
       SET email = EXCLUDED.email, email_verified = EXCLUDED.email_verified, display_name = EXCLUDED.display_name,
           last_login_at = EXCLUDED.last_login_at, updated_at = now()
     RETURNING ${COLUMNS}`,
    [u.issuer, u.subject, u.email, u.emailVerified, u.displayName, u.at],
  );
  return rows[0]!;
}

export async function findUser(db: Queryable, id: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * The users a workspace may name (`$1`): its members, and users without any membership (newcomers waiting for a
 * role). `$1` null: every user (the operator's CLI).
 */
const REACHABLE = `($1::uuid IS NULL
  OR EXISTS (SELECT 1 FROM workspace_memberships m WHERE m.user_id = u.id AND m.workspace_id = $1)
  OR NOT EXISTS (SELECT 1 FROM workspace_memberships m WHERE m.user_id = u.id))`;

/** The user with this id, when the workspace (null: anyone) may name them. */
export async function findReachableUser(db: Queryable, from: string | null, id: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users u WHERE u.id = $2 AND ${REACHABLE}`, [from, id]);
  return rows[0] ?? null;
}

/**
 * The users the workspace (null: anyone) may name whose provider verified this email (case-insensitive); the
 * oldest first. Unverified emails never match: anyone may claim an address at some providers.
 */
export function findReachableUsersByVerifiedEmail(
  db: Queryable,
  from: string | null,
  email: string,
): Promise<UserRow[]> {
  return db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users u WHERE u.email_verified AND lower(u.email) = lower($2) AND ${REACHABLE}
     ORDER BY u.created_at, u.id`,
    [from, email],
  );
}

/**
 * Locks the user's row until the transaction ends: role changes of one user are serialized, so a workspace's
 * check that a newcomer has no membership still holds when it grants them a role.
 */
export async function lockUser(db: Queryable, id: string): Promise<void> {
  await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [id]);
}

export interface MembershipRow {
  workspace_id: string;
  role: Role;
}

/** The user's membership in `preferred` when they have one there, else their oldest; null without any. */
export async function findMembership(
  db: Queryable,
  userId: string,
  preferred: string | null = null,
): Promise<MembershipRow | null> {
  const rows = await db.query<MembershipRow>(
    `SELECT workspace_id, role FROM workspace_memberships WHERE user_id = $1
     ORDER BY workspace_id = $2::uuid DESC NULLS LAST, created_at, workspace_id LIMIT 1`,
    [userId, preferred],
  );
  return rows[0] ?? null;
}

export interface WorkspaceMembershipRow {
  id: string;
  name: string;
  slug: string;
  role: Role;
}

/** Every workspace the user belongs to, with their role there; the oldest membership first. */
export function listMemberships(db: Queryable, userId: string): Promise<WorkspaceMembershipRow[]> {
  return db.query<WorkspaceMembershipRow>(
    `SELECT w.id, w.name, w.slug, m.role FROM workspace_memberships m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = $1 ORDER BY m.created_at, m.workspace_id`,
    [userId],
  );
}

export async function findRole(db: Queryable, workspaceId: string, userId: string): Promise<Role | null> {
  const rows = await db.query<{ role: Role }>(
    'SELECT role FROM workspace_memberships WHERE workspace_id = $1 AND user_id = $2',
    [workspaceId, userId],
  );
  return rows[0]?.role ?? null;
}

export interface UserWithRoleRow extends UserRow {
  role: Role | null;
}

/** The members of this workspace, with their roles (users of other workspaces are not shown). */
export function listUsers(db: Queryable, workspaceId: string): Promise<UserWithRoleRow[]> {
  return db.query<UserWithRoleRow>(
    `SELECT ${COLUMNS}, m.role FROM users u
     JOIN workspace_memberships m ON m.user_id = u.id AND m.workspace_id = $1
     ORDER BY u.created_at, u.id`,
    [workspaceId],
  );
}

export async function setRole(db: Queryable, workspaceId: string, userId: string, role: Role): Promise<void> {
  await db.query(
    `INSERT INTO workspace_memberships (workspace_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role, updated_at = now()`,
    [workspaceId, userId, role],
  );
}

export async function removeMembership(db: Queryable, workspaceId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM workspace_memberships WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId]);
}

/** Owners of the workspace, their rows locked so two concurrent demotions cannot both pass the last-owner check. */
export async function lockOwners(db: Queryable, workspaceId: string): Promise<string[]> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id FROM workspace_memberships WHERE workspace_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    [workspaceId],
  );
  return rows.map((r) => r.user_id);
}
