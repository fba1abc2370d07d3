import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_ROOT } from '#src/app-paths.ts';
import type { Db } from './types.ts';

const MIGRATIONS_DIR = join(APP_ROOT, 'src/db/migrations/');
/** Arbitrary constant: the advisory lock that serialises migrations of several instances starting at once. */
const MIGRATION_LOCK_ID = 7_263_011;

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies the numbered, forward-only SQL files of `migrations/` that are not yet recorded, all in one
 * transaction under a transaction-level advisory lock, so concurrent starters wait and then find nothing to do.
 * Scripts (`exec`) are not bound by the statement timeout of requests.
 */
export async function migrate(db: Db): Promise<MigrationResult> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return db.transaction(async (tx) => {
    // A migration (or the wait for another instance's) may take longer than one request's statement.
    await tx.exec(`SET LOCAL statement_timeout = 0; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(await readFile(MIGRATIONS_DIR + file, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return { applied };
  });
}
