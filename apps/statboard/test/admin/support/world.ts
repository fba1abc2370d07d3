import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '#src/app.ts';
import { ChangeBus } from '#src/cache/bus.ts';
import type { Config } from '#src/config.ts';
import { buildServices, type Services } from '#src/services.ts';
import { createTestDb, type TestDb, testConfig } from '../../helpers.ts';
import { startTestIdp, type TestIdp, type TestIdpOptions } from './idp.ts';

export const PUBLIC_URL = 'http://statboard.test';

/** A clock the session service reads; tests move it. */
export class TestClock {
  t = Date.now();
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface AppInstance {
  app: FastifyInstance;
  services: Services;
  config: Config;
}

export interface World extends AppInstance {
  db: TestDb;
  idp: TestIdp | null;
  clock: TestClock;
  /** The change bus the instances share (a test that writes behind the service's back tells it here). */
  bus: ChangeBus;
  /** Another app instance on the same database (sessions must work on every instance). */
  instance(env?: Record<string, string>): Promise<AppInstance>;
  close(): Promise<void>;
}

export async function createWorld(
  opts: {
    env?: Record<string, string>;
    idp?: Omit<TestIdpOptions, 'redirectUri'> | null;
    /** The instances' logger (default: none), for tests that read what is logged. */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<World> {
  const publicUrl = opts.env?.PUBLIC_URL ?? PUBLIC_URL;
  const idp = opts.idp === null ? null : await startTestIdp({ ...opts.idp, redirectUri: `${publicUrl}/auth/callback` });
  const db = await createTestDb();
  const clock = new TestClock();
  // The instances share the database, so they hear each other's changes, as they would through LISTEN/NOTIFY.
  const bus = ChangeBus.local();
  const apps: FastifyInstance[] = [];
  const instance = async (extra: Record<string, string> = {}): Promise<AppInstance> => {
    const config = testConfig({
      PUBLIC_URL: publicUrl,
      ...(idp ? { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret } : {}),
      ...opts.env,
      ...extra,
    });
    const services = buildServices(db.db, config, { clock: clock.now, bus });
    const app = await buildApp({ config, services, ...(opts.logger ? { logger: opts.logger } : {}) });
    await app.ready();
    apps.push(app);
    return { app, services, config };
  };
  const first = await instance();
  return {
    ...first,
    db,
    idp,
    clock,
    bus,
    instance,
    async close() {
      for (const a of apps) await a.close();
      await first.services.flush().catch(() => undefined);
      await idp?.close();
      await db.drop();
    },
  };
}

/** Cookies by name (the tests talk to one app origin and one provider origin; paths are ignored). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  store(setCookie: string[] | string | undefined): void {
    const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    for (const line of list) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v] = a.trim().split('=');
        if (k?.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k?.toLowerCase() === 'expires') return Date.parse(v ?? '') <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
}

/** A browser: one cookie jar for the app (driven through inject) and one for the provider (real HTTP). */
export class Browser {
  readonly appJar = new CookieJar();
  readonly idpJar = new CookieJar();
  /** Set-Cookie lines of the last app response. */
  lastAppSetCookie: string[] = [];

  constructor(
    readonly target: AppInstance,
    readonly origin = new URL(target.config.publicUrl).origin,
  ) {}

  async app(
    method: string,
    url: string,
    opts: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const cookie = this.appJar.header();
    if (cookie && headers.cookie === undefined) headers.cookie = cookie;
    if (method !== 'GET' && headers.origin === undefined) headers.origin = this.origin;
    const res = await this.target.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(opts.body === undefined ? {} : { payload: opts.body as object }),
    });
    this.lastAppSetCookie = setCookies(res);
    this.appJar.store(this.lastAppSetCookie);
    return res;
  }

  private async idp(url: string, init: { method?: string; body?: string } = {}): Promise<Response> {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: this.idpJar.header(),
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.body,
    });
    this.idpJar.store(res.headers.getSetCookie());
    return res;
  }

  /**
   * Follows redirects from `location` between the provider (HTTP) and the app (inject) until the app
   * answers something other than a redirect to the provider; posts `email` on the provider's login form.
   */
  async follow(location: string, email: string): Promise<LightMyRequestResponse> {
    let next = location;
    for (let hops = 0; hops < 20; hops++) {
      const url = new URL(next, next.startsWith('/') ? this.origin : undefined);
      if (url.origin === this.origin) {
        const res = await this.app('GET', url.pathname + url.search);
        const loc = res.headers.location;
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof loc === 'string' && !loc.startsWith('/')) {
          next = loc;
          continue;
        }
        return res;
      }
      const res = await this.idp(url.href);
      const loc = res.headers.get('location');
      if (loc) {
        next = new URL(loc, url).href;
        continue;
      }
      const html = await res.text();
      const action = /action="([^"]+)"/.exec(html)?.[1];
      if (res.status !== 200 || !action)
        throw new Error(`unexpected provider answer ${res.status}: ${html.slice(0, 300)}`);
      const posted = await this.idp(new URL(action, url).href, {
        method: 'POST',
        body: new URLSearchParams({ email }).toString(),
      });
      const after = posted.headers.get('location');
      if (!after) throw new Error(`login form post gave ${posted.status}`);
      next = new URL(after, url).href;
    }
    throw new Error('too many redirects');
  }

  /** Signs in through the provider as `email`; returns the app's final answer (a redirect to return_to). */
  async login(email: string, returnTo?: string): Promise<LightMyRequestResponse> {
    const start = await this.app(
      'GET',
      `/auth/login${returnTo === undefined ? '' : `?return_to=${encodeURIComponent(returnTo)}`}`,
    );
    expect(start.statusCode, start.body).toBe(302);
    return this.follow(String(start.headers.location), email);
  }

  get session(): string | undefined {
    return this.appJar.cookies.get('statboard_session');
  }
}

/** Signs in a new browser as `email` and checks it got a session. */
export async function signIn(target: AppInstance, email: string): Promise<Browser> {
  const b = new Browser(target);
  const res = await b.login(email);
  expect(res.statusCode, res.body).toBe(303);
  expect(b.session).toBeDefined();
  return b;
}
