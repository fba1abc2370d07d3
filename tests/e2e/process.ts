import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The environment of one black-box run: a temp DATA_DIR, and a fresh database when TEST_DATABASE_URL is set. */
export interface Env {
  vars: Record<string, string>;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function makeEnv(extra: Record<string, string> = {}): Promise<Env> {
  const dataDir = await mkdtemp(join(tmpdir(), 'statboard-e2e-'));
  const vars: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extra };
  let dbName: string | null = null;
  if (TEST_DATABASE_URL) {
    dbName = `statboard_e2e_${randomUUID().replace(/-/g, '')}`;
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${dbName}`;
    vars.DATABASE_URL = u.toString();
  }
  return {
    vars,
    dataDir,
    async cleanup() {
      await rm(dataDir, { recursive: true, force: true });
      if (dbName && TEST_DATABASE_URL) {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      }
    },
  };
}

function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
  // The tests' own database settings must not leak into the program under test.
  if (!('DATABASE_URL' in vars)) delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return env;
}

/** A command that has not ended after this long is stopped, so that it cannot hold the database for the next. */
const CLI_LIMIT_MS = 100_000;

/** Runs `npx statboard …` and returns exit code, stdout and stderr. */
export function cli(
  args: string[],
  vars: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/statboard'), args, {
      cwd: ROOT,
      env: childEnv(vars),
      timeout: CLI_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface Service {
  child: ChildProcess;
  port: number;
  url: string;
  logs(): string;
  stop(): Promise<number | null>;
}

/** Starts `npm start` as a process on 127.0.0.1 and waits for /health/ready. */
export async function startService(vars: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: childEnv({ ...vars, PORT: String(port), HOST: '127.0.0.1' }),
    detached: true, // its own process group: stop() ends npm and the node it started
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`service did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    port,
    url,
    logs: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve(child.exitCode);
          return;
        }
        const kill = (signal: NodeJS.Signals, group: boolean) => {
          try {
            process.kill(group ? -child.pid! : child.pid!, signal);
          } catch {
            // already gone
          }
        };
        const force = setTimeout(() => kill('SIGKILL', true), 20_000);
        child.once('exit', (code) => {
          clearTimeout(force);
          resolve(code);
        });
        // Signal the service itself (its pid is in every log line): npm then exits with the service's exit code.
        const pid = Number(/"pid":(\d+)/.exec(output)?.[1]);
        if (pid > 0) {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {
            kill('SIGTERM', true);
          }
        } else kill('SIGTERM', true);
      }),
  };
}
