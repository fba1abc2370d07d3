import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../http/support.ts';
import { Browser, createWorld, type World } from './support/world.ts';

/** Drives a login up to the provider's redirect back to the app, without calling the app's callback. */
async function codeFor(b: Browser, email: string, rewrite?: (authUrl: URL) => void): Promise<URL> {
  const start = await b.app('GET', '/auth/login');
  const authUrl = new URL(String(start.headers.location));
  rewrite?.(authUrl);
  const jar = new Map<string, string>();
  let next = authUrl.href;
  for (let i = 0; i < 10; i++) {
    const url = new URL(next);
    if (url.origin === b.origin) return url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      jar.set(k!, v.join('='));
    }
    const loc = res.headers.get('location');
    if (loc) {
      next = new URL(loc, url).href;
      continue;
    }
    const action = /action="([^"]+)"/.exec(await res.text())![1]!;
    const posted = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ email }).toString(),
    });
    next = new URL(posted.headers.get('location')!, url).href;
  }
  throw new Error('no redirect back to the app');
}

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('a provider that answers wrongly', () => {
  it('refuses a callback whose state does not match (400), and creates no session', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'state@example.com');
    back.searchParams.set('state', 'forged-state');
    const res = await b.app('GET', back.pathname + back.search);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.json().error.message).toMatch(/state/);
    expect(b.session).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one this login sent (400)', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'nonce@example.com', (u) => u.searchParams.set('nonce', 'another-nonce'));
    const res = await b.app('GET', back.pathname + back.search);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.json().error.message).toMatch(/nonce/i);
    expect(b.session).toBeUndefined();
  });

  it('refuses a tampered ID token (signature checked against the JWKS) with 400', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'tamper@example.com');
    w.idp!.tamperIdToken = true;
    try {
      const res = await b.app('GET', back.pathname + back.search);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.json().error.message).toMatch(/signature/i);
      expect(b.session).toBeUndefined();
    } finally {
      w.idp!.tamperIdToken = false;
    }
  });

  it('refuses a callback without the login cookie (400)', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'nocookie@example.com');
    b.appJar.cookies.clear();
    expectError(await b.app('GET', back.pathname + back.search), 400, 'BAD_REQUEST');
  });

  it('reports an error sent back by the provider (access_denied) as 400 with its code', async () => {
    const b = new Browser(w);
    const start = await b.app('GET', '/auth/login');
    const state = new URL(String(start.headers.location)).searchParams.get('state')!;
    const res = await b.app(
      'GET',
      `/auth/callback?error=access_denied&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(w.idp!.issuer)}`,
    );
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.json().error.message).toContain('access_denied');
  });

  it('refuses an expired login (more than 10 minutes at the provider)', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'slow@example.com');
    w.clock.advance(11 * 60_000);
    expectError(await b.app('GET', back.pathname + back.search), 400, 'BAD_REQUEST');
  });
});

describe('a provider that is down', () => {
  it('answers 503 SERVICE_UNAVAILABLE (JSON) or a clear HTML page, never a raw 500; recovers later', async () => {
    // A port that nobody listens on.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dw = await createWorld({
      idp: null,
      env: { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' },
    });
    try {
      const res = await dw.app.inject({ url: '/auth/login' });
      const body = expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(body.error.message).toMatch(/identity provider/);
      const page = await dw.app.inject({ url: '/auth/login', headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(page.statusCode).toBe(503);
      expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
      expect(page.body).toContain('identity provider');
      // Something that is not an OpenID provider answers on that port now: still 503.
      const wrong = createServer((_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end('<h1>not a provider</h1>');
      });
      await new Promise<void>((r) => wrong.listen(port, '127.0.0.1', r));
      try {
        expectError(await dw.app.inject({ url: '/auth/login' }), 503, 'SERVICE_UNAVAILABLE');
      } finally {
        await new Promise<void>((r) => wrong.close(() => r()));
      }
    } finally {
      await dw.close();
    }
  });

  it('answers 503 when the token endpoint cannot be reached during the callback', async () => {
    const b = new Browser(w);
    const back = await codeFor(b, 'down@example.com');
    const issuer = w.idp!.issuer;
    // The discovered configuration is cached; make the provider unreachable before the code exchange.
    await w.idp!.close();
    const res = await b.app('GET', back.pathname + back.search);
    expectError(res, 503, 'SERVICE_UNAVAILABLE');
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });
});

describe('without OIDC_ISSUER in production', () => {
  it('login is unavailable: 503 with a message naming OIDC_ISSUER', async () => {
    const pw = await createWorld({ idp: null, env: { NODE_ENV: 'production' } });
    try {
      const body = expectError(await pw.app.inject({ url: '/auth/login' }), 503, 'SERVICE_UNAVAILABLE');
      expect(body.error.message).toContain('OIDC_ISSUER');
      expect((await pw.app.inject({ url: '/dev-idp/.well-known/openid-configuration' })).statusCode).toBe(404);
    } finally {
      await pw.close();
    }
  });
});
