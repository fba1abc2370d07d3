import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { Availability } from '#src/db/availability.ts';
import { openPg } from '#src/db/pg.ts';
import type { Db } from '#src/db/types.ts';
import { buildServices } from '#src/services.ts';
import {
  createTestDb,
  DB_KIND,
  type Fixture,
  type HttpAnswer,
  overHttp,
  seedWorkspace,
  type TestDb,
  testConfig,
} from '../helpers.ts';
import { TcpProxy } from './tcp-proxy.ts';

/**
 * The service against a real PostgreSQL server reached through a TCP proxy that the test breaks: refused and
 * cut connections (a stopped or crashed server), and a server that accepts but never answers (hung). The
 * service runs with its default timeouts.
 */
describe.skipIf(DB_KIND !== 'postgresql')('a database outage, seen from outside', () => {
  let tdb: TestDb;
  let fx: Fixture;
  let proxy: TcpProxy;
  let db: Db;
  let app: FastifyInstance;
  let url: string;
  const lines: { level: number; msg: string; err?: unknown }[] = [];

  beforeAll(async () => {
    tdb = await createTestDb();
    fx = await seedWorkspace(buildServices(tdb.db, testConfig()));
    const target = new URL(tdb.url!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const viaProxy = new URL(tdb.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l));
        cb();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const config = testConfig({ DATABASE_URL: viaProxy.toString() });
    db = openPg(viaProxy.toString(), {
      poolSize: 4,
      connectTimeoutMs: config.timeouts.databaseConnectMs,
      statementTimeoutMs: config.timeouts.databaseStatementMs,
      queryTimeoutMs: config.timeouts.databaseQueryMs,
      availability: new Availability(logger),
    });
    const services = buildServices(db, config);
    app = await buildApp({ config, services, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await proxy.stop();
    await app.close();
    await db.close().catch(() => undefined);
    await tdb.drop();
  });

  const player = randomUUID();
  let value = 0;
  const upload = (): Promise<HttpAnswer> =>
    overHttp(url, {
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: { authorization: `Bearer ${fx.keys.client}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        protocol_version: 1,
        client: { mod_version: '1.0.0', game_version: '1.21.4' },
        player: { uuid: player, username: 'Steve' },
        server: { hostname: 'mc.example.com', port: 25565 },
        session_id: randomUUID(),
        observed_at: new Date().toISOString(),
        stats: [{ key: 'minecraft.custom:minecraft.jump', value: ++value }],
        events: [{ id: randomUUID(), type: 'SESSION_STARTED', occurred_at: new Date().toISOString() }],
      }),
    });
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const t = performance.now();
    const out = await fn();
    return [out, performance.now() - t];
  };
  const errorLines = () => lines.filter((l) => l.level >= 50);
  const messages = () => lines.map((l) => l.msg).filter((m) => m.startsWith('database'));

  async function expectUnavailable(r: HttpAnswer, ms: number): Promise<void> {
    expect(r.statusCode).toBe(503);
    expect(r.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    expect(ms).toBeLessThan(5_000);
  }

  async function recovers(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await upload();
      if (r.statusCode === 200) return;
      if (Date.now() > deadline) throw new Error(`no recovery: ${r.statusCode} ${r.body}`);
      await new Promise((res) => setTimeout(res, 200));
    }
  }

  it('works through the proxy', async () => {
    expect((await upload()).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After at once while the database is down, logs the outage once, and recovers by itself', async () => {
    await proxy.down();
    for (let i = 0; i < 10; i++) {
      const [r, ms] = await timed(upload);
      await expectUnavailable(r, ms);
      expect(ms).toBeLessThan(2_500);
    }
    // A route that reads the database (not in a cache).
    const [seasons, ms] = await timed(() =>
      overHttp(url, { url: '/api/v1/seasons', headers: { authorization: `Bearer ${fx.keys.website}` } }),
    );
    expect([200, 503]).toContain(seasons.statusCode);
    expect(ms).toBeLessThan(5_000);
    const ready = await overHttp(url, { url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect((await overHttp(url, { url: '/health/live' })).statusCode).toBe(200);
    expect(messages()).toEqual(['database unavailable']);
    expect(errorLines()).toEqual([]);

    await proxy.up();
    await recovers();
    expect(messages()).toEqual(['database unavailable', 'database available again']);
    expect((await overHttp(url, { url: '/health/ready' })).statusCode).toBe(200);
  });

  it('answers 503 within 5 s while the database hangs, then recovers by itself', async () => {
    lines.length = 0;
    proxy.hang();
    const answers = await Promise.all(Array.from({ length: 8 }, () => timed(upload)));
    for (const [r, ms] of answers) await expectUnavailable(r, ms);
    const [ready, readyMs] = await timed(() => overHttp(url, { url: '/health/ready' }));
    expect(ready.statusCode).toBe(503);
    expect(readyMs).toBeLessThan(5_000);
    expect(messages()).toEqual(['database unavailable']);
    expect(errorLines()).toEqual([]);

    await proxy.up();
    await recovers();
    expect(messages()).toEqual(['database unavailable', 'database available again']);
  }, 30_000);

  it('every acknowledged upload is stored', async () => {
    const rows = await tdb.db.query<{ value: number }>(
      `SELECT s.value FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $1`,
      [player],
    );
    expect(rows.length).toBe(1);
    expect(Number(rows[0]!.value)).toBeGreaterThanOrEqual(1);
  });
});
