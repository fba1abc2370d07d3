import type { Queryable } from '#src/db/types.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  slug: string;
}

/** Inserts a workspace, or returns null when the slug is taken (without an error, so a transaction goes on). */
export async function insertWorkspace(db: Queryable, name: string, slug: string): Promise<WorkspaceRow | null> {
  const rows = await db.query<WorkspaceRow>(
    'INSERT INTO workspaces (name, slug) VALUES ($1, $2) ON CONFLICT (slug) DO NOTHING RETURNING id, name, slug',
    [name, slug],
  );
  return rows[0] ?? null;
}

/** By id (when the reference looks like one) or slug. */
export async function findWorkspace(db: Queryable, ref: string, refIsUuid: boolean): Promise<WorkspaceRow | null> {
  const rows = refIsUuid
    ? await db.query<WorkspaceRow>('SELECT id, name, slug FROM workspaces WHERE id = $1 OR slug = $2', [
        ref.toLowerCase(),
        ref,
      ])
    : await db.query<WorkspaceRow>('SELECT id, name, slug FROM workspaces WHERE slug = $1', [ref]);
  return rows[0] ?? null;
}

export function listWorkspaces(db: Queryable): Promise<WorkspaceRow[]> {
  return db.query<WorkspaceRow>('SELECT id, name, slug FROM workspaces ORDER BY created_at, id');
}

/** Workspaces without an owner (made with the CLI, nobody has redeemed a token for them yet), oldest first. */
export function listWorkspacesWithoutOwner(db: Queryable): Promise<WorkspaceRow[]> {
  return db.query<WorkspaceRow>(
    `SELECT w.id, w.name, w.slug FROM workspaces w
     WHERE NOT EXISTS (SELECT 1 FROM workspace_memberships m WHERE m.workspace_id = w.id AND m.role = 'owner')
     ORDER BY w.created_at, w.id`,
  );
}

export async function countWorkspaces(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces');
  return rows[0]?.n ?? 0;
}
