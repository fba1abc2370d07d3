import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { buildServices } from '#src/services.ts';
import { createTestDb, type Fixture, overHttp, seedWorkspace, type TestDb, testConfig } from '../helpers.ts';

/** The app as it ships, with its logger at debug, and a real key sent every way a client might send it. */
describe('secrets never reach the log', () => {
  let tdb: TestDb;
  let fx: Fixture;
  let url: string;
  let close: () => Promise<void>;
  let text = '';
  beforeAll(async () => {
    tdb = await createTestDb();
    const config = testConfig();
    const services = buildServices(tdb.db, config);
    fx = await seedWorkspace(services);
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        text += chunk.toString('utf8');
        cb();
      },
    });
    const app = await buildApp({ config, services, logger: pino({ level: 'debug' }, sink) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = async () => {
      await app.close();
      await tdb.drop();
    };
  });
  afterAll(() => close());

  it('writes neither the key nor its secret part, wherever the request carried it', async () => {
    const key = fx.keys.website!;
    const secretPart = key.split('_').slice(3).join('_');
    const paths = [
      `/api/v1/seasons?api_key=${key}`,
      `/api/v1/seasons?key=${encodeURIComponent(key)}`,
      `/api/v1/seasons?anything=${key}`,
      `/api/v1/leaderboards?season=s1&stat=x&token=${key}`,
      `/auth/callback?code=${secretPart}&state=${secretPart}`,
    ];
    for (const path of paths) await overHttp(url, { url: path });
    await overHttp(url, { url: '/api/v1/seasons', headers: { authorization: `Bearer ${key}` } });
    await overHttp(url, {
      url: '/api/v1/admin/me',
      headers: { authorization: `Bearer ${key}`, cookie: `statboard_session=${secretPart}` },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toContain('request completed');
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(secretPart);
  });
});
