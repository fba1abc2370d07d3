import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the benchmarks create their throwaway databases on. */
export const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A new empty database on ADMIN_URL's server; `drop()` removes it even with open connections. */
export async function createDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** `PostgreSQL 15.20` */
export function serverVersion(): Promise<string> {
  return admin(
    async (c) =>
      `PostgreSQL ${(await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?'}`,
  );
}

/**
 * Process ids of the server's backends connected to one database, to read their CPU time from /proc (the
 * server runs on this machine). Uses one long-lived connection, which is itself excluded.
 */
export class BackendPids {
  private readonly client: pg.Client;
  private ready: Promise<void> | null = null;

  constructor(private readonly database: string) {
    this.client = new pg.Client({ connectionString: ADMIN_URL });
  }

  async list(): Promise<number[]> {
    this.ready ??= this.client.connect().then(() => undefined);
    await this.ready;
    const res = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [this.database],
    );
    return res.rows.map((r) => r.pid);
  }

  async close(): Promise<void> {
    if (this.ready) await this.client.end();
  }
}
