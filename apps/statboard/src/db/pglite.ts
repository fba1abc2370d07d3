import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TreeSync } from './embedded-sync.ts';
import { Mutex } from './mutex.ts';
import type { Db, Queryable } from './types.ts';

/** Every this many checkpoints (every 10 minutes by default) the database is vacuumed first. */
const VACUUM_EVERY = 10;

/** Extensions the migrations create (`CREATE EXTENSION`): PGlite must load them when it opens a database. */
const EXTENSIONS = { pg_trgm };

/** WAL kept between checkpoints: with a checkpoint every minute, `pg_wal` stays near this size. */
const WAL_SETTINGS = ['-c', 'max_wal_size=256MB', '-c', 'min_wal_size=64MB'];
/** As on PostgreSQL (src/db/pg.ts): no Memoize, whose cache is sized for the planner's estimate at every start. */
const PLANNER_SETTINGS = ['-c', 'enable_memoize=off'];

export interface PgliteOptions {
  /** A checkpoint, then a flush of the files it wrote, this often (ms); 0: only at close. On disk only. */
  checkpointMs?: number;
  /** Told when a periodic checkpoint fails (it is retried at the next period). */
  onCheckpointError?: (err: unknown) => void;
}

/**
 * PGlite (PostgreSQL in WASM) behind the `Db` interface. PGlite has a single connection, so every query and
 * every transaction takes one FIFO lock: a transaction excludes all other queries until it ends, and a
 * concurrent write can never slip into a transaction that is later rolled back.
 *
 * Single-user PostgreSQL checkpoints only when it closes: on disk, a timer runs `CHECKPOINT` (through the same
 * lock) every `checkpointMs`, so that `pg_wal` and the replay after a crash stay bounded however long the
 * service runs, and then flushes the files written since the last time to disk (PGlite's own fsync does
 * nothing), so that what a checkpoint holds survives a power loss. Every tenth time it vacuums first (there is
 * no autovacuum in single-user mode).
 */
export async function openPglite(dataDir: string | null, options: PgliteOptions = {}): Promise<Db> {
  const db =
    dataDir === null
      ? await PGlite.create({
          extensions: EXTENSIONS,
          startParams: [...PGlite.defaultStartParams, ...PLANNER_SETTINGS],
        })
      : await PGlite.create(dataDir, {
          extensions: EXTENSIONS,
          startParams: [...PGlite.defaultStartParams, ...WAL_SETTINGS, ...PLANNER_SETTINGS],
        });
  const lock = new Mutex();
  const tree = dataDir === null ? null : new TreeSync(dataDir);
  let checkpointing: Promise<void> | null = null;
  let checkpoints = 0;
  const checkpoint = async () => {
    // Single-user PostgreSQL has no autovacuum: without a VACUUM now and then, updated rows (every upload updates
    // values) would grow the tables for ever, and transaction ids would never be frozen.
    const vacuum = ++checkpoints % VACUUM_EVERY === 0;
    await lock.run(async () => {
      // Two statements: VACUUM cannot run inside the implicit transaction of a multi-statement script.
      if (vacuum) await db.exec('VACUUM');
      await db.exec('CHECKPOINT');
    });
    await tree?.sync();
  };
  const timer =
    tree !== null && (options.checkpointMs ?? 0) > 0
      ? setInterval(() => {
          if (checkpointing) return;
          checkpointing = checkpoint()
            .catch((err: unknown) => options.onCheckpointError?.(err))
            .finally(() => {
              checkpointing = null;
            });
        }, options.checkpointMs)
      : undefined;
  timer?.unref();
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
    close: async () => {
      clearInterval(timer);
      await checkpointing;
      await lock.run(async () => {
        if (closed) return;
        closed = true;
        await db.close(); // a shutdown checkpoint
      });
      await tree?.sync();
    },
  };
  return self;
}
