/**
 * The benchmarks' "raw" side: the plain tables of raw-sql.ts in a second database of their own, reached the way
 * the service would reach it (PostgreSQL: `pg` connections from the bench process; PGlite: one in-process
 * instance behind the service's own Db), so that the service's ingest can be compared with the bare upserts.
 */
import pg from 'pg';
import type { Db, Queryable } from '../../apps/statboard/src/db/types.ts';
import { RAW_INDEXED_DDL, RAW_TABLE_DDL } from './raw-sql.ts';
import { type DbTarget, openTarget } from './statboard.ts';

/** `pg.Client` as the repo's Queryable, so the raw side runs the repo's own functions. */
export function clientQueryable(client: pg.Client): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await client.query(sql, params as unknown[] | undefined)).rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

export interface RawSide {
  /** (Re)opens `concurrency` connections (PGlite: nothing to do, its one instance serves every loop). */
  connect(concurrency: number): Promise<void>;
  /** Loop `loop`'s connection. */
  conn(loop: number): Queryable;
  /** Connections open (PGlite: 1). */
  loops(): number;
  /** Runs a statement on every connection (e.g. `SET synchronous_commit = off`). */
  setAll(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** Creates the plain table and the indexed one on `target`, and opens its connections. */
export async function openRawSide(target: DbTarget): Promise<RawSide> {
  const setup = await openTarget(target);
  try {
    await setup.query(RAW_TABLE_DDL);
    await setup.exec(RAW_INDEXED_DDL);
  } finally {
    await setup.close();
  }
  if ('url' in target) {
    let clients: pg.Client[] = [];
    let queryables: Queryable[] = [];
    return {
      async connect(concurrency) {
        await Promise.all(clients.map((c) => c.end()));
        clients = Array.from({ length: concurrency }, () => new pg.Client({ connectionString: target.url }));
        await Promise.all(clients.map((c) => c.connect()));
        queryables = clients.map(clientQueryable);
      },
      conn: (loop) => queryables[loop]!,
      loops: () => queryables.length,
      async setAll(sql) {
        await Promise.all(clients.map((c) => c.query(sql)));
      },
      async close() {
        await Promise.all(clients.map((c) => c.end()));
      },
    };
  }
  // PGlite: one in-process instance behind the service's own Db (its FIFO lock serialises the loops).
  const db: Db = await openTarget(target);
  return {
    async connect() {},
    conn: () => db,
    loops: () => 1,
    async setAll() {},
    close: () => db.close(),
  };
}
