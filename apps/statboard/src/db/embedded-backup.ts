import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { AppError } from '#src/errors.ts';
import { lockDataDir } from './open.ts';

/** The embedded database's folder under DATA_DIR. */
const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes a consistent copy of the embedded database to `outFile` (a gzipped tar of its data directory, which
 * `restoreEmbedded` reads back). Takes the database's lock, so it refuses while the service holds it.
 */
export async function backupEmbedded(dataDir: string, outFile: string): Promise<{ bytes: number }> {
  if (!(await exists(pgliteDir(dataDir)))) throw new AppError('NOT_FOUND', `No embedded database in ${dataDir}.`);
  const unlock = await lockDataDir(dataDir);
  try {
    const db = await PGlite.create(pgliteDir(dataDir));
    let dump: Blob;
    try {
      dump = await db.dumpDataDir('gzip');
    } finally {
      await db.close();
    }
    const bytes = Buffer.from(await dump.arrayBuffer());
    await mkdir(dirname(outFile), { recursive: true });
    // Written whole, then renamed: a backup file is never half-written.
    const partial = `${outFile}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, outFile);
    return { bytes: bytes.length };
  } finally {
    await unlock();
  }
}

/**
 * Replaces the embedded database with the backup in `fromFile`. Refuses a database that holds a workspace unless
 * `force`; the database it replaces is kept beside it (`pglite.replaced-<time>`), not deleted. Takes the lock.
 */
export async function restoreEmbedded(
  dataDir: string,
  fromFile: string,
  force: boolean,
): Promise<{ replaced: string | null }> {
  const archive = await readFile(fromFile).catch(() => {
    throw new AppError('NOT_FOUND', `Cannot read the backup ${fromFile}.`);
  });
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  try {
    const dir = pgliteDir(dataDir);
    let replaced: string | null = null;
    if (await exists(dir)) {
      const current = await PGlite.create(dir);
      let workspaces = 0;
      try {
        const rows = await current.query<{ n: number }>(
          "SELECT CASE WHEN to_regclass('public.workspaces') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM workspaces) END AS n",
        );
        workspaces = rows.rows[0]?.n ?? 0;
      } finally {
        await current.close();
      }
      if (workspaces > 0 && !force) {
        throw new AppError(
          'CONFLICT',
          `The embedded database in ${dataDir} is not empty (${workspaces} workspace(s)); --force replaces it (the current one is kept beside it).`,
        );
      }
      replaced = `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(dir, replaced);
    }
    try {
      const restored = await PGlite.create(dir, { loadDataDir: new Blob([archive]) });
      try {
        await restored.query('SELECT 1 FROM schema_migrations LIMIT 1');
      } finally {
        await restored.close();
      }
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      if (replaced) await rename(replaced, dir);
      throw new AppError('INVALID_PAYLOAD', `${fromFile} is not a Statboard backup.`, undefined, { cause: err });
    }
    return { replaced };
  } finally {
    await unlock();
  }
}
