import type { Queryable } from '#src/db/types.ts';

/** One round trip to the database. */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
