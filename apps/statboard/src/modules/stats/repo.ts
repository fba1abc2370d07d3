import type { Queryable } from '#src/db/types.ts';
import type { StatUnit } from './schemas.ts';

export interface StatDefinitionRow {
  id: string;
  key: string;
  /** The admin's name and unit; null: the default (stat-defaults.ts). */
  display_name: string | null;
  unit: StatUnit | null;
  category: string | null;
  /** Null: no limit. */
  max_per_hour: number | null;
  public: boolean;
  sort_order: 'asc' | 'desc';
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, key, display_name, unit, category, max_per_hour, public, sort_order, created_at, updated_at';

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
): Promise<Pick<StatDefinitionRow, 'key' | 'display_name' | 'unit' | 'sort_order'>[]> {
  return db.query(
    `SELECT key, display_name, unit, sort_order FROM stat_definitions WHERE workspace_id = $1 AND public
     ORDER BY key COLLATE "C"`,
    [workspaceId],
  );
}

/**
 * Every definition's id, key and visibility, by key (bytewise, as every key listing; the position is that order):
 * what answers of values name their statistics with, joined in memory instead of in each read's SQL.
 */
export function listDefinitionKeys(
  db: Queryable,
  workspaceId: string,
): Promise<Pick<StatDefinitionRow, 'id' | 'key' | 'public'>[]> {
  return db.query(`SELECT id, key, public FROM stat_definitions WHERE workspace_id = $1 ORDER BY key COLLATE "C"`, [
    workspaceId,
  ]);
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

export async function findDefinitionById(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<StatDefinitionRow | null> {
  const rows = await db.query<StatDefinitionRow>(
    `SELECT ${COLUMNS} FROM stat_definitions WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  return rows[0] ?? null;
}

export async function updateDefinition(
  db: Queryable,
  id: string,
  d: {
    public: boolean;
    displayName: string | null;
    unit: StatUnit | null;
    sortOrder: 'asc' | 'desc';
    maxPerHour: number | null;
  },
): Promise<StatDefinitionRow> {
  const rows = await db.query<StatDefinitionRow>(
    `UPDATE stat_definitions SET public = $2, display_name = $3, unit = $4, sort_order = $5, max_per_hour = $6,
       updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, d.public, d.displayName, d.unit, d.sortOrder, d.maxPerHour],
  );
  return rows[0]!;
}
