import pg from 'pg';
import type { Db, Queryable } from './types.ts';

// int8 (count(*), sums) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric as JS numbers too.
pg.types.setTypeParser(1700, (v) => Number(v));

function wrap(client: pg.PoolClient, db: Db, hooks: (() => void)[]): Queryable {
  return {
    changes: db.changes,
    afterCommit: (fn) => hooks.push(fn),
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await client.query(sql, params as unknown[] | undefined);
      return res.rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

/** A `pg` pool behind the `Db` interface. */
export function openPg(connectionString: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server emits 'error'; the pool replaces it. Without a listener it would crash.
  pool.on('error', () => undefined);
  const db: Db = {
    kind: 'pg',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await pool.query(sql, params as unknown[] | undefined);
      return res.rows as T[];
    },
    async exec(script: string) {
      await pool.query(script);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      const hooks: (() => void)[] = [];
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, db, hooks));
        await client.query('COMMIT');
        for (const h of hooks) h();
        return out;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}
