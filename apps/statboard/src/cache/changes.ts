import type { Queryable } from '#src/db/types.ts';
import type { CacheMeter, Metrics } from '#src/metrics/metrics.ts';
import type { Change, ChangeBus } from './bus.ts';
import { type Admission, type ByteBudget, Cache } from './cache.ts';

/**
 * A service's link to the change bus: the caches it may keep, and how it announces what it changed. Services
 * built on a transaction keep no caches (their reads must see the transaction's own writes); what they change
 * is announced once the transaction has committed.
 */
export class Changes {
  constructor(
    readonly bus: ChangeBus,
    /** False for services built on a transaction. */
    readonly caching: boolean,
    /** Where caches count their hits and misses (METRICS_PORT set), or null. */
    private readonly metrics: Metrics | null = null,
  ) {}

  /**
   * A cache on this bus, or null where the service must not cache or its byte budget is 0 (a setting such as
   * `PAGE_CACHE_MB=0`: nothing kept). `name` labels its reads in `statboard_cache_requests_total{cache}`.
   */
  cache<K, V>(
    name: string,
    ttlMs: number,
    maxEntries: number,
    budget: ByteBudget<V> | null = null,
    admission: Admission<K> | null = null,
  ): Cache<K, V> | null {
    if (!this.caching || (budget !== null && budget.max <= 0)) return null;
    return new Cache<K, V>(this.bus, ttlMs, maxEntries, budget, this.meter(name), admission);
  }

  /** The hit and miss counters of the cache `name`, or null without metrics or caches. */
  meter(name: string): CacheMeter | null {
    return this.caching && this.metrics ? this.metrics.cacheMeter(name) : null;
  }

  /** Calls `fn` with every change (null: anything may have changed), where the service keeps caches. */
  onChange(fn: (change: Change | null) => void): void {
    if (this.caching) this.bus.subscribe(fn);
  }

  /**
   * Tells every cache what changed: at once on a plain connection, after COMMIT inside a transaction (so a
   * rollback invalidates nothing and no reader can refill a cache with data that is not yet committed).
   */
  async publish(db: Queryable, change: Change): Promise<void> {
    if (db.afterCommit) db.afterCommit(() => void this.bus.publish(change));
    else await this.bus.publish(change);
  }
}
