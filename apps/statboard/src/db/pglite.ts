import { PGlite } from '@electric-sql/pglite';
import { Mutex } from './mutex.ts';
import type { Db, Queryable } from './types.ts';

/**
 * PGlite (PostgreSQL in WASM) behind the `Db` interface. PGlite has a single connection, so every query and
 * every transaction takes one FIFO lock: a transaction excludes all other queries until it ends, and a
 * concurrent write can never slip into a transaction that is later rolled back.
 */
export async function openPglite(dataDir: string | null): Promise<Db> {
  const db = dataDir === null ? await PGlite.create() : await PGlite.create(dataDir);
  const lock = new Mutex();
  const direct: Queryable = {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await db.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
  let closed = false;
  const self: Db = {
    kind: 'pglite',
    query: (sql, params) => lock.run(() => direct.query(sql, params)),
    exec: (script) => lock.run(() => direct.exec(script)),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return lock.run(async () => {
        const hooks: (() => void)[] = [];
        const tx: Queryable = { ...direct, afterCommit: (h) => hooks.push(h) };
        await db.exec('BEGIN');
        try {
          const out = await fn(tx);
          await db.exec('COMMIT');
          for (const h of hooks) h();
          return out;
        } catch (err) {
          await db.exec('ROLLBACK');
          throw err;
        }
      });
    },
    close: () =>
      lock.run(async () => {
        if (closed) return;
        closed = true;
        await db.close();
      }),
  };
  return self;
}
