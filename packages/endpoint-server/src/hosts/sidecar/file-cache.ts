/**
 * Async, cached file reads that refresh when the file changes. A directory watcher (`fs.watch`) invalidates
 * entries as soon as a file is written or replaced; without a working watcher, or after a short interval, a
 * `stat` compares modification time and size. Concurrent reads of one file share a single read.
 * @packageDocumentation
 */
import { type FSWatcher, watch } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** A parsed file with the time it was last modified. */
export interface CachedValue<T> {
  /** The parsed content. */
  readonly value: T;
  /** The file's modification time. */
  readonly mtime: Date;
}

interface Entry<T> {
  stamp: string;
  /** `path.dirname` of the file, kept for the per-request trust check. */
  readonly dir: string;
  result: CachedValue<T> | null;
  checkedAt: number;
  trusted: boolean;
  tick: number;
}

/** How long a watched entry is trusted without a `stat`, in ms (a safety net for missed events). */
const TRUST_MS = 1000;
const MAX_ENTRIES = 10_000;

/** Caches parsed files of any number of directories. */
export class FileCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inflight = new Map<string, Promise<CachedValue<T> | null>>();
  private readonly watchers = new Map<string, FSWatcher | null>();
  private readonly watchAttempts = new Map<string, number>();
  // Invalidation clock: a refresh that started before an invalidation of its file must not be trusted.
  private clock = 0;
  private readonly invalidatedAt = new Map<string, number>();
  private changes = 0;

  /**
   * Changes whenever what {@link peek} answers can change other than by time passing (an invalidation, a
   * refresh), so a caller may reuse answers computed at the same version until their {@link trustedUntil}.
   */
  get version(): number {
    return this.changes;
  }

  constructor(private readonly parse: (data: Buffer, file: string) => T | Promise<T>) {}

  /** Watches a directory so its files are invalidated as they change. Missing directories fall back to stat. */
  watchDirectory(dir: string): void {
    const resolved = path.resolve(dir);
    if (this.watchers.get(resolved)) return;
    this.watchAttempts.set(resolved, Date.now());
    let watcher: FSWatcher | null = null;
    try {
      watcher = watch(resolved, { persistent: false }, (_event, filename) => {
        if (filename) this.invalidate(path.join(resolved, filename.toString()));
        else this.invalidateDirectory(resolved);
      });
      watcher.on('error', () => {
        this.watchers.set(resolved, null);
        this.invalidateDirectory(resolved);
        watcher?.close();
      });
    } catch {
      watcher = null;
    }
    this.watchers.set(resolved, watcher);
  }

  /** Forgets the trust in one file, so the next read checks it. */
  invalidate(file: string): void {
    this.clock++;
    this.changes++;
    if (this.invalidatedAt.size >= MAX_ENTRIES) this.invalidatedAt.clear();
    this.invalidatedAt.set(file, this.clock);
    const entry = this.entries.get(file);
    if (entry) entry.trusted = false;
  }

  private invalidateDirectory(dir: string): void {
    this.clock++;
    this.changes++;
    this.invalidatedAt.set(dir, this.clock);
    for (const [file, entry] of this.entries) if (path.dirname(file) === dir) entry.trusted = false;
  }

  private changedSince(file: string, tick: number, dir = path.dirname(file)): boolean {
    return (this.invalidatedAt.get(file) ?? 0) > tick || (this.invalidatedAt.get(dir) ?? 0) > tick;
  }

  private isWatched(file: string): boolean {
    const dir = path.dirname(file);
    if (this.watchers.get(dir)) return true;
    // A directory that did not exist yet (or whose watcher failed) is retried at most once per interval.
    if (this.watchAttempts.has(dir) && Date.now() - (this.watchAttempts.get(dir) ?? 0) >= TRUST_MS) {
      this.watchDirectory(dir);
      return this.watchers.get(dir) != null;
    }
    return false;
  }

  /**
   * The cached value of `file` when it can be used without waiting: null when known missing, undefined when
   * a (re)read is needed. Watched entries are used until an event invalidates them, others for at most 1 s.
   */
  peek(file: string, now = Date.now()): CachedValue<T> | null | undefined {
    const entry = this.entries.get(file);
    if (
      entry !== undefined &&
      now - entry.checkedAt < TRUST_MS &&
      (entry.trusted || !this.changedSince(file, entry.tick, entry.dir))
    )
      return entry.result;
    return undefined;
  }

  /** Until when (ms since epoch) {@link peek} may answer from the cached entry of `file`, given no new version. */
  trustedUntil(file: string): number {
    const entry = this.entries.get(file);
    return entry === undefined ? 0 : entry.checkedAt + TRUST_MS;
  }

  /** Reads `file` (absolute), from the cache when it has not changed; null when it does not exist. */
  get(file: string): Promise<CachedValue<T> | null> {
    const hit = this.peek(file);
    if (hit !== undefined) return Promise.resolve(hit);
    const entry = this.entries.get(file);
    const running = this.inflight.get(file);
    if (running) return running;
    const promise = this.refresh(file, entry);
    this.inflight.set(file, promise);
    const done = (): void => {
      this.inflight.delete(file);
    };
    promise.then(done, done);
    return promise;
  }

  private async refresh(file: string, entry: Entry<T> | undefined): Promise<CachedValue<T> | null> {
    const tick = this.clock;
    const watched = this.isWatched(file);
    const checkedAt = Date.now();
    let stamp = 'missing';
    let mtime = new Date(0);
    try {
      const st = await stat(file);
      if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      stamp = `${st.mtimeMs}:${st.size}`;
      mtime = st.mtime;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
        throw error;
    }
    const trusted = watched && !this.changedSince(file, tick);
    this.changes++;
    if (entry && entry.stamp === stamp) {
      entry.checkedAt = checkedAt;
      entry.trusted = trusted;
      entry.tick = tick;
      return entry.result;
    }
    let result: CachedValue<T> | null = null;
    if (stamp !== 'missing') {
      const data = await readFile(file);
      result = { value: await this.parse(data, file), mtime };
    }
    this.changes++;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(file, {
      stamp,
      dir: path.dirname(file),
      result,
      checkedAt,
      trusted: watched && !this.changedSince(file, tick),
      tick,
    });
    return result;
  }

  /** Stops all watchers. */
  close(): void {
    for (const watcher of this.watchers.values()) watcher?.close();
    this.watchers.clear();
  }
}
