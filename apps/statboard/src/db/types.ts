/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
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
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. While it runs, no
   * other query of this process joins it (PGlite: every other query waits for it to end).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A `Db` view of an open transaction: services built on it run inside that transaction (a nested
 * `transaction` call joins it), so that several changes and their audit records commit or roll back together.
 */
export function transactionalDb(tx: Queryable, kind: Db['kind']): Db {
  return {
    kind,
    afterCommit: tx.afterCommit,
    query: (sql, params) => tx.query(sql, params),
    exec: (script) => tx.exec(script),
    transaction: (fn) => fn(tx),
    close: async () => undefined,
  };
}
