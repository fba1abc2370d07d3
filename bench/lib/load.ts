import { createRequire } from 'node:module';
import { leanLoad } from './http-client.ts';
import { type CaseResult, Latencies, summarize } from './stats.ts';

/** The part of autocannon 9's programmatic API the benchmarks use (the package ships no types). */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request: lets the body or path differ per request. */
  setupRequest?: (req: LoadRequest) => LoadRequest;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: LoadRequest[];
}

interface Tracker extends PromiseLike<{ errors: number; timeouts: number; non2xx: number }> {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Tracker;

export interface HttpLoadOptions {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** One request template (with `setupRequest` to vary it); autocannon repeats it on every connection. */
  request: LoadRequest;
}

/** Which HTTP load generator `httpLoad` uses: the lean one (default) or autocannon (BENCH_LOADGEN=autocannon). */
export const LOADGEN: 'lean' | 'autocannon' = process.env.BENCH_LOADGEN === 'autocannon' ? 'autocannon' : 'lean';

/** One line for the reports: which generator ran, and where. */
export const LOADGEN_NOTE =
  LOADGEN === 'lean'
    ? 'the lean keep-alive generator of bench/lib/http-client.ts, in the bench process on the same cores'
    : 'autocannon, in the bench process on the same cores';

/**
 * Keep-alive HTTP load at a fixed number of connections, one request in flight on each. Latency is measured
 * per response in sub-millisecond resolution; only 2xx responses count as done.
 */
export async function httpLoad(o: HttpLoadOptions): Promise<CaseResult & { statuses: Record<number, number> }> {
  const lat = new Latencies();
  const statuses: Record<number, number> = {};
  let ok = 0;
  let failed = 0;
  const onResponse = (status: number, ms: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) {
      ok++;
      lat.record(ms);
    } else {
      failed++;
    }
  };
  const started = performance.now();
  if (LOADGEN === 'lean') {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...o.headers, ...o.request.headers })) headers[k.toLowerCase()] = v;
    const base = o.request;
    const target = new URL(o.url);
    const defaultPath = `${target.pathname}${target.search}`;
    const result = await leanLoad({
      url: target.origin,
      connections: o.connections,
      seconds: o.seconds,
      headers,
      next: () => {
        const r = base.setupRequest ? base.setupRequest({ ...base }) : base;
        return { method: r.method ?? 'GET', path: r.path ?? defaultPath, body: r.body };
      },
      onResponse,
    });
    failed += result.errors;
  } else {
    const tracker = autocannon({
      url: o.url,
      connections: o.connections,
      duration: o.seconds,
      headers: o.headers,
      requests: [o.request],
    });
    tracker.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
    const result = await tracker;
    failed += result.errors + result.timeouts;
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...summarize(lat, ok, failed, seconds), statuses };
}

/**
 * Runs `worker` on `concurrency` independent loops until `seconds` pass; each call is one timed operation.
 * For clients that are not HTTP (a `pg` connection, PGlite in-process).
 */
export async function loopLoad(
  concurrency: number,
  seconds: number,
  worker: (loop: number) => Promise<void>,
): Promise<CaseResult> {
  const lat = new Latencies();
  let ok = 0;
  let failed = 0;
  let firstError: unknown = null;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await worker(loop);
          lat.record(performance.now() - t);
          ok++;
        } catch (err) {
          failed++;
          firstError ??= err;
        }
      }
    }),
  );
  if (firstError !== null && ok === 0) throw firstError;
  return summarize(lat, ok, failed, (performance.now() - started) / 1000);
}
