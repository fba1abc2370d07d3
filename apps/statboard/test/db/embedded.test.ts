import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError, openDatabase } from '#src/db/open.ts';

/** The embedded database's lock and checkpoints, on a real data directory. */
describe('the embedded database', () => {
  let dir: string;
  let other: ChildProcess;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'statboard-embedded-'));
    // A live process that is not a statboard: as after a reboot, when the old pid belongs to something else.
    other = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((r) => other.once('spawn', r));
  });
  afterAll(async () => {
    other.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const open = (checkpointMs = 0) =>
    openDatabase({ databaseUrl: null, dataDir: dir, databasePoolSize: 1, embeddedCheckpointMs: checkpointMs });
  const lockFile = () => join(dir, 'statboard.pid');
  const startOf = async (pid: number) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  };
  const bootId = () => readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((t) => t.trim());
  const linux = process.platform === 'linux';

  it('writes a lock naming this process, its start time and the boot, and removes it at close', async () => {
    const db = await open();
    const lock = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number; start?: string; boot?: string };
    expect(lock.pid).toBe(process.pid);
    if (linux) {
      expect(lock.start).toBe(await startOf(process.pid));
      expect(lock.boot).toBe(await bootId());
    }
    await db.close();
    await expect(readFile(lockFile(), 'utf8')).rejects.toThrow();
  });

  it.skipIf(!linux)(
    'opens when the lock names a live pid whose process started at another time (a reused pid)',
    async () => {
      await writeFile(lockFile(), JSON.stringify({ pid: other.pid, start: '1', boot: await bootId() }));
      const db = await open();
      await db.close();
    },
  );

  it.skipIf(!linux)('opens when the lock was written before the last boot', async () => {
    const start = await startOf(other.pid!);
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: other.pid, start, boot: '00000000-0000-0000-0000-000000000000' }),
    );
    const db = await open();
    await db.close();
  });

  it('refuses while the process named by the lock runs (same pid, start time and boot)', async () => {
    const start = linux ? await startOf(other.pid!) : undefined;
    const boot = linux ? await bootId() : undefined;
    await writeFile(lockFile(), JSON.stringify({ pid: other.pid, start, boot }));
    await expect(open()).rejects.toBeInstanceOf(DatabaseBusyError);
    await rm(lockFile());
  });

  it('checkpoints periodically while open, so the replay after a crash stays bounded', async () => {
    const db = await open(300);
    try {
      const redo = async () =>
        (await db.query<{ redo_lsn: string }>('SELECT redo_lsn::text FROM pg_control_checkpoint()'))[0]!.redo_lsn;
      const before = await redo();
      await db.exec(
        "CREATE TABLE IF NOT EXISTS filler (v text); INSERT INTO filler SELECT repeat('x', 1000) FROM generate_series(1, 20000)",
      );
      const deadline = Date.now() + 5_000;
      while ((await redo()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await redo()).not.toBe(before);
    } finally {
      await db.close();
    }
  });

  it('vacuums every tenth checkpoint (single-user PostgreSQL has no autovacuum)', async () => {
    const db = await open(20);
    try {
      await db.exec('CREATE TABLE IF NOT EXISTS churn (v int); INSERT INTO churn SELECT generate_series(1, 1000)');
      const vacuumed = async () =>
        (
          await db.query<{ n: number }>(
            "SELECT coalesce(sum(vacuum_count), 0)::int AS n FROM pg_stat_user_tables WHERE relname = 'churn'",
          )
        )[0]!.n;
      const deadline = Date.now() + 10_000;
      while ((await vacuumed()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await vacuumed()).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });
});
