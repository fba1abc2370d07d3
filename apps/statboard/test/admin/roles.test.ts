import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#src/access/roles.ts';
import { ACTOR } from '../helpers.ts';
import { expectError } from '../http/support.ts';
import { buildTeam, PLAYER_UUID, STAT_KEY, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

let w: World;
let t: Team;
beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
});
afterAll(async () => {
  await w?.close();
});

type Who = Role | 'none';
const ALL: Who[] = ['owner', 'admin', 'analyst', 'readonly', 'none'];

interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Roles that may call it; everyone else (and a user without a role) gets 403. */
  allowed: Role[];
  ok: number;
  /** Builds the URL and body for one call (fresh targets for one-shot changes). */
  make(): Promise<{ url: string; body?: unknown }>;
}

let n = 0;
const READERS: Role[] = ['owner', 'admin', 'analyst', 'readonly'];
const ANALYSTS: Role[] = ['owner', 'admin', 'analyst'];
const ADMINS: Role[] = ['owner', 'admin'];
const OWNERS: Role[] = ['owner'];

const freshKey = async () =>
  (await w.services.keys.create(ACTOR, t.workspaceId, { name: `k${++n}`, type: 'client', scopes: ['ingest:write'] }))
    .data.id;

const freshWebhook = async () =>
  (
    await w.services.webhooks.create(ACTOR, t.workspaceId, {
      url: `https://93.184.216.34/hook/${++n}`,
      events: ['webhook.test'],
    })
  ).data.id;

