import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Seconds: the fast reads answer in well under a millisecond, an upload waits for its commit. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Route label of a request no route matched (a 404 of the router): never the raw path, which is unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What one upload came to, as `statboard_ingest_batches_total{result}` counts it. */
export type IngestResultLabel = 'accepted' | 'dry_run' | 'rejected' | 'error';

/** How a cache counts its reads (`statboard_cache_requests_total{cache,result}`). */
export interface CacheMeter {
  hit(): void;
  miss(): void;
}

interface RequestSeries {
  count: Counter.Internal;
  duration: Histogram.Internal<string>;
}

/**
 * The service's Prometheus metrics, in a registry of its own (several apps in one process, as in tests, never
 * mix their counts). Every label is bounded: route templates (`/api/v1/players/:player`), methods, status codes,
 * error codes of the registry, cache names and fixed results; never a raw path, a key or a player.
 * With METRICS_PORT unset no instance exists, and the code that counts costs one null check.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly durations: Histogram<'route' | 'method'>;
  private readonly batches: Counter<'result'>;
  private readonly values: Counter;
  private readonly rejections: Counter<'code'>;
  private readonly caches: Counter<'cache' | 'result'>;
  private readonly deliveries: Counter<'result'>;
  private readonly held: Counter<'rule'>;
  /** Label children by `route method status`: a request looks its series up once, with no label hashing. */
  private readonly series = new Map<string, RequestSeries>();

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'statboard_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status code',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'statboard_http_request_duration_seconds',
      help: 'Time from receiving a request to its answer being written, by route template and method',
      labelNames: ['route', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.batches = new Counter({
      name: 'statboard_ingest_batches_total',
      help: 'Uploads to POST /api/v1/ingest/batch by result: accepted, dry_run, rejected (4xx) or error (5xx)',
      labelNames: ['result'],
      registers,
    });
    this.values = new Counter({
      name: 'statboard_ingest_values_total',
      help: 'Statistic values in accepted uploads',
      registers,
    });
    this.rejections = new Counter({
      name: 'statboard_ingest_rejections_total',
      help: 'Rejected uploads by error code (the code of the error answer)',
      labelNames: ['code'],
      registers,
    });
    this.caches = new Counter({
      name: 'statboard_cache_requests_total',
      help: 'Reads of the in-memory caches by cache and result (hit: answered from memory; miss: loaded)',
      labelNames: ['cache', 'result'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'statboard_webhook_deliveries_total',
      help: 'Webhook delivery attempts by result: success, failure (retried later) or given_up (after 24 hours)',
      labelNames: ['result'],
      registers,
    });
    this.held = new Counter({
      name: 'statboard_ingest_held_values_total',
      help: 'Values of client uploads held for review by the rule that held them: rate, above_verified, first_sight or rename',
      labelNames: ['rule'],
      registers,
    });
    for (const result of ['accepted', 'dry_run', 'rejected', 'error']) this.batches.labels(result);
    for (const rule of ['rate', 'above_verified', 'first_sight', 'rename']) this.held.labels(rule).inc(0);
    for (const result of ['success', 'failure', 'given_up']) this.deliveries.labels(result);
    collectDefaultMetrics({ register: this.registry });
  }

  /** One answered request. `route`: the route's template, or UNMATCHED_ROUTE. */
  request(route: string, method: string, status: number, seconds: number): void {
    const id = `${route} ${method} ${status}`;
    let s = this.series.get(id);
    if (s === undefined) {
      s = {
        count: this.requests.labels(route, method, String(status)),
        duration: this.durations.labels(route, method),
      };
      this.series.set(id, s);
    }
    s.count.inc();
    s.duration.observe(seconds);
  }

  /** One upload's outcome; `values` counts for accepted uploads, `code` for rejected ones. */
  ingest(result: IngestResultLabel, values: number, code: string | null): void {
    this.batches.labels(result).inc();
    if (result === 'accepted' && values > 0) this.values.inc(values);
    if (result === 'rejected' && code !== null) this.rejections.labels(code).inc();
  }

  /** Values of one client upload held for review by `rule` (`rename`: a username). */
  heldValues(rule: 'rate' | 'above_verified' | 'first_sight' | 'rename', count: number): void {
    this.held.labels(rule).inc(count);
  }

  /** The counters of the cache named `name` (its series exist, at 0, from now on). */
  cacheMeter(name: string): CacheMeter {
    const hits = this.caches.labels(name, 'hit');
    const misses = this.caches.labels(name, 'miss');
    return { hit: () => hits.inc(), miss: () => misses.inc() };
  }

  /** One webhook delivery attempt's result. */
  webhookDelivery(result: 'success' | 'failure' | 'given_up'): void {
    this.deliveries.labels(result).inc();
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
