import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, makeEnv, type Service, startService, TEST_DATABASE_URL } from './process.ts';

// The console as `npm start` serves it, in production mode (NODE_ENV=production; PostgreSQL when the tests have one).
describe(`the console served by the service (NODE_ENV=production, ${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let env: Env;
  let service: Service;
  const page = (path: string) => fetch(`${service.url}${path}`, { headers: { accept: 'text/html' } });

  beforeAll(async () => {
    env = await makeEnv({ NODE_ENV: 'production' });
    service = await startService(env.vars);
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  it('answers / with the page, never cached, with a content security policy', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<div id="root"></div>');
  });

  it('serves its hashed assets cached for a year, and the pages the console routes', async () => {
    const html = await (await page('/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const asset = await fetch(`${service.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await page('/players/7c9e6679-7425-40de-944b-e07fc1f90ae7')).status).toBe(200);
    expect((await page('/no-such-page')).status).toBe(404);
    expect((await fetch(`${service.url}/assets/missing.js`)).status).toBe(404);
  });

  it('keeps the API as it was: JSON 404s, API paths never answered with the page', async () => {
    const res = await page('/api/v1/no-such-route');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${service.url}/no-such-file.txt`)).headers.get('content-type')).toMatch(/^application\/json/);
  });
});
