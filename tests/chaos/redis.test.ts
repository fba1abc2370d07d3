import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/process.ts';
import { ModClient } from './lib/mods.ts';
import { STAT, seed } from './lib/seed.ts';
import { ONCE_DONE, ServiceProcess } from './lib/service.ts';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A redis-server of the test's own, on a free port, keeping nothing on disk. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (
    spawnSync('redis-cli', ['-p', String(port), 'ping'])
      .stdout?.toString()
      .trim() !== 'PONG'
  ) {
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await sleep(50);
  }
  return child;
}

describe.skipIf(!hasRedis || ONCE_DONE)('chaos: Redis down (REDIS_URL)', () => {
  let dataDir: string;
  let redisPort: number;
  let redis: ChildProcess;
  let service: ServiceProcess;
  let mods: ModClient[];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'statboard-chaos-redis-'));
    const { clientKey } = await seed({ dataDir });
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    service = new ServiceProcess({
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    await service.start();
    mods = Array.from({ length: 4 }, () => new ModClient(() => service.url, clientKey, STAT));
    for (const m of mods) m.start();
    await sleep(500);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(mods.map((m) => m.stop()));
    await service?.stop();
    redis?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('keeps serving uploads without delay while Redis is gone, logs its loss and return once each', async () => {
    const from = Date.now();
    redis.kill('SIGKILL');
    await sleep(3_000);
    redis = await startRedis(redisPort);
    const deadline = Date.now() + 10_000;
    while (!service.linesSince(from).some((l) => l.msg === 'redis available again') && Date.now() < deadline) {
      await sleep(100);
    }
    const answers = mods.flatMap((m) => m.answers).filter((a) => a.at >= from);
    expect(answers.length).toBeGreaterThan(20);
    for (const a of answers) expect(a.status, JSON.stringify(a)).toBe(200);
    for (const a of answers) expect(a.ms).toBeLessThan(1_000);
    const lines = service.linesSince(from);
    expect(lines.filter((l) => l.msg.startsWith('redis unavailable'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'redis available again')).toHaveLength(1);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 30_000);
});
