import { open, readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * Flushes to disk the files of a directory tree changed since the last call (their data, then the directories'
 * entries). The embedded database writes through the operating system's page cache and never asks for a flush
 * itself (its `fsync` is a no-op in WebAssembly): this is what makes its checkpoints survive a power loss.
 */
export class TreeSync {
  private since = 0;

  constructor(private readonly root: string) {}

  /** Syncs what changed since the previous call; returns the number of files synced. */
  async sync(): Promise<number> {
    const started = Date.now();
    const changed: string[] = [];
    const dirs: string[] = [];
    await this.walk(this.root, changed, dirs);
    // PostgreSQL's control file points at the latest checkpoint: it goes to disk last, after the WAL and the data
    // files that checkpoint relies on, so a power loss never leaves it pointing at something not yet on disk.
    const control = changed.filter((f) => f.endsWith(`${sep}global${sep}pg_control`));
    for (const file of changed) if (!control.includes(file)) await flush(file);
    for (const dir of dirs) await flush(dir);
    for (const file of control) await flush(file);
    // A file written while this ran is synced next time (a second of margin for coarse mtimes).
    this.since = started - 1_000;
    return changed.length;
  }

  private async walk(dir: string, changed: string[], dirs: string[]): Promise<void> {
    let touched = false;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await this.walk(path, changed, dirs);
      } else if (entry.isFile()) {
        const s = await stat(path).catch(() => null);
        if (s && s.mtimeMs >= this.since) {
          changed.push(path);
          touched = true;
        }
      }
    }
    if (touched || this.since === 0) dirs.push(dir);
  }
}

async function flush(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // Removed meanwhile (a recycled WAL segment), or a directory the platform cannot sync: nothing to keep.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
