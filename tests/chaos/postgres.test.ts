import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgCluster, postgresBin } from './lib/cluster.ts';
import { type Answer, ModClient } from './lib/mods.ts';
import { checkLedger, STAT, seed } from './lib/seed.ts';
import { ONCE_DONE, ServiceProcess } from './lib/service.ts';

/**
 * The service against a PostgreSQL cluster of the test's own, under the load of 16 mod-like clients, while the
 * database is stopped, crashed, hung and has its connections terminated, and while the service itself is
 * killed and stopped. Every answer is recorded; at the end every acknowledged batch must be in the database.
 */
const MODS = 16;
const BOUND_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(postgresBin() === null || ONCE_DONE)('chaos: PostgreSQL faults under mod-like load', () => {
  let cluster: PgCluster;
  let service: ServiceProcess;
  let mods: ModClient[] = [];
  let workspaceId = '';
  let url = '';
  const all = (): Answer[] => mods.flatMap((m) => m.answers);
  const between = (from: number, to: number) => all().filter((a) => a.at >= from && a.at <= to);

  beforeAll(async () => {
    cluster = await PgCluster.create();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE chaos');
    await admin.end();
    url = cluster.url.replace(/\/postgres$/, '/chaos');
    const seeded = await seed({ url });
    workspaceId = seeded.workspaceId;
    service = new ServiceProcess({ DATABASE_URL: url, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0' });
    await service.start();
    mods = Array.from({ length: MODS }, () => new ModClient(() => service.url, seeded.clientKey, STAT));
    for (const m of mods) m.start();
    await sleep(1_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(mods.map((m) => m.stop()));
    await service?.stop();
    cluster?.destroy();
  }, 60_000);

  /** Waits until every client has had a 200 after `since`; returns how long that took. */
  async function recovered(since: number, limitMs = 15_000): Promise<number> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const ok = mods.every((m) => m.answers.some((a) => a.at >= since && a.status === 200));
      if (ok) return Date.now() - since;
      if (Date.now() > deadline) throw new Error('the clients did not recover');
      await sleep(50);
    }
  }

  /** While the fault lasted: only 503 with Retry-After, each within the bound; one outage line, no stack. */
  function expectOutageAnswers(from: number, to: number): void {
    const during = between(from, to);
    expect(during.length).toBeGreaterThan(0);
    for (const a of during) {
      if (a.status === 200) continue; // committed before the fault took hold
      expect(a.status, JSON.stringify(a)).toBe(503);
      expect(a.code).toBe('SERVICE_UNAVAILABLE');
      expect(a.retryAfter).toMatch(/^\d+$/);
    }
    for (const a of during) expect(a.ms, JSON.stringify(a)).toBeLessThanOrEqual(BOUND_MS);
  }

  function expectOutageLog(from: number): void {
    const lines = service.linesSince(from);
    expect(lines.filter((l) => l.msg === 'database unavailable')).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'database available again')).toHaveLength(1);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }

  async function ready(): Promise<number> {
    const r = await fetch(`${service.url}/health/ready`, { signal: AbortSignal.timeout(10_000) });
    await r.arrayBuffer();
    return r.status;
  }

  it('serves the clients', () => {
    for (const m of mods) expect(m.acked.length).toBeGreaterThan(0);
  });

  it('database stopped: 503 with Retry-After at once, readiness 503, one log line each way, recovery by itself', async () => {
    const from = Date.now();
    cluster.stop();
    await sleep(3_000);
    expect(await ready()).toBe(503);
    const to = Date.now();
    cluster.start();
    const took = await recovered(Date.now());
    expect(took).toBeLessThan(5_000);
    expectOutageAnswers(from + 200, to);
    expectOutageLog(from);
    expect(await ready()).toBe(200);
  }, 60_000);

  it('database crashed (postmaster and backends killed): the same, and the restart recovers from its WAL', async () => {
    const from = Date.now();
    cluster.crash();
    await sleep(2_000);
    const to = Date.now();
    cluster.start();
    await recovered(Date.now());
    expectOutageAnswers(from + 200, to);
    expectOutageLog(from);
  }, 60_000);

  it('database hung (every process stopped): each request answered 503 within 5 s, memory bounded, recovery', async () => {
    const from = Date.now();
    cluster.hang();
    try {
      await sleep(8_000);
      expect(await ready()).toBe(503);
    } finally {
      cluster.resume();
    }
    const to = Date.now();
    await recovered(Date.now());
    expectOutageAnswers(from, to);
    expect(between(from, to).filter((a) => a.status === 503).length).toBeGreaterThan(MODS);
    expectOutageLog(from);
  }, 60_000);

  it('connections terminated: the next requests succeed, without a 500', async () => {
    const from = Date.now();
    expect(await cluster.terminateConnections('chaos')).toBeGreaterThan(0);
    await recovered(Date.now());
    for (const a of between(from, Date.now())) expect([200, 503]).toContain(a.status);
  }, 30_000);

  it('service killed (SIGKILL) and restarted: clients resume, nothing acknowledged is lost', async () => {
    service.signal('SIGKILL');
    await service.exited();
    await sleep(500);
    await service.start();
    await recovered(Date.now());
    const ledger = await checkLedger({ url }, workspaceId, mods);
    expect(ledger.lost).toEqual([]);
  }, 60_000);

  it('SIGTERM under load: in-flight requests answered, exit code 0 within SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const from = Date.now();
    service.signal('SIGTERM');
    const { code } = await service.exited();
    const took = Date.now() - from;
    expect(code).toBe(0);
    expect(took).toBeLessThan(10_000);
    const lines = service.linesSince(from);
    expect(lines.some((l) => l.msg === 'shutting down')).toBe(true);
    expect(lines.some((l) => l.msg === 'shut down')).toBe(true);
    // Every request got an answer or a closed connection; none got a 500.
    for (const a of between(from, Date.now())) expect([0, 200, 503]).toContain(a.status);
  }, 30_000);

  it('no acknowledged batch lost, no event stored twice, no 500 ever', async () => {
    await Promise.all(mods.map((m) => m.stop()));
    const ledger = await checkLedger({ url }, workspaceId, mods);
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(ledger.acked).toBeGreaterThan(MODS * 10);
    const statuses = new Set(all().map((a) => a.status));
    expect([...statuses].filter((s) => ![0, 200, 503].includes(s))).toEqual([]);
    const count = (s: number) => all().filter((a) => a.status === s).length;
    const slowest503 = Math.max(
      0,
      ...all()
        .filter((a) => a.status === 503)
        .map((a) => a.ms),
    );
    console.log(
      `chaos/postgres: ${ledger.acked} batches acknowledged by ${MODS} clients; answers: ${count(200)} × 200, ` +
        `${count(503)} × 503 (slowest ${slowest503.toFixed(0)} ms), ${count(0)} network errors; ` +
        `log: ${service.lines.length} lines`,
    );
  }, 30_000);
});
