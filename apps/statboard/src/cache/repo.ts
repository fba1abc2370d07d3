import type { Queryable } from '#src/db/types.ts';
import { CHANGE_CHANNEL } from './bus.ts';

/** Sends a change to every instance listening on the database (PostgreSQL NOTIFY). */
export async function notifyChange(db: Queryable, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
}
