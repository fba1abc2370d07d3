import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, expectError } from '../http/support.ts';
import { Browser, createWorld, signIn, type World } from './support/world.ts';

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('OIDC login against a real provider', () => {
  it('redirects to the provider with code + PKCE S256, state, nonce and the openid profile email scopes', async () => {
    const b = new Browser(w);
    const res = await b.app('GET', '/auth/login');
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(w.idp!.issuer);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(w.idp!.clientId);
    expect(q.get('redirect_uri')).toBe('http://statboard.test/auth/callback');
    expect(q.get('scope')).toBe('openid profile email');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    const cookie = b.lastAppSetCookie.find((c) => c.startsWith('statboard_login='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth/);
  });

  it('completes a login: creates the user from userinfo claims, sets the session cookie and redirects to /', async () => {
    const b = new Browser(w);
    const res = await b.login('ada@example.com');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = b.lastAppSetCookie.find((c) => c.startsWith('statboard_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    expect(w.idp!.tokenAuth.at(-1)).toBe('client_secret_basic');
    const me = await b.app('GET', '/api/v1/admin/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: expect.any(String),
      display_name: 'ada',
      email: 'ada@example.com',
      workspace_id: null,
      role: null,
      needs_bootstrap: true,
      permissions: [],
      workspaces: [],
      public_url: 'http://statboard.test',
      public_url_loopback: false,
      open_reviews: 0,
    });
  });

  it('stores only a SHA-256 of the session id, never the cookie value', async () => {
    const b = await signIn(w, 'hash@example.com');
    const rows = await w.db.db.query<{ id_hash: string }>('SELECT id_hash FROM admin_sessions');
    expect(rows.some((r) => r.id_hash === b.session)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id_hash))).toBe(true);
  });

  it('updates the same user on a second login by (issuer, sub), with a new session id each time', async () => {
    const b = await signIn(w, 'twice@example.com');
    const first = b.session;
    const me1 = (await b.app('GET', '/api/v1/admin/me')).json() as { id: string };
    await b.login('twice@example.com');
    expect(b.session).toBeDefined();
    expect(b.session).not.toBe(first);
    const me2 = (await b.app('GET', '/api/v1/admin/me')).json() as { id: string };
    expect(me2.id).toBe(me1.id);
    expect(await countRows(w.db.db, 'users', 'email = $1', ['twice@example.com'])).toBe(1);
    // The old session id no longer works.
    const old = await w.app.inject({ url: '/api/v1/admin/me', headers: { cookie: `statboard_session=${first}` } });
    expectError(old, 401, 'UNAUTHENTICATED');
  });

  it('redirects to a local return_to after login', async () => {
    const b = new Browser(w);
    const res = await b.login('ret@example.com', '/console/keys?tab=2');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/keys?tab=2');
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/',
    'http:evil.example',
    'evil',
    '/ok\r\nSet-Cookie: x=1',
    '/\t/evil.example',
    '',
    // Normalised to `//evil.example` by dot segments: checked after normalising.
    '/.//evil.example',
    '/..//evil.example',
    '/%2e%2e/%2e%2e//evil.example',
    '/a/../..//evil.example',
  ])('refuses return_to %j with 400 (no open redirect)', async (value) => {
    const res = await w.app.inject({ url: `/auth/login?return_to=${encodeURIComponent(value)}` });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.headers.location).toBeUndefined();
  });

  it('answers a browser with an HTML error page instead of JSON', async () => {
    const res = await w.app.inject({ url: '/auth/login?return_to=//evil', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(400);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toContain('return_to must be a local path');
  });

  it('accepts the session on another instance sharing the database', async () => {
    const b = await signIn(w, 'multi@example.com');
    const other = await w.instance();
    const res = await other.app.inject({
      url: '/api/v1/admin/me',
      headers: { cookie: `statboard_session=${b.session}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('completes a login started on one instance on another (login state lives in the database)', async () => {
    const b = new Browser(w);
    const start = await b.app('GET', '/auth/login');
    const other = new Browser(await w.instance());
    for (const [k, v] of b.appJar.cookies) other.appJar.cookies.set(k, v);
    const res = await other.follow(String(start.headers.location), 'cross@example.com');
    expect(res.statusCode).toBe(303);
    expect(other.session).toBeDefined();
  });

  it('refuses a callback replayed after the login completed', async () => {
    const b = new Browser(w);
    const start = await b.app('GET', '/auth/login');
    const loginCookie = b.appJar.cookies.get('statboard_login');
    await b.follow(String(start.headers.location), 'replay@example.com');
    const res = await w.app.inject({
      url: '/auth/callback?code=x&state=y',
      headers: { cookie: `statboard_login=${loginCookie}` },
    });
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('ends the session at logout (204 for JSON clients) and clears the cookie', async () => {
    const b = await signIn(w, 'bye@example.com');
    const session = b.session;
    const res = await b.app('POST', '/auth/logout', { headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(204);
    expect(b.lastAppSetCookie.some((c) => c.startsWith('statboard_session=;'))).toBe(true);
    const after = await w.app.inject({ url: '/api/v1/admin/me', headers: { cookie: `statboard_session=${session}` } });
    expectError(after, 401, 'UNAUTHENTICATED');
  });

  it('redirects a browser to / after logout', async () => {
    const b = await signIn(w, 'bye2@example.com');
    const res = await b.app('POST', '/auth/logout', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('refuses a cross-origin logout with 403 and keeps the session', async () => {
    const b = await signIn(w, 'csrf-logout@example.com');
    const res = await b.app('POST', '/auth/logout', { headers: { origin: 'https://evil.example' } });
    expectError(res, 403, 'FORBIDDEN');
    expect((await b.app('GET', '/api/v1/admin/me')).statusCode).toBe(200);
  });
});

describe('login throttle', () => {
  it('answers 429 with Retry-After once an address starts more logins per minute than LOGIN_LIMIT_PER_MINUTE', async () => {
    const limited = await w.instance({ LOGIN_LIMIT_PER_MINUTE: '3' });
    const before = await countRows(w.db.db, 'login_states');
    for (let i = 0; i < 3; i++) expect((await limited.app.inject({ url: '/auth/login' })).statusCode).toBe(302);
    const res = await limited.app.inject({ url: '/auth/login' });
    expectError(res, 429, 'RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The refused start stored nothing.
    expect(await countRows(w.db.db, 'login_states')).toBe(before + 3);
  });
});

describe('session expiry', () => {
  it('ends a session after the idle time without requests', async () => {
    const b = await signIn(w, 'idle@example.com');
    w.clock.advance(119 * 60_000);
    expect((await b.app('GET', '/api/v1/admin/me')).statusCode).toBe(200);
    // Activity moved the idle window.
    w.clock.advance(119 * 60_000);
    expect((await b.app('GET', '/api/v1/admin/me')).statusCode).toBe(200);
    w.clock.advance(120 * 60_000);
    expectError(await b.app('GET', '/api/v1/admin/me'), 401, 'UNAUTHENTICATED');
  });

  it('ends a session at its absolute expiry however active it is', async () => {
    const b = await signIn(w, 'absolute@example.com');
    for (let i = 0; i < 11; i++) {
      w.clock.advance(60 * 60_000);
      expect((await b.app('GET', '/api/v1/admin/me')).statusCode).toBe(200);
    }
    w.clock.advance(60 * 60_000);
    expectError(await b.app('GET', '/api/v1/admin/me'), 401, 'UNAUTHENTICATED');
  });
});

describe('configuration', () => {
  it('sets Secure on the session cookie when PUBLIC_URL is https, and honours SESSION_IDLE_MINUTES', async () => {
    const sw = await createWorld({ env: { PUBLIC_URL: 'https://stats.example.test', SESSION_IDLE_MINUTES: '5' } });
    try {
      const b = await signIn(sw, 'secure@example.com');
      const cookie = b.lastAppSetCookie.find((c) => c.startsWith('statboard_session='))!;
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      sw.clock.advance(5 * 60_000);
      expectError(await b.app('GET', '/api/v1/admin/me'), 401, 'UNAUTHENTICATED');
    } finally {
      await sw.close();
    }
  });

  it('reads email and name from the ID token when the provider puts them there', async () => {
    const iw = await createWorld({ idp: { claimsInIdToken: true, names: { 'grace@example.com': 'Grace Hopper' } } });
    try {
      const b = await signIn(iw, 'grace@example.com');
      const me = (await b.app('GET', '/api/v1/admin/me')).json() as { display_name: string; email: string };
      expect(me).toMatchObject({ display_name: 'Grace Hopper', email: 'grace@example.com' });
    } finally {
      await iw.close();
    }
  });

  it('uses client_secret_post when discovery offers only that', async () => {
    const pw = await createWorld({
      idp: { clientAuthMethods: ['client_secret_post'], tokenEndpointAuthMethod: 'client_secret_post' },
    });
    try {
      await signIn(pw, 'post@example.com');
      expect(pw.idp!.tokenAuth).toEqual(['client_secret_post']);
    } finally {
      await pw.close();
    }
  });
});
