import { leanLoad } from './http-client.ts';
import { type CaseResult, Latencies, summarize } from './stats.ts';
import { wrkAvailable, wrkLoad } from './wrk.ts';

/**
 * One load generator per job: GETs of path pools (the reads, the endpoint server) run on wrk (C, in its own
 * process, pinned apart from the server under test); POSTs that each carry their own body (the ingest) run on the
 * lean keep-alive client of http-client.ts, which wrk cannot drive without a script per body.
 */

export interface GetLoadOptions {
  /** `http://127.0.0.1:port` */
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Every request GETs one of these paths (with their query), picked at random. */
  paths: readonly string[];
}

/** Stops at once, naming the package, where wrk is missing. */
export function requireWrk(job: string): void {
  if (!wrkAvailable()) throw new Error(`${job} needs wrk: apt-get install wrk (Debian's package)`);
}

/** What the reports say about the GET load generator. */
export const WRK_NOTE = 'wrk 4 (Debian package `wrk`, bench/lib/wrk.ts), in its own process';

/** Keep-alive GET load with wrk at a fixed number of connections. */
export async function getLoad(o: GetLoadOptions): Promise<CaseResult> {
  const result = await wrkLoad({
    url: o.url,
    connections: o.connections,
    seconds: o.seconds,
    headers: o.headers ?? {},
    paths: o.paths,
  });
  return {
    perSecond: result.ok / result.seconds,
    p50: result.p50,
    p99: result.p99,
    ok: result.ok,
    failed: result.failed,
    seconds: result.seconds,
  };
}

export interface PostLoadOptions {
  /** `http://127.0.0.1:port/path` */
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** The body of the next request. */
  body: () => string;
}

/** What the reports say about the POST load generator. */
export const LEAN_NOTE = 'the lean keep-alive client of bench/lib/http-client.ts, in the bench process';

/**
 * Keep-alive POST load with the lean client, one request in flight per connection, each with its own body.
 * Latency is measured per response; only 2xx responses count as done.
 */
export async function postLoad(o: PostLoadOptions): Promise<CaseResult & { statuses: Record<number, number> }> {
  const lat = new Latencies();
  const statuses: Record<number, number> = {};
  let ok = 0;
  let failed = 0;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers)) headers[k.toLowerCase()] = v;
  const target = new URL(o.url);
  const path = `${target.pathname}${target.search}`;
  const started = performance.now();
  const result = await leanLoad({
    url: target.origin,
    connections: o.connections,
    seconds: o.seconds,
    headers,
    next: () => ({ method: 'POST', path, body: o.body() }),
    onResponse: (status: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        ok++;
        lat.record(ms);
      } else {
        failed++;
      }
    },
  });
  failed += result.errors;
  return { ...summarize(lat, ok, failed, (performance.now() - started) / 1000), statuses };
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
