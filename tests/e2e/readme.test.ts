import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, TEST_DATABASE_URL } from './process.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium`);

/**
 * The README's commands, read from the README itself and run as they stand, so the README cannot drift from what
 * works. They run in a fresh folder that looks like a clone (the repository's files linked in, its own `./data`),
 * with two liberties, both about the machine rather than the commands: `npm ci` has already run (it is what CI
 * does before the tests), and the port is a free one instead of 8080 (`PORT` is set and `:8080` in a URL is
 * replaced by it). `npm test` is not run from within the tests. The commands use the embedded database, so they run
 * on the embedded pass of `npm test` only.
 */

/** The shell commands of the ```sh blocks of a README section: comments dropped, continuations joined. */
function commandsOf(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 4);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const out: string[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command !== '' && !command.startsWith('#')) out.push(command);
    }
  }
  return out;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(TEST_DATABASE_URL !== null)('the README, as a newcomer runs it', () => {
  let dir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let readme: string;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    dir = await mkdtemp(join(tmpdir(), 'statboard-readme-'));
    for (const f of [
      'node_modules',
      'apps',
      'packages',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.base.json',
    ]) {
      await symlink(join(ROOT, f), join(dir, f));
    }
    port = await freePort();
    env = { ...process.env, PORT: String(port) };
    for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'INIT_CWD', 'REDIS_URL']) delete env[name];
  });

  afterAll(async () => {
    for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  const local = (command: string) => command.replaceAll(':8080', `:${port}`);

  function run(command: string, extra: Record<string, string> = {}): Promise<Run> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', local(command)], { cwd: dir, env: { ...env, ...extra } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  /**
   * `npm start` in the background until /health/ready answers. The service's log is asynchronous (its lines reach
   * the pipe a little after they are written, and some are written after it listens), so a line is awaited with
   * `logged` rather than looked for at once.
   */
  async function start(
    command: string,
  ): Promise<{ stop(): Promise<number | null>; log(): string; logged(text: string | RegExp): Promise<string> }> {
    const child = spawn('bash', ['-c', `exec ${local(command)}`], { cwd: dir, env, detached: true });
    running.push(child);
    let log = '';
    child.stdout.on('data', (d) => {
      log += d;
    });
    child.stderr.on('data', (d) => {
      log += d;
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${command} did not become ready:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return {
      log: () => log,
      logged: async (text) => {
        const until = Date.now() + 15_000;
        const found = () => (typeof text === 'string' ? log.includes(text) : text.test(log));
        while (!found() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        return log;
      },
      stop: () =>
        new Promise((resolve) => {
          child.once('exit', (code) => resolve(code));
          // The service's own pid is in its log lines; npm passes on its exit code.
          const pid = Number(/"pid":(\d+)/.exec(log)?.[1]);
          process.kill(pid > 0 ? pid : -child.pid!, 'SIGTERM');
        }),
    };
  }

  it('quick start: `npm start` serves Statboard with the embedded database in ./data of the folder it ran in', async () => {
    const commands = commandsOf(readme, 'Quick start');
    expect(commands[0]).toMatch(/^npm ci && npm start$/);
    expect(commands[1]).toBe('npm test');
    const service = await start(commands[0]!.replace(/^npm ci && /, ''));
    try {
      const where = `embedded (PGlite) in ${join(dir, 'data')}`;
      expect(await service.logged(where)).toContain(where);
      // What `npm start` runs is the bundle it builds first: it finds the migrations and the console from there.
      expect(service.log()).toContain('node --max-semi-space-size=8 dist/server.js');
      expect(service.log()).toContain('"msg":"database migrated"');
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"></div>');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('five minutes: the CLI and `npm start` share one database; the website key reads; the CLI refuses while the service runs; the token gets the operator into the console', async () => {
    const commands = commandsOf(readme, 'Statboard in five minutes');
    const startAt = commands.indexOf('npm start');
    expect(startAt).toBeGreaterThan(0);
    let websiteKey = '';
    let clientKey = '';
    let bootstrapToken = '';
    for (const command of commands.slice(0, startAt)) {
      const r = await run(command);
      expect(r.code, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
      // The operator copies the secret the CLI printed.
      if (/--type website/.test(command)) websiteKey = /stb_website_\S+/.exec(r.stdout)?.[0] ?? '';
      if (/--type client/.test(command)) clientKey = /stb_client_\S+/.exec(r.stdout)?.[0] ?? '';
      if (/bootstrap-token/.test(command)) bootstrapToken = /stb_bootstrap_\S+/.exec(r.stdout)?.[0] ?? '';
    }
    expect(websiteKey).toMatch(/^stb_website_/);
    // The block ends with the way into the console: a token for the workspace it made, which nobody owns.
    expect(bootstrapToken).toMatch(/^stb_bootstrap_/);
    const service = await start('npm start');
    try {
      // The token from the CLI is still good: the start says where to enter it and prints no other.
      const noOwner = /workspace My Server \(my-server\) has no owner yet: open http:\/\/127\.0\.0\.1:\d+\/setup/;
      expect(await service.logged(noOwner)).toMatch(noOwner);
      expect(service.log()).not.toMatch(/stb_bootstrap_/);
      // The mod's "Test connection": the key works and nothing stands in the way of its uploads.
      const health = await fetch(`http://127.0.0.1:${port}/api/health`, {
        headers: { authorization: `Bearer ${clientKey}` },
      });
      expect(await health.json()).toEqual({ status: 'ok', key: { type: 'client', scopes: ['ingest:write'] } });
      // "Put the client key into the mod's config": the mod's first upload of a session, as it sends it.
      const now = new Date().toISOString();
      const upload = await fetch(`http://127.0.0.1:${port}/api/v1/ingest/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          protocol_version: 1,
          client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
          player: { uuid: '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b', username: 'Steve' },
          server: { hostname: 'mc.example.com', port: 25565 },
          session_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
          observed_at: now,
          stats: [{ key: 'minecraft.custom:minecraft.play_time', value: 72_000 }],
          events: [{ id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', type: 'SESSION_STARTED', occurred_at: now }],
        }),
      });
      expect(upload.status, await upload.clone().text()).toBe(200);
      for (const command of commands.slice(startAt + 1)) {
        const r = await run(command, { WEBSITE_KEY: websiteKey });
        expect(r.code, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
        if (command.startsWith('curl')) {
          const body = JSON.parse(r.stdout) as { season?: unknown; error?: unknown };
          expect(body.error, r.stdout).toBeUndefined();
          expect(body.season).toBeDefined();
          expect(JSON.stringify(body)).toContain('Steve');
        }
      }
      // The CLI refuses clearly while the service holds the embedded database.
      const busy = await run(commands[0]!);
      expect(busy.code).toBe(3);
      expect(busy.stderr).toMatch(/in use by process \d+/);

      // "open http://127.0.0.1:8080/setup, sign in, and paste the token": in a real browser, through the
      // development sign-in, into the console.
      const setupUrl = /open \*\*(http:\/\/127\.0\.0\.1:8080\/setup)\*\*, sign in, and paste the\s+token/.exec(
        readme,
      )?.[1];
      expect(setupUrl, 'the README says where to paste the token').toBeDefined();
      if (haveBrowser) {
        const browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
        });
        try {
          const page = await browser.newPage();
          await page.goto(local(setupUrl!));
          await page.getByRole('link', { name: 'Sign in' }).click();
          await page.locator('input[name="email"]').fill('operator@example.com');
          await page.locator('input[name="email"]').press('Enter');
          await page.waitForURL(local('http://127.0.0.1:8080/setup'));
          await page.getByRole('heading', { name: 'No access yet' }).waitFor();
          await page.getByLabel('Bootstrap token').fill(bootstrapToken);
          await page.getByRole('button', { name: 'Join workspace' }).click();
          await page.getByRole('heading', { name: 'Overview' }).waitFor();
          await page.waitForURL(local('http://127.0.0.1:8080/'));
          expect(await page.getByRole('alert').count()).toBe(0);
        } finally {
          await browser.close();
        }
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 180_000);
});
