import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/process.ts';
import { ModClient } from './lib/mods.ts';
import { checkLedger, STAT, seed } from './lib/seed.ts';
import { ONCE_DONE, ServiceProcess } from './lib/service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The embedded database (PGlite) killed mid-write, again and again, under mod-like uploads. */
describe.skipIf(ONCE_DONE)('chaos: the embedded database killed mid-write', () => {
  let dataDir: string;
  let workspaceId = '';
  let mods: ModClient[] = [];
  let service: ServiceProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'statboard-chaos-embedded-'));
    const seeded = await seed({ dataDir });
    workspaceId = seeded.workspaceId;
    service = new ServiceProcess({ DATABASE_URL: '', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' }, await freePort());
    await service.start();
    mods = Array.from({ length: 8 }, () => new ModClient(() => service.url, seeded.clientKey, STAT, 10));
    for (const m of mods) m.start();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(mods.map((m) => m.stop()));
    await service?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('loses nothing acknowledged, stores no event twice, and restarts cleanly each time', async () => {
    const restarts: number[] = [];
    for (let round = 0; round < 4; round++) {
      await sleep(1_000 + Math.random() * 500);
      service.signal('SIGKILL');
      await service.exited();
      const t = Date.now();
      await service.start();
      restarts.push(Date.now() - t);
    }
    await sleep(500);
    await Promise.all(mods.map((m) => m.stop()));
    await service.stop();
    const ledger = await checkLedger({ dataDir }, workspaceId, mods);
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(ledger.acked).toBeGreaterThan(40);
    for (const ms of restarts) expect(ms).toBeLessThan(30_000);
    console.log(
      `chaos/embedded: ${ledger.acked} batches acknowledged; restarts after SIGKILL took ${restarts.join(', ')} ms`,
    );
  }, 120_000);
});
