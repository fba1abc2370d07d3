import type { Queryable } from '#src/db/types.ts';

export type Scoring = 'absolute' | 'gains';

export interface SeasonRow {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  active: boolean;
  started_at: Date | null;
  ended_at: Date | null;
  scoring: Scoring;
  /** Waits for its `started_at` to activate by itself (migration 0018). */
  start_pending: boolean;
}

const COLUMNS = 'id, workspace_id, name, slug, active, started_at, ended_at, scoring, start_pending';

export interface SeasonWrite {
  name: string;
  slug: string;
  startedAt: Date | null;
  endedAt: Date | null;
  scoring: Scoring;
  startPending: boolean;
}

export async function insertSeason(db: Queryable, workspaceId: string, s: SeasonWrite): Promise<SeasonRow> {
  const rows = await db.query<SeasonRow>(
    `INSERT INTO seasons (workspace_id, name, slug, started_at, ended_at, scoring, start_pending)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [workspaceId, s.name, s.slug, s.startedAt, s.endedAt, s.scoring, s.startPending],
  );
  return rows[0]!;
}

/** Replaces a season's settings (not whether it is active). */
export async function updateSeason(db: Queryable, workspaceId: string, id: string, s: SeasonWrite): Promise<SeasonRow> {
  const rows = await db.query<SeasonRow>(
    `UPDATE seasons SET name = $3, slug = $4, started_at = $5, ended_at = $6, scoring = $7, start_pending = $8,
       updated_at = now()
     WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [workspaceId, id, s.name, s.slug, s.startedAt, s.endedAt, s.scoring, s.startPending],
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
 * Activates one season at `at` (null: the transaction's time) and deactivates the others in the same
 * transaction. The replaced season has ended then: its `ended_at` becomes `at` unless it already lies before.
 * The new one runs from then on: its `started_at` becomes `at` when null or still ahead, and an `ended_at` already
 * past (an earlier run's) is cleared; one still ahead stays, and ends it then.
 */
export async function activateSeason(
  tx: Queryable,
  workspaceId: string,
  id: string,
  at: Date | null,
): Promise<SeasonRow> {
  // Never an end before the replaced season's own start (it may have been activated by hand after `at`).
  await tx.query(
    `WITH t AS (SELECT COALESCE($3::timestamptz, now()) AS at)
     UPDATE seasons SET active = false, updated_at = now(),
       ended_at = CASE WHEN ended_at IS NULL OR ended_at > GREATEST(t.at, started_at) THEN GREATEST(t.at, started_at)
                       ELSE ended_at END
     FROM t WHERE workspace_id = $1 AND active AND id <> $2`,
    [workspaceId, id, at],
  );
  const rows = await tx.query<SeasonRow>(
    `WITH t AS (SELECT COALESCE($3::timestamptz, now()) AS at)
     UPDATE seasons SET active = true, start_pending = false, updated_at = now(),
       started_at = CASE WHEN started_at IS NULL OR started_at > t.at THEN t.at ELSE started_at END,
       ended_at = CASE WHEN ended_at <= t.at THEN NULL ELSE ended_at END
     FROM t WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [workspaceId, id, at],
  );
  return rows[0]!;
}

/** Deactivates the active season, leaving the workspace without one (its `ended_at` is already set). */
export async function endSeason(tx: Queryable, workspaceId: string, id: string): Promise<SeasonRow> {
  const rows = await tx.query<SeasonRow>(
    `UPDATE seasons SET active = false, updated_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [workspaceId, id],
  );
  return rows[0]!;
}

/** Seasons waiting for a start that has come (`now` or before), the latest start first. */
export function dueStarts(tx: Queryable, workspaceId: string, now: Date): Promise<SeasonRow[]> {
  return tx.query<SeasonRow>(
    `SELECT ${COLUMNS} FROM seasons WHERE workspace_id = $1 AND start_pending AND NOT active AND started_at <= $2
     ORDER BY started_at DESC, created_at DESC, id`,
    [workspaceId, now],
  );
}

/** No longer waiting to start (superseded by a later start, or its whole run passed while nothing looked). */
export async function clearStartPending(tx: Queryable, workspaceId: string, ids: readonly string[]): Promise<void> {
  await tx.query(
    'UPDATE seasons SET start_pending = false, updated_at = now() WHERE workspace_id = $1 AND id = ANY($2::uuid[])',
    [workspaceId, ids],
  );
}

/** Workspaces with a season whose start or end has come (`now` or before). */
export async function workspacesWithDueSchedules(db: Queryable, now: Date): Promise<string[]> {
  const rows = await db.query<{ workspace_id: string }>(
    `SELECT workspace_id FROM seasons WHERE start_pending AND NOT active AND started_at <= $1
     UNION
     SELECT workspace_id FROM seasons WHERE active AND ended_at <= $1`,
    [now],
  );
  return rows.map((r) => r.workspace_id);
}

/** Serialises activations of one workspace (two concurrent activations must not leave two active seasons). */
export async function lockWorkspaceSeasons(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
}
