import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import {
  ACTOR,
  bearer,
  createTestContext,
  type Fixture,
  seedWorkspace,
  type TestContext,
  testConfig,
} from '../helpers.ts';

let ctx: TestContext;
let fx: Fixture;
beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_PER_MINUTE: '3', AUTH_FAILURE_LIMIT_PER_MINUTE: '2' });
  fx = await seedWorkspace(ctx.services);
});
afterAll(() => ctx.close());

const get = (token: string) => ctx.app.inject({ url: '/api/v1/seasons', headers: bearer(token) });

describe('rate limits', () => {
  it('answers 429 RATE_LIMITED with Retry-After once a key exceeds its requests per minute', async () => {
    for (let i = 0; i < 3; i++) expect((await get(fx.keys.website!)).statusCode).toBe(200);
    const res = await get(fx.keys.website!);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({ code: 'RATE_LIMITED', request_id: res.headers['x-request-id'] });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts each key on its own', async () => {
    expect((await get(fx.keys.integration!)).statusCode).toBe(200);
  });

  it('slows down guessing: failed authentications of one address are limited too', async () => {
    const bad = 'stb_website_0b9f2c3e-5d6a-4b7c-8d9e-0f1a2b3c4d5e_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect((await get(bad)).statusCode).toBe(401);
    expect((await get(bad)).statusCode).toBe(401);
    const res = await get(bad);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('RATE_LIMITED');
  });
});

describe('failed authentications on admin routes', () => {
  it('counts an unknown session cookie or API key against the address, and not a request without credentials', async () => {
    const admin = await createTestContext({ AUTH_FAILURE_LIMIT_PER_MINUTE: '2' });
    try {
      const me = (headers: Record<string, string>) => admin.app.inject({ url: '/api/v1/admin/me', headers });
      for (let i = 0; i < 5; i++) expect((await me({})).statusCode).toBe(401);
      expect((await me({ cookie: 'statboard_session=guess1' })).statusCode).toBe(401);
      expect((await me({ cookie: 'statboard_session=guess2' })).statusCode).toBe(401);
      const res = await me({ cookie: 'statboard_session=guess3' });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const key = await me(
        bearer('stb_website_0b9f2c3e-5d6a-4b7c-8d9e-0f1a2b3c4d5e_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'),
      );
      expect(key.statusCode).toBe(429);
    } finally {
      await admin.close();
    }
  });
});

function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(6379, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

describe('rate limits shared through Redis (REDIS_URL)', async () => {
  const reachable = await redisReachable();
  it.skipIf(!reachable)('two instances count the same key together', async () => {
    const config = testConfig({ REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_PER_MINUTE: '4' });
    const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'shared',
      type: 'website',
      scopes: ['stats:read'],
    });
    const a = await buildApp({ config, services: ctx.services });
    const b = await buildApp({ config, services: ctx.services });
    try {
      const codes: number[] = [];
      for (const app of [a, b, a, b, a]) {
        codes.push((await app.inject({ url: '/api/v1/seasons', headers: bearer(key.secret) })).statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
