import type { Queryable } from '#src/db/types.ts';

export interface StatDefinitionRow {
  id: string;
  key: string;
  display_name: string | null;
  category: string | null;
  public: boolean;
  sort_order: 'asc' | 'desc';
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, key, display_name, category, public, sort_order, created_at, updated_at';

export function listDefinitions(db: Queryable, workspaceId: string): Promise<StatDefinitionRow[]> {
  return db.query<StatDefinitionRow>(
    `SELECT ${COLUMNS} FROM stat_definitions WHERE workspace_id = $1 ORDER BY key COLLATE "C"`,
    [workspaceId],
  );
}

/** Public definitions for `GET /stats`, by key (bytewise, as every key listing). */
export function listPublicDefinitions(
  db: Queryable,
  workspaceId: string,
): Promise<Pick<StatDefinitionRow, 'key' | 'display_name' | 'sort_order'>[]> {
  return db.query(
    `SELECT key, display_name, sort_order FROM stat_definitions WHERE workspace_id = $1 AND public
     ORDER BY key COLLATE "C"`,
    [workspaceId],
  );
}

export async function findDefinition(
  db: Queryable,
  workspaceId: string,
  key: string,
): Promise<StatDefinitionRow | null> {
  const rows = await db.query<StatDefinitionRow>(
    `SELECT ${COLUMNS} FROM stat_definitions WHERE workspace_id = $1 AND key = $2`,
    [workspaceId, key],
  );
  return rows[0] ?? null;
}

export async function updateDefinition(
  db: Queryable,
  id: string,
  d: { public: boolean; displayName: string | null; sortOrder: 'asc' | 'desc' },
): Promise<StatDefinitionRow> {
  const rows = await db.query<StatDefinitionRow>(
    `UPDATE stat_definitions SET public = $2, display_name = $3, sort_order = $4, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, d.public, d.displayName, d.sortOrder],
  );
  return rows[0]!;
}
