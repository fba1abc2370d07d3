import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Availability } from './availability.ts';
import { openPg } from './pg.ts';
import { openPglite } from './pglite.ts';
import type { Db } from './types.ts';

/** The embedded database is in use by another live process (the service or another CLI run). */
export class DatabaseBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid} (a running statboard service?). ` +
        'Stop that process first, or set DATABASE_URL to use a PostgreSQL server, which several processes can share.',
    );
    this.name = 'DatabaseBusyError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the PGlite data directory for this process: PGlite is single-process, two writers would corrupt it. */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = join(dir, 'statboard.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return async () => {
        await rm(lockFile, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DatabaseBusyError(dir, pid);
      await rm(lockFile, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}

/**
 * Opens the configured database: a PostgreSQL server with DATABASE_URL, else PGlite under DATA_DIR. Without
 * `timeouts` (tools that seed or inspect), statements are not bounded in time.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'> & { timeouts?: Config['timeouts'] },
  availability?: Availability,
): Promise<Db> {
  if (config.databaseUrl !== null) {
    return openPg(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      ...(config.timeouts && {
        connectTimeoutMs: config.timeouts.databaseConnectMs,
        queryTimeoutMs: config.timeouts.databaseQueryMs,
      }),
      ...(availability ? { availability } : {}),
    });
  }
  const dir = join(config.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(config.dataDir);
  try {
    const db = await openPglite(dir);
    return {
      ...db,
      close: async () => {
        await db.close();
        await unlock();
      },
    };
  } catch (err) {
    await unlock();
    throw err;
  }
}
