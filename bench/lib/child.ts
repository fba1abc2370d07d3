import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/../..). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  pid: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/**
 * How the script's package starts it (`npm start`: its package.json's `start` script, when that runs this
 * script), so that a benchmark measures the process an operator runs: e.g. Statboard's bundle, built by
 * `prestart`, with `--max-semi-space-size`.
 */
interface StartScript {
  /** The package's folder (relative to the repository root). */
  dir: string;
  /** The node flags of `start`. */
  flags: string[];
  /** `prestart`, which `npm start` runs first (Statboard: the build of the bundle it runs). */
  prestart: string | null;
}

function startScript(script: string): StartScript | null {
  const parts = script.split('/');
  for (let i = parts.length - 1; i > 0; i--) {
    const dir = parts.slice(0, i).join('/');
    const file = join(ROOT, dir, 'package.json');
    if (!existsSync(file)) continue;
    const scripts: Record<string, string> | undefined = JSON.parse(readFileSync(file, 'utf8')).scripts;
    const words = scripts?.start?.split(/\s+/) ?? [];
    if (words[0] !== 'node' || words.at(-1) !== parts.slice(i).join('/')) return null;
    return { dir, flags: words.slice(1, -1), prestart: scripts?.prestart ?? null };
  }
  return null;
}

/** Packages whose `prestart` ran in this process. */
const prepared = new Set<string>();

/** Runs the package's `prestart` once per process, as `npm start` does before it starts. */
function prepare(start: StartScript | null): void {
  if (!start?.prestart || prepared.has(start.dir)) return;
  const run = spawnSync('sh', ['-c', start.prestart], { cwd: join(ROOT, start.dir), stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`${start.dir}: prestart (${start.prestart}) failed`);
  prepared.add(start.dir);
}

/**
 * Starts `node <script>` (a path relative to the repository root; a TypeScript one through tsx) with PORT/HOST
 * set, after its package's `prestart` when `npm start` would run one, and waits until GET `readyPath` answers
 * 200. Its stderr is kept and shown if it dies early.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  readyPath: string,
  timeoutMs = 60_000,
  /** taskset's CPU list: the server runs on these CPUs only. */
  cpus?: string,
  /** A file for the server's stdout (its log, as an operator would keep it); default: discarded. */
  stdoutFile?: string,
): Promise<RunningServer> {
  const port = await freePort();
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the servers' node: for profiling.
  // BENCH_STDERR=1 shows the servers' stderr as it comes (otherwise only when one dies during start-up), and
  // BENCH_STDOUT=1 their stdout (e.g. with BENCH_NODE_ARGS=--trace-gc).
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const start = startScript(script);
  prepare(start);
  const typescript = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const node = [process.execPath, ...(start?.flags ?? []), ...extra, ...typescript, script];
  // taskset sets the affinity and execs node: the pid is node's.
  const [cmd, ...args] = cpus === undefined ? node : ['taskset', '-c', cpus, ...node];
  const child: ChildProcess = spawn(cmd!, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', process.env.BENCH_STDOUT ? 'inherit' : stdoutFile ? openSync(stdoutFile, 'a') : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
    if (process.env.BENCH_STDERR) process.stderr.write(d);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (dead) throw new Error(`${script} exited during start-up:\n${stderr}`);
    try {
      const res = await fetch(url + readyPath);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} was not ready within ${timeoutMs} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.pid === undefined) throw new Error(`${script}: no pid`);
  return {
    pid: child.pid,
    url,
    async stop() {
      if (dead) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
