import type { CacheMeter } from '#src/metrics/metrics.ts';
import type { ChangeBus } from './bus.ts';

interface Entry<V> {
  value: V;
  expires: number;
  /** From then on, a read of the entry reloads it in the background (once); Infinity once started. */
  refreshAt: number;
  /** Bytes counted against the budget (0 without one). */
  size: number;
  /** How the value was loaded, for that background reload. */
  load: () => Promise<V>;
  keep: (value: V) => boolean;
}

/**
 * An entry read after this share of its life is reloaded in the background while it is still served
 * (refresh-ahead), plus a random part of REFRESH_JITTER so that entries loaded together do not all reload
 * together. A key read often never expires into a miss; one read rarely simply expires.
 */
const REFRESH_AFTER = 0.5;
const REFRESH_JITTER = 0.25;

/** A budget in bytes on top of the entry count, for values whose size varies (serialized answers). */
export interface ByteBudget<V> {
  max: number;
  sizeOf(value: V): number;
}

/**
 * Which new keys a cache stores (e.g. a `Doorkeeper`: only those asked for before). Asked only for a key the cache
 * does not hold: a reload of a key it holds is stored whatever this says.
 */
export interface Admission<K> {
  admit(key: K): boolean;
}

/**
 * A bounded in-process cache whose entries are used only while the change bus is healthy. A value loaded
 * while a change arrived is not stored (the generation moved), so a read racing a write never pins stale data.
 * Entries also expire after `ttlMs`, a safety net for a notification that never came (or a change made
 * straight in the database); an entry still read in the second half of its life is reloaded in the background
 * and replaced, so that hot keys are not all misses at once when they expire. A background reload follows the
 * same rules as a load (not stored if a change came in meanwhile) and its failure only leaves the entry to expire.
 */
export class Cache<K, V> {
  private readonly map = new Map<K, Entry<V>>();
  /** Loads in flight, shared by the misses that ask for the same key before it settles (in the same generation). */
  private readonly loading = new Map<K, { generation: number; value: Promise<V> }>();
  private generation = 0;
  /** Bytes held, when there is a budget. */
  private bytes = 0;

  constructor(
    private readonly bus: ChangeBus,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly budget: ByteBudget<V> | null = null,
    /** Counts hits and misses (metrics), or null. */
    private readonly meter: CacheMeter | null = null,
    /** Which new keys are stored; null: every one. */
    private readonly admission: Admission<K> | null = null,
  ) {}

  /**
   * The cached value without waiting, or undefined when there is none to use (then call `get`, which counts
   * the miss). An entry in the second half of its life starts its background reload.
   */
  peek(key: K): V | undefined {
    const hit = this.lookup(key);
    if (hit !== undefined) this.meter?.hit();
    return hit;
  }

  private lookup(key: K): V | undefined {
    if (!this.bus.healthy) return undefined;
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    const now = Date.now();
    if (hit.expires <= now) return undefined;
    if (hit.refreshAt <= now) this.refresh(key, hit);
    return hit.value;
  }

  /**
   * The cached value, at once (no promise on a hit), or `load()`'s, which is stored unless `keep` says no
   * (e.g. for a miss). Misses of one key while its load is in flight share that load, unless a change came in
   * since it started: a read that begins after a write never gets an answer loaded before it. A key the admission
   * does not let in (yet) is loaded alone, neither shared nor stored: a value read once (a random player's page)
   * costs nothing more than its load. Held through the cache's bookkeeping until it settles, such a load's
   * objects outlived young collections often enough to double what a random player's page left to the full
   * collections (BENCHMARKS.md, "Public site").
   */
  get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): V | Promise<V> {
    const hit = this.lookup(key);
    if (hit !== undefined) {
      this.meter?.hit();
      return hit;
    }
    this.meter?.miss();
    const inFlight = this.loading.get(key);
    if (inFlight !== undefined && inFlight.generation === this.generation) return inFlight.value;
    if (!this.admits(key)) return load();
    return this.start(key, load, keep);
  }

  /** Loads `key`, shared with the misses that come while it runs, and stores it unless a change came in. */
  private start(key: K, load: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const gen = this.generation;
    const value = load().then(
      (v) => {
        if (this.loading.get(key) === entry) this.loading.delete(key);
        if (this.bus.healthy && gen === this.generation && keep(v)) this.set(key, v, load, keep);
        return v;
      },
      (err: unknown) => {
        if (this.loading.get(key) === entry) this.loading.delete(key);
        throw err;
      },
    );
    const entry = { generation: gen, value };
    this.loading.set(key, entry);
    return value;
  }

  /** Whether a value of `key` may be stored: always for a key held (a reload), else as `admission` says. */
  private admits(key: K): boolean {
    return this.admission === null || this.map.has(key) || this.admission.admit(key);
  }

  /** The background reload of a live entry: once per entry; a failure leaves it to expire. */
  private refresh(key: K, hit: Entry<V>): void {
    hit.refreshAt = Number.POSITIVE_INFINITY;
    const inFlight = this.loading.get(key);
    if (inFlight !== undefined && inFlight.generation === this.generation) return;
    // The entry is served until it expires whatever happens; the next miss loads again and reports the error.
    // (peek never throws, even for a loader that throws before returning its promise.)
    try {
      this.start(key, hit.load, hit.keep).catch(() => undefined);
    } catch {
      // Nothing was started.
    }
  }

  private set(key: K, value: V, load: () => Promise<V>, keep: (value: V) => boolean): void {
    const size = this.budget ? this.budget.sizeOf(value) : 0;
    if (this.budget && size > this.budget.max) return;
    this.remove(key);
    // Drop the oldest insertions (Map keeps insertion order): cheap and good enough for hot sets.
    while (this.map.size >= this.maxEntries || (this.budget && this.bytes + size > this.budget.max)) {
      const first = this.map.keys().next();
      if (first.done) break;
      this.remove(first.value);
    }
    const now = Date.now();
    const refreshAt = now + this.ttlMs * (REFRESH_AFTER + Math.random() * REFRESH_JITTER);
    this.map.set(key, { value, expires: now + this.ttlMs, refreshAt, size, load, keep });
    this.bytes += size;
  }

  private remove(key: K): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.bytes -= e.size;
    this.map.delete(key);
  }

  delete(key: K): void {
    this.generation++;
    this.remove(key);
  }

  /** Drops the entries whose key matches. */
  deleteWhere(match: (key: K, value: V) => boolean): void {
    this.generation++;
    for (const [k, e] of this.map) if (match(k, e.value)) this.remove(k);
  }

  clear(): void {
    this.generation++;
    this.map.clear();
    this.bytes = 0;
  }

  /**
   * The value of an entry that expired less than `graceMs` ago, for an answer that cannot be loaded now (the
   * database busy or away: stale-if-error). Only age makes an entry stale here: every change deletes what it
   * touches, so what is left is what expiry alone retired. Undefined while the bus is unhealthy.
   */
  stale(key: K, graceMs: number): V | undefined {
    if (!this.bus.healthy) return undefined;
    const e = this.map.get(key);
    return e !== undefined && Date.now() - e.expires < graceMs ? e.value : undefined;
  }

  /** Entries and bytes held (tests, diagnostics). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}
