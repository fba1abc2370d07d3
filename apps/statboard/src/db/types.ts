import type { Change, ChangeBus } from '#src/cache/bus.ts';

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  /** The cache-invalidation bus of this database, when caches are in use. */
  readonly changes?: ChangeBus | undefined;
  /** Inside a transaction: runs `fn` after a successful COMMIT (never after a rollback). */
  readonly afterCommit?: ((fn: () => void) => void) | undefined;
  /** Runs one statement with `$n` parameters and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
}

/** The one small interface over `pg` (a PostgreSQL server) and PGlite (embedded). Same SQL for both. */
export interface Db extends Queryable {
  readonly kind: 'pg' | 'pglite';
  /** Set once at start (`attachChanges`); transactions hand it on to their queries. */
  changes?: ChangeBus | undefined;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. While it runs, no
   * other query of this process joins it (PGlite: every other query waits for it to end).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A `Db` view of an open transaction: services built on it run inside that transaction (a nested
 * `transaction` call joins it). Lets a change and its audit record commit or roll back together.
 */
export function transactionalDb(tx: Queryable, kind: Db['kind']): Db {
  return {
    kind,
    changes: tx.changes,
    afterCommit: tx.afterCommit,
    query: (sql, params) => tx.query(sql, params),
    exec: (script) => tx.exec(script),
    transaction: (fn) => fn(tx),
    close: async () => undefined,
  };
}

/**
 * Tells every cache what changed: at once on plain connections, after COMMIT inside a transaction (so a
 * rollback invalidates nothing and no reader can refill a cache with data that is not yet committed).
 */
export async function publishChange(db: Queryable, change: Change): Promise<void> {
  const bus = db.changes;
  if (!bus) return;
  if (db.afterCommit) db.afterCommit(() => void bus.publish(change));
  else await bus.publish(change);
}
