import type { Queryable } from '#src/db/types.ts';
import type { ChangeBus } from './bus.ts';

interface Entry<V> {
  value: V;
  expires: number;
  /** Bytes counted against the budget (0 without one). */
  size: number;
}

/** A budget in bytes on top of the entry count, for values whose size varies (serialized answers). */
export interface ByteBudget<V> {
  max: number;
  sizeOf(value: V): number;
}

/**
 * A bounded in-process cache whose entries are used only while the change bus is healthy. A value loaded
 * while a change arrived is not stored (the generation moved), so a read racing a write never pins stale data.
 * Entries also expire after `ttlMs`, a safety net for a notification that never came.
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
  ) {}

  /** The cached value without waiting, or undefined when there is none to use (then call `get`). */
  peek(key: K): V | undefined {
    if (!this.bus.healthy) return undefined;
    const hit = this.map.get(key);
    return hit !== undefined && hit.expires > Date.now() ? hit.value : undefined;
  }

  /**
   * The cached value, at once (no promise on a hit), or `load()`'s, which is stored unless `keep` says no
   * (e.g. for a miss). Misses of one key while its load is in flight share that load, unless a change came in
   * since it started: a read that begins after a write never gets an answer loaded before it.
   */
  get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): V | Promise<V> {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const gen = this.generation;
    const inFlight = this.loading.get(key);
    if (inFlight !== undefined && inFlight.generation === gen) return inFlight.value;
    const value = load().then(
      (v) => {
        if (this.loading.get(key) === entry) this.loading.delete(key);
        if (this.bus.healthy && gen === this.generation && keep(v)) this.set(key, v);
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

  private set(key: K, value: V): void {
    const size = this.budget ? this.budget.sizeOf(value) : 0;
    if (this.budget && size > this.budget.max) return;
    this.remove(key);
    // Drop the oldest insertions (Map keeps insertion order): cheap and good enough for hot sets.
    while (this.map.size >= this.maxEntries || (this.budget && this.bytes + size > this.budget.max)) {
      const first = this.map.keys().next();
      if (first.done) break;
      this.remove(first.value);
    }
    this.map.set(key, { value, expires: Date.now() + this.ttlMs, size });
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

  /** Entries and bytes held (tests, diagnostics). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}

/**
 * A cache for a service built on the main database handle; null for one built on a transaction (reads inside a
 * transaction must see its own writes) or on a database without a change bus.
 */
export function cacheFor<K, V>(
  db: Queryable,
  ttlMs: number,
  maxEntries: number,
  budget: ByteBudget<V> | null = null,
): Cache<K, V> | null {
  return db.changes && !db.afterCommit ? new Cache<K, V>(db.changes, ttlMs, maxEntries, budget) : null;
}
