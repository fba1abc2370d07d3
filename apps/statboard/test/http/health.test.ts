import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { buildServices } from '#src/services.ts';
import { createTestContext, createTestDb, TEST_DATABASE_URL, type TestContext, testConfig } from '../helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const PATHS = ['/health/live', '/health/ready', '/api/v1/health/live', '/api/v1/health/ready'];

describe('health routes', () => {
  for (const path of PATHS) {
    it(`GET ${path} answers 200 {status: "ok"} without authentication`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(typeof res.headers['x-request-id']).toBe('string');
    });

    it(`GET ${path} ignores a bad Authorization header`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url: path, headers: { authorization: 'Bearer junk' } });
      expect(res.statusCode).toBe(200);
    });
  }

  it('answers an unknown route with 404 NOT_FOUND in the error shape, with X-Request-ID', async () => {
    for (const url of ['/api/v1/nope', '/nope', '/api/v2/players', '/api/v1/players/x/y/z']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'lost-1' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id']).toBe('lost-1');
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), request_id: 'lost-1' } });
    }
  });

  it('echoes a client X-Request-ID', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'probe-1' } });
    expect(res.headers['x-request-id']).toBe('probe-1');
  });

  it('answers ready with 503 {status: "unavailable"} when the database is closed, while live stays 200', async () => {
    const tdb = await createTestDb();
    const config = testConfig();
    const app = await buildApp({ config, services: buildServices(tdb.db, config) });
    await app.ready();
    try {
      await tdb.db.close();
      for (const path of ['/health/ready', '/api/v1/health/ready']) {
        const res = await app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ status: 'unavailable' });
        expect(typeof res.headers['x-request-id']).toBe('string');
      }
      for (const path of ['/health/live', '/api/v1/health/live']) {
        const res = await app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'ok' });
      }
    } finally {
      await app.close();
      if (TEST_DATABASE_URL !== null && tdb.url !== null) {
        // The pool is closed already: drop the database directly.
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${new URL(tdb.url).pathname.slice(1)} WITH (FORCE)`);
        await admin.end();
      }
    }
  });
});
