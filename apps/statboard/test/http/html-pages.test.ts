import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { ConsoleSite } from '#src/http/console.ts';
import { htmlPage } from '#src/http/html-page.ts';
import { contentSecurityPolicy, DEFAULT_HTML_POLICY, registerHtmlSecurity } from '#src/http/html-security.ts';
import { buildServices } from '#src/services.ts';
import { CookieJar } from '../admin/support/world.ts';
import { createTestDb, type TestDb, testConfig } from '../helpers.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Asserts the answer is an HTML page with a policy that refuses framing; returns its policy. */
function expectGuardedHtml(res: Response, what: string): string {
  expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, what).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/);
  expect(csp, what).toMatch(/(^|;\s*)default-src '(none|self)'/);
  expect(csp, what).not.toContain('unsafe-inline');
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  return csp;
}

/** The `sha256-…` CSP source of each inline `<style>` of a page. */
function styleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
}

describe('every HTML answer of the service (development login, as without OIDC_ISSUER)', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let base = '';

  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    base = `http://127.0.0.1:${port}`;
    db = await createTestDb();
    const config = testConfig({ PORT: String(port), HOST: '127.0.0.1' });
    app = await buildApp({ config, services: buildServices(db.db, config) });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  async function get(path: string, jar = new CookieJar(), headers: Record<string, string> = HTML): Promise<Response> {
    const res = await fetch(new URL(path, base), { redirect: 'manual', headers: { ...headers, cookie: jar.header() } });
    jar.store(res.headers.getSetCookie());
    return res;
  }

  it("gives the console's pages (a deep link and an unknown page's 404 too) its policy and refuses framing", async () => {
    for (const [path, status] of [
      ['/', 200],
      ['/players/7c9e6679-7425-40de-944b-e07fc1f90ae7', 200],
      ['/webhooks', 200],
      ['/no-such-page', 404],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      const csp = expectGuardedHtml(res, path);
      expect(csp, path).toContain("script-src 'self'");
    }
  });

  it('gives the API docs a policy of their own that refuses framing', async () => {
    for (const path of ['/api/v1/docs', '/api/v1/docs/']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const csp = expectGuardedHtml(res, path);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
    }
    // Its files carry the same policy (Swagger UI's OAuth2 page is HTML too).
    const oauth = await get('/api/v1/docs/static/oauth2-redirect.html');
    expect(oauth.status).toBe(200);
    expectGuardedHtml(oauth, 'oauth2-redirect.html');
  });

  it("gives login's error pages the default policy, which allows their own style by its hash", async () => {
    const jar = new CookieJar();
    expect((await get('/auth/login', jar)).status).toBe(302);
    const res = await get('/auth/callback?state=not-the-state&code=x', jar);
    expect(res.status).toBe(400);
    const csp = expectGuardedHtml(res, '/auth/callback with a bad state');
    expect(csp).toBe(DEFAULT_HTML_POLICY);
    const page = await res.text();
    expect(page).toContain('state parameter does not match');
    expect(styleHashes(page)).toHaveLength(1);
    expect(csp).toContain(`style-src ${styleHashes(page)[0]}`);
    // The expired-login page too, and a bad return_to.
    expectGuardedHtml(await get('/auth/callback?state=x'), '/auth/callback without a login');
    expectGuardedHtml(await get('/auth/login?return_to=https://elsewhere.example'), 'bad return_to');
  });

  it("gives the development provider's login form, its expired page and its own pages the default policy", async () => {
    const jar = new CookieJar();
    let res = await get('/auth/login', jar);
    let location = res.headers.get('location') ?? '';
    for (let i = 0; i < 10 && location; i++) {
      res = await get(location, jar);
      location = res.headers.get('location') ?? '';
    }
    expect(res.status).toBe(200);
    const form = await res.text();
    expect(form).toContain('type="email"');
    expect(form).not.toMatch(/ style="/);
    expect(expectGuardedHtml(res, 'dev-idp login form')).toBe(DEFAULT_HTML_POLICY);
    expectGuardedHtml(await get('/dev-idp/interaction/no-such-interaction'), 'dev-idp expired');
    // Pages the provider writes itself, past Fastify's hooks: an authorization error and the sign-out question.
    for (const path of ['/dev-idp/auth?client_id=no-such-client&response_type=code', '/dev-idp/session/end']) {
      const page = await get(path);
      const csp = expectGuardedHtml(page, path);
      const html = await page.text();
      expect(html, path).not.toContain('fonts.googleapis.com');
      for (const hash of styleHashes(html)) expect(csp, path).toContain(hash);
    }
  });

  it('leaves JSON answers as they were', async () => {
    const res = await get('/api/v1/no-such-route');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});

describe('the policy of HTML answers', () => {
  let app: FastifyInstance;
  let dist = '';

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'statboard-no-console-'));
    app = Fastify();
    registerHtmlSecurity(app);
    new ConsoleSite(dist).register(app);
    app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send(htmlPage('A page', 'x')));
    app.get('/embeddable', async (_request, reply) =>
      reply
        .header('content-security-policy', contentSecurityPolicy({ 'frame-ancestors': 'https://club.example' }))
        .type('text/html; charset=utf-8')
        .send(htmlPage('Embeddable', 'x')),
    );
    app.get('/scripted', async (_request, reply) =>
      reply.header('content-security-policy', "default-src 'self'").type('text/html; charset=utf-8').send('<p>x</p>'),
    );
    app.get('/json', async () => ({ ok: true }));
  });
  afterAll(async () => {
    await app.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('reaches a page added later that does nothing about it', async () => {
    const res = await app.inject({ url: '/page' });
    expect(res.headers['content-security-policy']).toBe(DEFAULT_HTML_POLICY);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it("keeps a route's own policy, refusing framing when that policy does not say who may frame", async () => {
    const scripted = await app.inject({ url: '/scripted' });
    expect(scripted.headers['content-security-policy']).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(scripted.headers['x-frame-options']).toBe('DENY');
  });

  it('lets a route allow framing by chosen sites, without an X-Frame-Options that would contradict it', async () => {
    const res = await app.inject({ url: '/embeddable' });
    expect(res.headers['content-security-policy']).toContain('frame-ancestors https://club.example');
    expect(res.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('shows the "console not built" page under the default policy, which allows its style', async () => {
    const res = await app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-security-policy']).toBe(DEFAULT_HTML_POLICY);
    expect(DEFAULT_HTML_POLICY).toContain(`style-src ${styleHashes(res.body)[0]}`);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('leaves other answers alone', async () => {
    const res = await app.inject({ url: '/json' });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });
});
