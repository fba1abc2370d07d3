import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { buildServices } from '#src/services.ts';
import { createTestDb, type HttpAnswer, overHttp, seedWorkspace, testConfig } from '../helpers.ts';

/** The app as it ships with `env`, its access log captured; `run` gets a request function. */
async function withApp(
  env: Record<string, string>,
  run: (
    send: (path: string, xff?: string, auth?: string) => Promise<HttpAnswer>,
    ips: () => string[],
    key: string,
  ) => Promise<void>,
): Promise<void> {
  const tdb = await createTestDb();
  const config = testConfig(env);
  const services = buildServices(tdb.db, config);
  const fx = await seedWorkspace(services, 'Proxy');
  const lines: { ip?: string; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  const app = await buildApp({ config, services, logger: pino({ level: 'info' }, sink) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    await run(
      (path, xff, auth) =>
        overHttp(url, {
          url: path,
          headers: { ...(xff ? { 'x-forwarded-for': xff } : {}), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        }),
      () => lines.filter((l) => l.msg === 'request completed').map((l) => l.ip ?? ''),
      fx.keys.website!,
    );
  } finally {
    await app.close();
    await tdb.drop();
  }
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('TRUST_PROXY', () => {
  it('unset: X-Forwarded-For is ignored; the socket address is the client (logs, failed-authentication limit)', async () => {
    await withApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '2' }, async (send, ips) => {
      await send('/api/v1/seasons', '203.0.113.9', 'bad');
      await send('/api/v1/seasons', '203.0.113.10', 'bad');
      const third = await send('/api/v1/seasons', '203.0.113.11', 'bad');
      expect(third.statusCode).toBe(429);
      await settle();
      expect(new Set(ips())).toEqual(new Set(['127.0.0.1']));
    });
  });

  it('a trusted proxy: the address it forwards is the client, on the fast read path too', async () => {
    await withApp({ TRUST_PROXY: '127.0.0.1', AUTH_FAILURE_LIMIT_PER_MINUTE: '2' }, async (send, ips, key) => {
      await send('/api/v1/seasons', '203.0.113.9', 'bad');
      await send('/api/v1/seasons', '203.0.113.9', 'bad');
      expect((await send('/api/v1/seasons', '203.0.113.9', 'bad')).statusCode).toBe(429);
      // Another client behind the same proxy has its own count.
      expect((await send('/api/v1/seasons', '198.51.100.7', 'bad')).statusCode).toBe(401);
      // A cached read, answered before Fastify, logs the forwarded address as well.
      for (let i = 0; i < 3; i++) await send('/api/v1/leaderboards?season=s1&stat=a:b', '198.51.100.8', key);
      await settle();
      expect(ips()).toContain('203.0.113.9');
      expect(ips().filter((ip) => ip === '198.51.100.8')).toHaveLength(3);
      expect(ips()).not.toContain('127.0.0.1');
    });
  });

  it('a proxy list that does not include the peer: X-Forwarded-For is ignored', async () => {
    await withApp({ TRUST_PROXY: '10.0.0.0/8' }, async (send, ips) => {
      await send('/api/v1/seasons', '203.0.113.9');
      await settle();
      expect(ips()).toEqual(['127.0.0.1']);
    });
  });
});
