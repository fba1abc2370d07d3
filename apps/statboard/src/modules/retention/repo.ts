import type { Queryable } from '#src/db/types.ts';

/** Deletes up to `limit` events stored before `before`, oldest first; returns how many. */
export async function pruneEvents(db: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM events WHERE (workspace_id, id) IN (
         SELECT workspace_id, id FROM events WHERE received_at < $1 ORDER BY received_at LIMIT $2
       )
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
