import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * wrk (Debian's package `wrk`, written in C) as the HTTP load generator: keep-alive HTTP/1.1 on a fixed number
 * of connections, one request in flight on each, latency recorded per response in microseconds. It takes a
 * fraction of the CPU a Node.js generator takes per request, and none of its own pauses (event-loop turns,
 * garbage collection, reading 20 KB answers in JavaScript) end up in the latencies: on this 2-core machine a
 * bare node:http server returning 20 KB measured p99 5–7 ms with the Node.js generator and 1.3–1.7 ms with wrk
 * at 16 connections, at the same req/s.
 *
 * Each request is a GET of one of `paths`, picked at random (Lua's math.random, seeded per thread).
 */

export interface WrkOptions {
  /** `http://127.0.0.1:port` */
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** GET paths (with their query); each request picks one at random. */
  paths: readonly string[];
}

export interface WrkResult {
  /** Responses with a status below 400. */
  ok: number;
  /** Responses with a status of 400 or more, and connect, read, write and timeout errors. */
  failed: number;
  seconds: number;
  /** Milliseconds, over every response. */
  p50: number;
  p99: number;
}

let available: boolean | null = null;

/** Whether `wrk` is on the PATH. */
export function wrkAvailable(): boolean {
  if (available === null) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch (err) {
      // `wrk --version` prints its usage and exits 1: it ran.
      available = (err as { status?: number }).status === 1;
    }
  }
  return available;
}

/** A Lua string literal (the paths and header values are ASCII; anything else is escaped byte by byte). */
function luaString(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${byte}`;
  }
  return `${out}"`;
}

/**
 * The Lua script: the path pool (read from `pathsFile`, a path a line: a table literal is limited to 65,536
 * strings, and a "random player" must be one of all of them), a per-thread seed, and a JSON line of the results
 * at the end.
 */
function script(pathsFile: string): string {
  return `
local paths = {}
for line in io.lines(${luaString(pathsFile)}) do paths[#paths + 1] = line end
local n = #paths
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
end
function init(args)
  math.randomseed(os.time() * 1000 + (seed or 0))
end
function request()
  return wrk.format("GET", paths[math.random(n)])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"p50_us":%.1f,"p99_us":%.1f,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect, e.read, e.write, e.timeout))
end
`;
}

export async function wrkLoad(o: WrkOptions): Promise<WrkResult> {
  if (o.paths.length === 0) throw new Error('wrk: no paths');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const file = join(dir, 'paths.lua');
    const pathsFile = join(dir, 'paths.txt');
    if (o.paths.some((p) => /[\r\n]/.test(p))) throw new Error('wrk: a path with a line break');
    writeFileSync(pathsFile, `${o.paths.join('\n')}\n`);
    writeFileSync(file, script(pathsFile));
    // Two threads at most (BENCH_WRK_THREADS to change it): unpinned on 2 cores, one thread measured a worse
    // tail (its one thread shares a core with the server under test), and more threads only add switching.
    const threads = Math.max(1, Math.min(Number(process.env.BENCH_WRK_THREADS ?? 2), o.connections));
    const args = [
      `-t${threads}`,
      `-c${o.connections}`,
      `-d${o.seconds}s`,
      '--timeout',
      '10s',
      '-s',
      file,
      ...Object.entries(o.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
      o.url,
    ];
    const out = await new Promise<string>((resolve, reject) => {
      execFile('wrk', args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
        err ? reject(new Error(`wrk failed: ${err.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
    if (!line) throw new Error(`wrk printed no result:\n${out}`);
    const r = JSON.parse(line.slice('WRK_RESULT '.length)) as {
      requests: number;
      duration_us: number;
      p50_us: number;
      p99_us: number;
      status: number;
      connect: number;
      read: number;
      write: number;
      timeout: number;
    };
    return {
      ok: r.requests - r.status,
      failed: r.status + r.connect + r.read + r.write + r.timeout,
      seconds: r.duration_us / 1e6,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
