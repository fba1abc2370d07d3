import { createRequire } from 'node:module';
import { leanLoad } from './http-client.ts';
import { type CaseResult, Latencies, summarize } from './stats.ts';
import { randomInt } from './traffic.ts';
import { wrkAvailable, wrkLoad } from './wrk.ts';

/** The part of autocannon 9's programmatic API the benchmarks use (the package ships no types). */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request: lets the body or path differ per request. */
  setupRequest?: (req: LoadRequest) => LoadRequest;
  /** GETs only: every request is one of these paths, picked at random (wrk needs this form, not setupRequest). */
  paths?: readonly string[];
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

export type Loadgen = 'lean' | 'autocannon' | 'wrk';

function loadgenFromEnv(): Loadgen | null {
  const v = process.env.BENCH_LOADGEN;
  if (v === undefined || v === '') return null;
  if (v === 'lean' || v === 'autocannon' || v === 'wrk') return v;
  throw new Error(`BENCH_LOADGEN must be lean, autocannon or wrk, not ${JSON.stringify(v)}`);
}

/**
 * The HTTP load generator. For GET loads of path pools (`getsOnly`, the reads): BENCH_LOADGEN when set, else wrk
 * where it is installed, else the lean generator of http-client.ts. For other loads (the ingest's POSTs, each
 * with its own body) wrk cannot run: BENCH_LOADGEN=autocannon, else the lean generator.
 */
export function chooseLoadgen(getsOnly: boolean): Loadgen {
  const env = loadgenFromEnv();
  if (!getsOnly) return env === 'autocannon' ? 'autocannon' : 'lean';
  return env ?? (wrkAvailable() ? 'wrk' : 'lean');
}

/** One line for the reports: which generator ran, and where. */
export function loadgenNote(g: Loadgen): string {
  switch (g) {
    case 'lean':
      return 'the lean keep-alive generator of bench/lib/http-client.ts, in the bench process on the same cores';
    case 'autocannon':
      return 'autocannon, in the bench process on the same cores';
    case 'wrk':
      return 'wrk 4 (Debian package `wrk`, bench/lib/wrk.ts), up to 2 threads';
  }
}

/**
 * Keep-alive HTTP load at a fixed number of connections, one request in flight on each. Latency is measured
 * per response in sub-millisecond resolution; only 2xx responses count as done.
 */
export async function httpLoad(
  o: HttpLoadOptions,
  loadgen: Loadgen,
): Promise<CaseResult & { statuses: Record<number, number> }> {
  if (loadgen === 'wrk') return httpLoadWrk(o);
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
  const pool = o.request.paths;
  const request: LoadRequest =
    pool && pool.length > 0
      ? { ...o.request, setupRequest: (r) => ({ ...r, path: pool[randomInt(pool.length)] }) }
      : o.request;
  if (loadgen === 'lean') {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...o.headers, ...o.request.headers })) headers[k.toLowerCase()] = v;
    const base = request;
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
      requests: [request],
    });
    tracker.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
    const result = await tracker;
    failed += result.errors + result.timeouts;
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...summarize(lat, ok, failed, seconds), statuses };
}

/** httpLoad with wrk: GETs of `request.paths` (or the one `request.path`). Statuses are not told apart. */
async function httpLoadWrk(o: HttpLoadOptions): Promise<CaseResult & { statuses: Record<number, number> }> {
  const r = o.request;
  if ((r.method ?? 'GET') !== 'GET' || r.body !== undefined || (r.setupRequest && !r.paths)) {
    throw new Error('wrk runs GETs of a fixed path or of `paths` only');
  }
  const target = new URL(o.url);
  const paths = r.paths && r.paths.length > 0 ? r.paths : [r.path ?? `${target.pathname}${target.search}`];
  const result = await wrkLoad({
    url: target.origin,
    connections: o.connections,
    seconds: o.seconds,
    headers: { ...o.headers, ...r.headers },
    paths,
  });
  return {
    perSecond: result.ok / result.seconds,
    p50: result.p50,
    p99: result.p99,
    ok: result.ok,
    failed: result.failed,
    seconds: result.seconds,
    statuses: {},
  };
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
