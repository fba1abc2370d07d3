import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freePort, ROOT } from './process.ts';

interface Start {
  /** stdout and stderr together, the port written as PORT. */
  log: string;
  stderr: string;
  /** The exit code when the process ended by itself, else null (it was listening and was stopped). */
  exitCode: number | null;
}

function baseEnv(dataDir: string, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), ...extra };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'INIT_CWD', 'REDIS_URL', 'OIDC_ISSUER', 'NODE_ENV']) {
    delete env[name];
  }
  return env;
}

/** Starts the service on `dataDir` as the operator does, reads its log until it listens (or ends), then stops it. */
async function start(dataDir: string, extra: Record<string, string> = {}, port?: number): Promise<Start> {
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/statboard/src/server.ts'], {
    cwd: ROOT,
    env: baseEnv(dataDir, listenOn, extra),
  });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
    stderr += d;
  });
  // 'close', not 'exit': the last lines of its output are read by then.
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!/listening/i.test(out) && child.exitCode === null) {
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`no start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.exitCode === null) {
    // What it logs right after listening (bootstrap tokens) comes within moments.
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    await ended;
    return { log: out.replaceAll(String(listenOn), 'PORT'), stderr, exitCode: null };
  }
  const exitCode = await ended;
  return {
    log: out.replaceAll(String(listenOn), 'PORT'),
    stderr: stderr.replaceAll(String(listenOn), 'PORT'),
    exitCode,
  };
}

/** The log of a first start, as the operator reads it: in readable lines, or in JSON for a collector. */
async function firstStart(format: 'pretty' | 'json'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'statboard-first-start-'));
  try {
    return (await start(dataDir, { LOG_FORMAT: format })).log;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the log of a first start', () => {
  it('LOG_FORMAT=pretty: readable lines with the login URL and the bootstrap token on a line of its own', async () => {
    const log = await firstStart('pretty');
    const lines = log.split('\n').filter(Boolean);
    expect(lines.some((l) => l.trim().startsWith('{'))).toBe(false);
    expect(log).not.toContain('\\n');
    expect(lines.some((l) => /WARN.*DEVELOPMENT LOGIN ENABLED/.test(l))).toBe(true);
    expect(lines.some((l) => /console: open http:\/\/127\.0\.0\.1:PORT\/ in a browser/.test(l))).toBe(true);
    expect(lines.some((l) => /bootstrap token: stb_bootstrap_\S+/.test(l))).toBe(true);
    // The default PUBLIC_URL is loopback: one line says players cannot reach it, and what to set.
    const publicUrl = lines.filter((l) => /PUBLIC_URL is http:\/\/127\.0\.0\.1:PORT/.test(l));
    expect(publicUrl).toHaveLength(1);
    expect(publicUrl[0]).toMatch(/WARN.*players.*cannot reach.*set PUBLIC_URL to the address players use/);
    // The token comes after the service listens.
    const listening = lines.findIndex((l) => /listening/i.test(l));
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => /bootstrap token: /.test(l))).toBeGreaterThan(listening);
  }, 90_000);

  it('LOG_FORMAT=json: one JSON object per line, no message spanning lines', async () => {
    const log = await firstStart('json');
    const lines = log.split('\n').filter(Boolean);
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; level: number });
    for (const p of parsed) expect(p.msg).not.toContain('\n');
    expect(parsed.some((p) => p.msg.startsWith('bootstrap token: stb_bootstrap_'))).toBe(true);
  }, 90_000);

  it('a PUBLIC_URL players can reach: no warning about it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'statboard-first-start-'));
    try {
      const { log } = await start(dataDir, { LOG_FORMAT: 'json', PUBLIC_URL: 'https://stats.example.com' });
      expect(log).toMatch(/bootstrap token: stb_bootstrap_/);
      expect(log).not.toMatch(/PUBLIC_URL is/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('a start on a busy port', () => {
  let blocker: Server;
  let port = 0;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'statboard-busy-port-'));
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => blocker.close(r));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says so in one line and exits 2, before any bootstrap token is made or printed', async () => {
    const r = await start(dataDir, { LOG_FORMAT: 'json' }, port);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'port PORT on 127.0.0.1 is in use: is another Statboard running? Stop it, or set PORT (or HOST) to listen elsewhere.',
    ]);
    expect(r.log).not.toMatch(/stb_bootstrap_|EADDRINUSE|\n\s+at /);
    // Nothing was made that nobody saw: the next start, on a free port, logs the first token.
    const next = await start(dataDir, { LOG_FORMAT: 'json' });
    expect(next.exitCode).toBeNull();
    expect(next.log).toMatch(/bootstrap token: stb_bootstrap_/);
  }, 120_000);
});

describe('a workspace made with the CLI, which nobody owns yet', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'statboard-ownerless-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('gets a bootstrap token for it in the log once; later starts say where to enter one', async () => {
    const env = { DATA_DIR: dataDir };
    const made = await cli(['workspace', 'create', '--name', 'My Server', '--slug', 'my-server'], env);
    expect(made.code, made.stderr).toBe(0);
    const first = await start(dataDir, { LOG_FORMAT: 'pretty' });
    const lines = first.log.split('\n');
    expect(
      lines.some((l) =>
        /WARN.*workspace My Server \(my-server\) has no owner yet: open http:\/\/127\.0\.0\.1:PORT\/setup/.test(l),
      ),
    ).toBe(true);
    expect(lines.filter((l) => /bootstrap token: stb_bootstrap_\S+/.test(l))).toHaveLength(1);
    const again = await start(dataDir, { LOG_FORMAT: 'pretty' });
    expect(again.log).not.toMatch(/stb_bootstrap_/);
    expect(again.log).toMatch(/my-server.*npx statboard bootstrap-token --workspace my-server/);
  }, 120_000);
});