const ROUTES: AdminRoute[] = [
  {
    method: 'GET',
    path: '/admin/api-keys',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/api-keys' }),
  },
  {
    method: 'POST',
    path: '/admin/api-keys',
    allowed: ADMINS,
    ok: 201,
    make: async () => ({
      url: '/api/v1/admin/api-keys',
      body: { name: `new ${++n}`, type: 'website', scopes: ['players:read'] },
    }),
  },
  {
    method: 'PUT',
    path: '/admin/api-keys/{key}',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({
      url: `/api/v1/admin/api-keys/${t.clientKeyId}`,
      body: { name: 'mod', scopes: ['ingest:write'] },
    }),
  },
  {
    method: 'POST',
    path: '/admin/api-keys/{key}/rotate',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/api-keys/${await freshKey()}/rotate` }),
  },
  {
    method: 'POST',
    path: '/admin/api-keys/{key}/revoke',
    allowed: ADMINS,
    ok: 204,
    make: async () => ({ url: `/api/v1/admin/api-keys/${await freshKey()}/revoke` }),
  },
  {
    method: 'GET',
    path: '/admin/servers',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/servers' }),
  },
  {
    method: 'POST',
    path: '/admin/servers',
    allowed: ADMINS,
    ok: 201,
    make: async () => ({ url: '/api/v1/admin/servers', body: { hostname: `mc${++n}.example.com`, port: 25565 } }),
  },
  {
    method: 'PUT',
    path: '/admin/servers/{server}',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({
      url: `/api/v1/admin/servers/${t.serverId}`,
      body: { name: 'Main', hostname: 'mc.example.com', port: 25565, enabled: true },
    }),
  },
  {
    method: 'GET',
    path: '/admin/seasons',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/seasons' }),
  },
  {
    method: 'POST',
    path: '/admin/seasons',
    allowed: ADMINS,
    ok: 201,
    make: async () => ({ url: '/api/v1/admin/seasons', body: { name: 'Later', slug: `later-${++n}` } }),
  },
  {
    method: 'POST',
    path: '/admin/seasons/{season}/activate',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/seasons/${t.seasonId}/activate` }),
  },
  {
    method: 'GET',
    path: '/admin/players',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/players' }),
  },
  {
    method: 'PUT',
    path: '/admin/players/{player}',
    allowed: ANALYSTS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/players/${PLAYER_UUID}`, body: { public: true } }),
  },
  {
    method: 'DELETE',
    path: '/admin/players/{player}/stats',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/players/${PLAYER_UUID}/stats?season=${t.seasonId}` }),
  },
  {
    method: 'DELETE',
    path: '/admin/players/{player}',
    allowed: OWNERS,
    ok: 204,
    // A UUID without a player can be blocked: a fresh one for each call.
    make: async () => ({ url: `/api/v1/admin/players/${randomUUID()}?block=true` }),
  },
  {
    method: 'DELETE',
    path: '/admin/players/{player}/block',
    allowed: OWNERS,
    ok: 204,
    make: async () => {
      const uuid = randomUUID();
      await w.services.erasure.erase(ACTOR, t.workspaceId, uuid, true);
      return { url: `/api/v1/admin/players/${uuid}/block` };
    },
  },
  {
    method: 'GET',
    path: '/admin/players/blocked',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/players/blocked' }),
  },
  {
    method: 'GET',
    path: '/admin/stats',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/stats' }),
  },
  {
    method: 'PUT',
    path: '/admin/stats/{key}',
    allowed: ANALYSTS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/stats/${encodeURIComponent(STAT_KEY)}`, body: { public: true } }),
  },
  { method: 'GET', path: '/admin/users', allowed: ADMINS, ok: 200, make: async () => ({ url: '/api/v1/admin/users' }) },
  {
    method: 'PUT',
    path: '/admin/users/{user}',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/users/${t.userIds.readonly}`, body: { role: 'readonly' } }),
  },
  {
    method: 'GET',
    path: '/admin/audit-log',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/audit-log' }),
  },
  {
    method: 'GET',
    path: '/admin/webhooks',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/webhooks' }),
  },
  {
    method: 'POST',
    path: '/admin/webhooks',
    allowed: ADMINS,
    ok: 201,
    make: async () => ({
      url: '/api/v1/admin/webhooks',
      body: { url: `https://93.184.216.34/hook/${++n}`, events: ['season.activated'] },
    }),
  },
  {
    method: 'PUT',
    path: '/admin/webhooks/{webhook}',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({
      url: `/api/v1/admin/webhooks/${await freshWebhook()}`,
      body: { url: 'https://93.184.216.34/hook', events: ['api_key.revoked'] },
    }),
  },
  {
    method: 'DELETE',
    path: '/admin/webhooks/{webhook}',
    allowed: ADMINS,
    ok: 204,
    make: async () => ({ url: `/api/v1/admin/webhooks/${await freshWebhook()}` }),
  },
  {
    method: 'POST',
    path: '/admin/webhooks/{webhook}/rotate-secret',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/webhooks/${await freshWebhook()}/rotate-secret` }),
  },
  {
    method: 'POST',
    path: '/admin/webhooks/{webhook}/test',
    allowed: ADMINS,
    ok: 202,
    make: async () => ({ url: `/api/v1/admin/webhooks/${await freshWebhook()}/test` }),
  },
  {
    method: 'GET',
    path: '/admin/public-site',
    allowed: READERS,
    ok: 200,
    make: async () => ({ url: '/api/v1/admin/public-site' }),
  },
  {
    method: 'PUT',
    path: '/admin/public-site',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({
      url: '/api/v1/admin/public-site',
      body: { enabled: false, title: `Site ${++n}`, description: '', featured_stats: [], embed_origins: [] },
    }),
  },
  {
    method: 'GET',
    path: '/admin/webhooks/{webhook}/deliveries',
    allowed: ADMINS,
    ok: 200,
    make: async () => ({ url: `/api/v1/admin/webhooks/${await freshWebhook()}/deliveries` }),
  },
];

describe('every role against every admin route', () => {
  const cases = ROUTES.flatMap((r) => ALL.map((who) => [`${r.method} ${r.path}`, who, r] as const));
  it.each(cases)('%s as %s', async (_name, who, route) => {
    const { url, body } = await route.make();
    const res = await t.browsers[who].app(route.method, url, body === undefined ? {} : { body });
    if (who !== 'none' && route.allowed.includes(who)) {
      expect(res.statusCode, res.body).toBe(route.ok);
    } else {
      expectError(res, 403, 'FORBIDDEN');
    }
  });

  it('GET /admin/me works for every signed-in user, with or without a role', async () => {
    for (const who of ALL) {
      const res = await t.browsers[who].app('GET', '/api/v1/admin/me');
      expect(res.statusCode).toBe(200);
      expect((res.json() as { role: string | null }).role).toBe(who === 'none' ? null : who);
    }
  });
});

describe('admin routes accept only the session cookie', () => {
  const all = [...ROUTES.map((r) => [r.method, r.path, r] as const)];
  it.each(all)(
    '%s %s: valid API key 403, invalid 401 INVALID_API_KEY, nothing 401 UNAUTHENTICATED',
    async (_m, _p, route) => {
      const { url, body } = await route.make();
      const base = { method: route.method, url, ...(body === undefined ? {} : { payload: body as object }) };
      const withKey = await w.app.inject({ ...base, headers: { authorization: `Bearer ${t.websiteToken}` } });
      expectError(withKey, 403, 'FORBIDDEN');
      // Even together with a valid session, an API key is refused.
      const both = await w.app.inject({
        ...base,
        headers: {
          authorization: `Bearer ${t.websiteToken}`,
          cookie: `statboard_session=${t.browsers.owner.session}`,
          origin: 'http://statboard.test',
        },
      });
      expectError(both, 403, 'FORBIDDEN');
      const badKey = await w.app.inject({ ...base, headers: { authorization: 'Bearer stb_website_nope' } });
      expectError(badKey, 401, 'INVALID_API_KEY');
      const none = await w.app.inject(base);
      expectError(none, 401, 'UNAUTHENTICATED');
      const badCookie = await w.app.inject({ ...base, headers: { cookie: 'statboard_session=forged' } });
      expectError(badCookie, 401, 'UNAUTHENTICATED');
    },
  );
});

describe('Origin checks on state-changing admin requests', () => {
  const changing = ROUTES.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path, r] as const);
  it.each(changing)('%s %s from another origin is 403 and changes nothing', async (_m, _p, route) => {
    const { url, body } = await route.make();
    const before = await w.db.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://statboard.test:8080' },
      { origin: 'https://statboard.test' },
    ]) {
      const res = await t.browsers.owner.app(route.method, url, { ...(body === undefined ? {} : { body }), headers });
      expectError(res, 403, 'FORBIDDEN');
    }
    const refererOnly = await t.browsers.owner.app(route.method, url, {
      ...(body === undefined ? {} : { body }),
      headers: { origin: '', referer: 'https://evil.example/page' },
    });
    expectError(refererOnly, 403, 'FORBIDDEN');
    const after = await w.db.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('accepts a matching Referer when Origin is absent, and a request with neither (not from a browser page)', async () => {
    const url = `/api/v1/admin/players/${PLAYER_UUID}`;
    const viaReferer = await w.app.inject({
      method: 'PUT',
      url,
      payload: { public: true },
      headers: { cookie: `statboard_session=${t.browsers.owner.session}`, referer: 'http://statboard.test/console' },
    });
    expect(viaReferer.statusCode).toBe(200);
    const neither = await w.app.inject({
      method: 'PUT',
      url,
      payload: { public: true },
      headers: { cookie: `statboard_session=${t.browsers.owner.session}` },
    });
    expect(neither.statusCode).toBe(200);
  });
});

describe('role management rules', () => {
  it('an admin cannot grant owner (403); an owner can', async () => {
    const target = t.userIds.none;
    expectError(
      await t.browsers.admin.app('PUT', `/api/v1/admin/users/${target}`, { body: { role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
    const res = await t.browsers.owner.app('PUT', `/api/v1/admin/users/${target}`, { body: { role: 'owner' } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: { role: string } }).data.role).toBe('owner');
  });

  it("an admin cannot change an owner's role (403)", async () => {
    expectError(
      await t.browsers.admin.app('PUT', `/api/v1/admin/users/${t.userIds.none}`, { body: { role: 'readonly' } }),
      403,
      'FORBIDDEN',
    );
  });

  it('an owner may step down while another owner remains; the last owner cannot be demoted (409)', async () => {
    // 'none' is an owner now (previous test).
    const res = await t.browsers.none.app('PUT', `/api/v1/admin/users/${t.userIds.none}`, { body: { role: 'admin' } });
    expect(res.statusCode).toBe(200);
    expectError(
      await t.browsers.owner.app('PUT', `/api/v1/admin/users/${t.userIds.owner}`, { body: { role: 'admin' } }),
      409,
      'CONFLICT',
    );
    expectError(
      await t.browsers.owner.app('PUT', `/api/v1/admin/users/${t.userIds.owner}`, { body: { role: null } }),
      409,
      'CONFLICT',
    );
  });

  it('an admin removes a role with null: the user then gets 403 on admin routes', async () => {
    const res = await t.browsers.admin.app('PUT', `/api/v1/admin/users/${t.userIds.none}`, { body: { role: null } });
    expect(res.statusCode).toBe(200);
    expectError(await t.browsers.none.app('GET', '/api/v1/admin/servers'), 403, 'FORBIDDEN');
  });

  it('an unknown user is 404, an invalid role 422', async () => {
    expectError(
      await t.browsers.owner.app('PUT', '/api/v1/admin/users/00000000-0000-4000-8000-000000000000', {
        body: { role: 'admin' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.browsers.owner.app('PUT', `/api/v1/admin/users/${t.userIds.readonly}`, { body: { role: 'viewer' } }),
      422,
      'INVALID_PAYLOAD',
    );
  });
});
