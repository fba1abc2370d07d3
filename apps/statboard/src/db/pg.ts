import { createHash } from 'node:crypto';
import pg from 'pg';
import { Availability, isDatabaseUnavailable } from './availability.ts';
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

/** Scripts (migrations, maintenance) are not bound by the per-statement timeout of requests (setTimeout's max). */
const SCRIPT_TIMEOUT_MS = 2 ** 31 - 1;

function wrap(client: pg.PoolClient, hooks: (() => void)[]): Queryable {
  return {
    afterCommit: (fn) => hooks.push(fn),
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await client.query(prepared(sql, params));
      return res.rows as T[];
    },
    async exec(script: string) {
      await client.query({ text: script, query_timeout: SCRIPT_TIMEOUT_MS } as pg.QueryConfig);
    },
  };
}

export interface PgOptions {
  poolSize?: number;
  /** Opening a connection or waiting for a free one (ms). */
  connectTimeoutMs?: number;
  /** One statement: PostgreSQL's statement_timeout (ms). */
  statementTimeoutMs?: number;
  /** The client's own limit on waiting for an answer, for a server that hangs (ms). */
  queryTimeoutMs?: number;
  /** Told about every outage error and every success after one. */
  availability?: Availability;
}

/**
 * A `pg` pool behind the `Db` interface. Every wait is bounded: connecting (and waiting for a pool slot), and
 * each statement, both on the server (statement_timeout) and on the client (a server whose processes are
 * stopped never answers, and TCP keepalive alone would take minutes to notice).
 */
export function openPg(connectionString: string, options: PgOptions = {}): Db {
  const availability = options.availability ?? new Availability();
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // No JIT compilation: the service's statements are short, and where the planner's estimate of a statement
    // crosses jit_above_cost (large boards, activity over many sessions) compiling it took 100–300 ms of every
    // execution, longer than running it. No Memoize either: where the planner expects a join to look up many
    // rows (a leaderboard's neighbours, a page inside a run of ties: hundreds of thousands estimated, a handful
    // read), it sizes Memoize's cache for the estimate when the statement starts, and that allocation took 3 ms
    // of a rank read whose rows took 0.2 ms on a board of a million (docs/scaling.md); the service's joins look
    // up each row once, where Memoize saves nothing.
    options: '-c jit=off -c enable_memoize=off',
    ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
  });
  // An idle client that loses its server emits 'error'; the pool replaces it. Without a listener it would crash.
  pool.on('error', () => undefined);
  const failures =
    (startedAt: number) =>
    (err: unknown): never => {
      if (isDatabaseUnavailable(err)) availability.failed(err, startedAt);
      throw err;
    };
  /** Sends a statement, telling `availability` how it went and when it was sent. */
  const seen = <T>(send: () => Promise<T>): Promise<T> => {
    const startedAt = availability.time();
    return send().then((v) => {
      availability.succeeded(startedAt);
      return v;
    }, failures(startedAt));
  };
  const db: Db = {
    kind: 'pg',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await seen(() => pool.query(prepared(sql, params)));
      return res.rows as T[];
    },
    async exec(script: string) {
      await seen(() => pool.query({ text: script, query_timeout: SCRIPT_TIMEOUT_MS } as pg.QueryConfig));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // Only a statement that returned says the database is back: the pool may hand out an idle connection
      // whose server has just died (it has not noticed yet), and counting that as a success logged an outage's
      // end and a new outage a moment later.
      const startedAt = availability.time();
      const client = await pool.connect().catch(failures(startedAt));
      let broken = false;
      // The pool stops listening to a client it hands out: a connection lost while no statement of the
      // transaction runs (the server crashed or restarted, the backend was terminated) would emit 'error' to
      // nobody, which ends the process. Heard here, the next statement fails as the database unavailable.
      const lost = () => {
        broken = true;
      };
      client.on('error', lost);
      const hooks: (() => void)[] = [];
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, hooks));
        await client.query('COMMIT');
        availability.succeeded(startedAt);
        for (const h of hooks) h();
        return out;
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          // The connection is gone or hung: a ROLLBACK would wait as long again. Dropping the connection makes
          // PostgreSQL roll the transaction back.
          availability.failed(err, startedAt);
          broken = true;
        } else {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        }
        throw err;
      } finally {
        client.removeListener('error', lost);
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}
