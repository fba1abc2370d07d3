import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable } from './types.ts';

// int8 (count(*), sums) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric as JS numbers too.
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Every statement runs as a named prepared statement (one name per SQL text): PostgreSQL parses and plans it
 * once per connection instead of on every call. Our SQL texts are a fixed set, so the names stay bounded.
 */
const names = new Map<string, string>();
function prepared(text: string, values: readonly unknown[] | undefined): pg.QueryConfig {
  // Statements without parameters (DDL, scripts of tests) stay unnamed: they are rare and may change tables.
  if (values === undefined || values.length === 0) return { text };
  let name = names.get(text);
  if (name === undefined) {
    name = `sb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] | undefined };
}

function wrap(client: pg.PoolClient, hooks: (() => void)[]): Queryable {
  return {
    afterCommit: (fn) => hooks.push(fn),
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await client.query(prepared(sql, params));
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
      const res = await pool.query(prepared(sql, params));
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
        const out = await fn(wrap(client, hooks));
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
