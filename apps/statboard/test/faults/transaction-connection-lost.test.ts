import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '#src/db/availability.ts';
import { openPg } from '#src/db/pg.ts';
import type { Db } from '#src/db/types.ts';
import { createTestDb, DB_KIND, type TestDb } from '../helpers.ts';

/**
 * A connection lost while a transaction holds it between two statements (the server crashed or restarted, or the
 * backend was terminated): the pool does not listen to a client it has handed out, and a client's 'error' event
 * with nobody to hear it ends the process. The transaction must fail as "database unavailable" instead, and the
 * pool go on with a new connection.
 */
describe.skipIf(DB_KIND !== 'postgresql')('a transaction whose connection is lost between statements', () => {
  let tdb: TestDb;
  let db: Db;

  beforeAll(async () => {
    tdb = await createTestDb();
    db = openPg(tdb.url!, { poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('fails as unavailable, and the process and the pool go on', async () => {
    const failed = await db
      .transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // Terminated from another connection while this one runs no statement.
        await tdb.db.query('SELECT pg_terminate_backend($1)', [row!.pid]);
        await new Promise((r) => setTimeout(r, 300));
        await tx.query('SELECT 1');
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failed).not.toBeNull();
    expect(isDatabaseUnavailable(failed), String(failed)).toBe(true);
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
