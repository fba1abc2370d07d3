import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

const SITE = 'https://stats.example.com';

describe('CORS_ORIGINS', () => {
  let ctx: TestContext;
  let fx: Fixture;
  beforeAll(async () => {
    ctx = await createTestContext({ CORS_ORIGINS: `${SITE}, https://other.example.org` });
    fx = await seedWorkspace(ctx.services, 'CORS');
  });
  afterAll(() => ctx.close());

  const get = (url: string, origin?: string, auth = true) =>
    ctx.http({
      url,
      headers: {
        ...(origin ? { origin } : {}),
        ...(auth ? { authorization: `Bearer ${fx.keys.website}` } : {}),
      },
    });

  it('lets an allowed origin read key routes, errors included, on every path (cached reads too)', async () => {
    for (let i = 0; i < 3; i++) {
      for (const url of ['/api/v1/seasons', '/api/v1/leaderboards?season=s1&stat=a:b', '/api/v1/players']) {
        const res = await get(url, SITE);
        expect(res.headers['access-control-allow-origin'], url).toBe(SITE);
        expect(String(res.headers.vary)).toMatch(/Origin/);
        expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-ID');
      }
    }
    const refused = await get('/api/v1/seasons', SITE, false);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(SITE);
  });

  it('sends nothing to an origin that is not allowed, or without an Origin', async () => {
    expect(
      (await get('/api/v1/seasons', 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    expect((await get('/api/v1/seasons')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight 204 with the allowed methods and headers', async () => {
    const res = await ctx.http({
      method: 'OPTIONS',
      url: '/api/v1/leaderboards?season=s1&stat=a:b',
      headers: {
        origin: SITE,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-Request-ID');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
    expect(res.body).toBe('');
  });

  it('never sends CORS headers on admin, setup or /auth routes, preflights included', async () => {
    for (const url of ['/api/v1/admin/me', '/api/v1/admin/api-keys', '/api/v1/setup/bootstrap', '/auth/login']) {
      const res = await get(url, SITE);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      const pre = await ctx.http({
        method: 'OPTIONS',
        url,
        headers: { origin: SITE, 'access-control-request-method': 'POST' },
      });
      expect(pre.statusCode, url).not.toBe(204);
      expect(pre.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin with `*` (no credentials are involved: keys travel in Authorization)', async () => {
    const ctx = await createTestContext({ CORS_ORIGINS: '*' });
    try {
      const res = await ctx.http({ url: '/api/v1/seasons', headers: { origin: 'https://anyone.example' } });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await ctx.close();
    }
  });
});

describe('no CORS_ORIGINS (the default)', () => {
  it('sends no CORS headers and answers no preflight', async () => {
    const ctx = await createTestContext();
    try {
      const res = await ctx.http({ url: '/api/v1/seasons', headers: { origin: SITE } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const pre = await ctx.http({
        method: 'OPTIONS',
        url: '/api/v1/seasons',
        headers: { origin: SITE, 'access-control-request-method': 'GET' },
      });
      expect(pre.statusCode).not.toBe(204);
    } finally {
      await ctx.close();
    }
  });
});
