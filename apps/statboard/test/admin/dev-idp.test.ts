import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { buildServices, type Services } from '#src/services.ts';
import { ACTOR, createTestDb, type TestDb, testConfig } from '../helpers.ts';
import { CookieJar } from './support/world.ts';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let db: TestDb;
let app: FastifyInstance;
let services: Services;
let base: string;
const logs: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  db = await createTestDb();
  const config = testConfig({ PORT: String(port), HOST: '127.0.0.1' });
  services = buildServices(db.db, config);
  const stream = { write: (line: string) => logs.push(line) };
  app = await buildApp({ config, services, logger: pino({ level: 'info' }, stream) });
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** A browser over real HTTP against the listening app (which is also the provider). */
async function get(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(new URL(url, base), {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.store(res.headers.getSetCookie());
  return res;
}

/** Signs in through the embedded provider's form as `email`; returns the browser's cookies. */
async function devSignIn(email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  let res = await get(jar, '/auth/login');
  let location = res.headers.get('location') ?? '';
  let form = '';
  for (let i = 0; i < 10 && location; i++) {
    res = await get(jar, location);
    location = res.headers.get('location') ?? '';
    if (!location) form = await res.text();
  }
  const action = /action="([^"]+)"/.exec(form)![1]!;
  res = await get(jar, action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email }).toString(),
  });
  location = res.headers.get('location') ?? '';
  for (let i = 0; i < 10 && location && !location.startsWith('/'); i++) {
    res = await get(jar, location);
    location = res.headers.get('location') ?? '';
  }
  expect(jar.cookies.get('statboard_session')).toBeDefined();
  return jar;
}

let owner: CookieJar;

describe('embedded development identity provider (no OIDC_ISSUER, not production)', () => {
  it("logs a loud warning and where to sign in (the console's address)", () => {
    const text = logs.join('');
    expect(text).toContain('DEVELOPMENT LOGIN ENABLED');
    // Readable lines: no message spans several lines.
    for (const line of logs.join('').split('\n').filter(Boolean)) expect(JSON.parse(line).msg).not.toContain('\n');
    expect(text).toContain(`console: open ${base}/ in a browser`);
  });

  it('serves discovery for the issuer PUBLIC_URL/dev-idp', async () => {
    const res = await fetch(`${base}/dev-idp/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as { issuer: string; authorization_endpoint: string; jwks_uri: string };
    expect(meta.issuer).toBe(`${base}/dev-idp`);
    expect(meta.authorization_endpoint.startsWith(`${base}/dev-idp/`)).toBe(true);
  });

  it('signs in by posting an email, then bootstraps and uses the admin API', async () => {
    const jar = new CookieJar();
    let res = await get(jar, '/auth/login?return_to=/welcome');
    expect(res.status).toBe(302);
    let location = res.headers.get('location')!;
    expect(location.startsWith(`${base}/dev-idp/`)).toBe(true);
    let form = '';
    for (let i = 0; i < 10 && location; i++) {
      res = await get(jar, location);
      location = res.headers.get('location') ?? '';
      if (!location) form = await res.text();
    }
    expect(res.status).toBe(200);
    expect(form).toContain('type="email"');
    expect(form).toContain('no password');
    const action = /action="([^"]+)"/.exec(form)![1]!;
    res = await get(jar, action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ email: 'Dev.User@Example.com' }).toString(),
    });
    location = res.headers.get('location') ?? '';
    for (let i = 0; i < 10 && location && !location.startsWith('/welcome'); i++) {
      res = await get(jar, location);
      location = res.headers.get('location') ?? '';
    }
    expect(location).toBe('/welcome');
    expect(jar.cookies.get('statboard_session')).toBeDefined();

    const me = await get(jar, '/api/v1/admin/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      display_name: 'dev.user',
      email: 'dev.user@example.com',
      role: null,
      needs_bootstrap: true,
    });

    const { token } = await services.setup.createToken(ACTOR);
    const boot = await get(jar, '/api/v1/setup/bootstrap', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ token }),
    });
    expect(boot.status).toBe(201);
    const created = await get(jar, '/api/v1/admin/servers', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ hostname: 'mc.example.com', port: 25565 }),
    });
    expect(created.status).toBe(201);
    owner = jar;
  });

  it('claims every email verified, so a role is given by the email typed in its form', async () => {
    const newcomer = await devSignIn('new.comer@example.com');
    const res = await get(owner, `/api/v1/admin/users/${encodeURIComponent('New.Comer@example.com')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ role: 'readonly' }),
    });
    expect(res.status).toBe(200);
    expect(await (await get(newcomer, '/api/v1/admin/me')).json()).toMatchObject({ role: 'readonly' });
  });

  it('refuses an empty email on the login form with the form again', async () => {
    const jar = new CookieJar();
    let res = await get(jar, '/auth/login');
    let location = res.headers.get('location')!;
    let form = '';
    for (let i = 0; i < 10 && location; i++) {
      res = await get(jar, location);
      location = res.headers.get('location') ?? '';
      if (!location) form = await res.text();
    }
    const action = /action="([^"]+)"/.exec(form)![1]!;
    res = await get(jar, action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=',
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Enter an email address');
  });
});
