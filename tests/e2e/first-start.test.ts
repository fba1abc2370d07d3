import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, ROOT } from './process.ts';

/** The log of a first start, as the operator reads it: in readable lines, or in JSON for a collector. */
async function firstStart(format: 'pretty' | 'json'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'statboard-first-start-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_FORMAT: format };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'INIT_CWD', 'REDIS_URL', 'OIDC_ISSUER', 'NODE_ENV']) {
    delete env[name];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/statboard/src/server.ts'], { cwd: ROOT, env });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  try {
    const deadline = Date.now() + 60_000;
    while (!/listening/i.test(out)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    return out.replaceAll(String(port), 'PORT');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
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
  }, 90_000);

  it('LOG_FORMAT=json: one JSON object per line, no message spanning lines', async () => {
    const log = await firstStart('json');
    const lines = log.split('\n').filter(Boolean);
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; level: number });
    for (const p of parsed) expect(p.msg).not.toContain('\n');
    expect(parsed.some((p) => p.msg.startsWith('bootstrap token: stb_bootstrap_'))).toBe(true);
  }, 90_000);
});
