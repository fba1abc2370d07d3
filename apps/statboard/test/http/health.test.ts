import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { buildServices } from '#src/services.ts';
import {
  ACTOR,
  createTestContext,
  createTestDb,
  disableKey,
  type Fixture,
  seedWorkspace,
  TEST_DATABASE_URL,
  type TestContext,
  testConfig,
} from '../helpers.ts';

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
      for (const path of ['/health/ready', '/api/v1/health/ready', '/api/health']) {
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

describe("GET /api/health: the mod's connection test", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await seedWorkspace(ctx.services, 'Connection test');
  });
  const test = (authorization?: string) =>
    ctx.http({ url: '/api/health', ...(authorization ? { headers: { authorization } } : {}) });

  it('answers 200 {status: "ok"} without Authorization', async () => {
    const res = await test();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it("answers 200 with the key's type and scopes for a usable key", async () => {
    const client = await test(`Bearer ${fx.keys.client}`);
    expect(client.statusCode).toBe(200);
    expect(client.json()).toEqual({ status: 'ok', key: { type: 'client', scopes: ['ingest:write'] } });
    const website = await test(`Bearer ${fx.keys.website}`);
    expect(website.json().key.type).toBe('website');
    expect(website.json().key.scopes).toEqual([...website.json().key.scopes].sort());
  });

  it('answers 401 INVALID_API_KEY for an unusable key (unknown, malformed, not Bearer, disabled, revoked)', async () => {
    const revoked = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'old',
      type: 'client',
      scopes: ['ingest:write'],
    });
    await ctx.services.keys.revoke(ACTOR, fx.workspaceId, revoked.data.id);
    const disabled = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'off',
      type: 'client',
      scopes: ['ingest:write'],
    });
    await disableKey(ctx, disabled.data.id);
    for (const auth of [
      'Bearer nope',
      `Bearer ${fx.keys.client}x`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${revoked.secret}`,
      `Bearer ${disabled.secret}`,
    ]) {
      const res = await test(auth);
      expect(res.statusCode, auth).toBe(401);
      expect(res.json().error.code).toBe('INVALID_API_KEY');
    }
  });

  describe('warns, still 200 "ok", when every upload with the key would be refused', () => {
    const codes = async (secret: string) => {
      const res = await test(`Bearer ${secret}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { status: string; warnings?: { code: string; message: string }[] };
      expect(body.status).toBe('ok');
      for (const w of body.warnings ?? []) expect(w.message).toMatch(/^[A-Z].{20,}\.$/);
      return (body.warnings ?? []).map((w) => w.code);
    };

    it('a new workspace: no server registered, no season active (the keys that do not upload: no warnings)', async () => {
      const ws = await ctx.services.workspaces.create(ACTOR, { name: 'Fresh' });
      const client = await ctx.services.keys.create(ACTOR, ws.id, {
        name: 'mod',
        type: 'client',
        scopes: ['ingest:write'],
      });
      const website = await ctx.services.keys.create(ACTOR, ws.id, {
        name: 'site',
        type: 'website',
        scopes: ['players:read'],
      });
      expect(await codes(client.secret)).toEqual(['NO_ENABLED_SERVER', 'NO_ACTIVE_SEASON']);
      const body = (await test(`Bearer ${client.secret}`)).json();
      expect(body.warnings[1].message).toMatch(/No season is active/);
      expect(body.key).toEqual({ type: 'client', scopes: ['ingest:write'] });
      expect(await codes(website.secret)).toEqual([]);
      expect((await test(`Bearer ${website.secret}`)).json()).not.toHaveProperty('warnings');

      await ctx.services.servers.create(ACTOR, ws.id, { hostname: 'play.example.org', port: 25565 });
      expect(await codes(client.secret)).toEqual(['NO_ACTIVE_SEASON']);
      await ctx.services.seasons.create(ACTOR, ws.id, { name: 'Season 1', slug: 'season-1', active: true });
      expect((await test(`Bearer ${client.secret}`)).json()).toEqual({
        status: 'ok',
        key: { type: 'client', scopes: ['ingest:write'] },
      });
    });

    it('a key whose server restriction matches no enabled server, or whose seasons leave out the active one', async () => {
      const ws = await ctx.services.workspaces.create(ACTOR, { name: 'Restricted' });
      const off = await ctx.services.servers.create(ACTOR, ws.id, {
        hostname: 'old.example.org',
        port: 25565,
        enabled: false,
      });
      await ctx.services.servers.create(ACTOR, ws.id, { hostname: 'new.example.org', port: 25565 });
      const past = await ctx.services.seasons.create(ACTOR, ws.id, { name: 'Past', slug: 'past' });
      await ctx.services.seasons.create(ACTOR, ws.id, { name: 'Now', slug: 'now', active: true });
      const onOld = await ctx.services.keys.create(ACTOR, ws.id, {
        name: 'old server',
        type: 'client',
        scopes: ['ingest:write'],
        server_restrictions: [off.id],
      });
      expect(await codes(onOld.secret)).toEqual(['NO_ALLOWED_SERVER']);
      const pastOnly = await ctx.services.keys.create(ACTOR, ws.id, {
        name: 'past season',
        type: 'client',
        scopes: ['ingest:write'],
        season_restrictions: [past.id],
      });
      expect(await codes(pastOnly.secret)).toEqual(['SEASON_NOT_ALLOWED']);
      expect((await test(`Bearer ${pastOnly.secret}`)).json().warnings[0].message).toMatch(/\(Now\)/);
    });
  });
});
