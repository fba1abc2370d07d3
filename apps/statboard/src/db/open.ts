import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Availability } from './availability.ts';
import { openPg } from './pg.ts';
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

/** Who holds the lock: the pid, and on Linux the process's start time (clock ticks since boot) and the boot id. */
interface Holder {
  pid: number;
  start?: string;
  boot?: string;
}

async function readOr(path: string): Promise<string | null> {
  return readFile(path, 'utf8').then(
    (t) => t.trim(),
    () => null,
  );
}

/** The start time of a process (field 22 of /proc/PID/stat), or null where there is no /proc. */
async function startTimeOf(pid: number): Promise<string | null> {
  const stat = await readOr(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

async function me(): Promise<Holder> {
  const [start, boot] = await Promise.all([startTimeOf(process.pid), readOr(BOOT_ID)]);
  return { pid: process.pid, ...(start ? { start } : {}), ...(boot ? { boot } : {}) };
}

const BOOT_ID = '/proc/sys/kernel/random/boot_id';

function parseHolder(text: string): Holder | null {
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // the format of earlier versions: the pid alone
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isInteger(h.pid) && h.pid > 0 ? h : null;
  } catch {
    return null;
  }
}

/**
 * Whether the lock's holder still runs. A pid alone can be reused (after a reboot or a container restart the
 * old pid may belong to anything): where the lock names the boot and the process's start time, both must match
 * too.
 */
async function holderRuns(h: Holder): Promise<boolean> {
  if (h.pid === process.pid || !alive(h.pid)) return false;
  if (h.boot !== undefined) {
    const boot = await readOr(BOOT_ID);
    if (boot !== null && boot !== h.boot) return false;
  }
  if (h.start !== undefined) {
    const start = await startTimeOf(h.pid);
    if (start !== null && start !== h.start) return false;
  }
  return true;
}

/** Takes the PGlite data directory for this process: PGlite is single-process, two writers would corrupt it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = join(dir, 'statboard.pid');
  const mine = JSON.stringify(await me());
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, mine, { flag: 'wx' });
      return async () => {
        await rm(lockFile, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = parseHolder((await readOr(lockFile)) ?? '');
      if (holder !== null && (await holderRuns(holder))) throw new DatabaseBusyError(dir, holder.pid);
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
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'> & {
    timeouts?: Config['timeouts'];
    embeddedCheckpointMs?: number;
  },
  availability?: Availability,
  onCheckpointError?: (err: unknown) => void,
): Promise<Db> {
  if (config.databaseUrl !== null) {
    return openPg(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      ...(config.timeouts && {
        connectTimeoutMs: config.timeouts.databaseConnectMs,
        statementTimeoutMs: config.timeouts.databaseStatementMs,
        queryTimeoutMs: config.timeouts.databaseQueryMs,
      }),
      ...(availability ? { availability } : {}),
    });
  }
  const dir = join(config.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(config.dataDir);
  try {
    // Loaded only for the embedded database: PGlite's module alone adds ~45 MB to the RSS of every process.
    const { openPglite } = await import('./pglite.ts');
    const db = await openPglite(dir, {
      checkpointMs: config.embeddedCheckpointMs ?? 0,
      ...(onCheckpointError ? { onCheckpointError } : {}),
    });
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
