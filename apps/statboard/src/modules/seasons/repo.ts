import type { Queryable } from '#src/db/types.ts';

export interface SeasonRow {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  active: boolean;
  started_at: Date | null;
  ended_at: Date | null;
}

const COLUMNS = 'id, workspace_id, name, slug, active, started_at, ended_at';

export async function insertSeason(
  db: Queryable,
  workspaceId: string,
  s: { name: string; slug: string; startedAt: Date | null; endedAt: Date | null },
): Promise<SeasonRow> {
  const rows = await db.query<SeasonRow>(
    `INSERT INTO seasons (workspace_id, name, slug, started_at, ended_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [workspaceId, s.name, s.slug, s.startedAt, s.endedAt],
  );
  return rows[0]!;
}

/** By id (when the reference looks like one) or slug; an id match wins over a slug match. */
export async function findSeason(
  db: Queryable,
  workspaceId: string,
  ref: string,
  refIsUuid: boolean,
): Promise<SeasonRow | null> {
  const rows = refIsUuid
    ? await db.query<SeasonRow>(
        `SELECT ${COLUMNS} FROM seasons WHERE workspace_id = $1 AND (id = $2::uuid OR slug = $3)
         ORDER BY (id = $2::uuid) DESC LIMIT 1`,
        [workspaceId, ref.toLowerCase(), ref],
      )
    : await db.query<SeasonRow>(`SELECT ${COLUMNS} FROM seasons WHERE workspace_id = $1 AND slug = $2`, [
        workspaceId,
        ref,
      ]);
  return rows[0] ?? null;
}

export async function findActiveSeason(db: Queryable, workspaceId: string): Promise<SeasonRow | null> {
  const rows = await db.query<SeasonRow>(`SELECT ${COLUMNS} FROM seasons WHERE workspace_id = $1 AND active`, [
    workspaceId,
  ]);
  return rows[0] ?? null;
}

/** Ordered as the original: active first, then newest start. */
export function listSeasons(
  db: Queryable,
  workspaceId: string,
  onlyIds: readonly string[] | null,
): Promise<SeasonRow[]> {
  return db.query<SeasonRow>(
    `SELECT ${COLUMNS} FROM seasons WHERE workspace_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))
     ORDER BY active DESC, started_at DESC NULLS LAST, created_at DESC, id`,
    [workspaceId, onlyIds],
  );
}

/**
 * Activates one season and deactivates the others in the same transaction: the replaced season gets an
 * `ended_at` (when null) and the new one a `started_at` (when null).
 */
export async function activateSeason(tx: Queryable, workspaceId: string, id: string): Promise<SeasonRow> {
  await tx.query(
    `UPDATE seasons SET active = false, ended_at = COALESCE(ended_at, now()), updated_at = now()
     WHERE workspace_id = $1 AND active AND id <> $2`,
    [workspaceId, id],
  );
  const rows = await tx.query<SeasonRow>(
    `UPDATE seasons SET active = true, started_at = COALESCE(started_at, now()), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [workspaceId, id],
  );
  return rows[0]!;
}

/** Serialises activations of one workspace (two concurrent activations must not leave two active seasons). */
export async function lockWorkspaceSeasons(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
}
