import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, PLAYER_UUID, STAT_KEY, type Team } from '../admin/support/team.ts';
import { type Browser, createWorld, type World } from '../admin/support/world.ts';
import { ACTOR, bearer, DB_KIND } from '../helpers.ts';
import type { Json } from './compat.ts';
import { Conformance } from './conformance.ts';

let w: World;
let team: Team;
let conformance: Conformance;

/** A request of a signed-in browser (or none: no cookie), checked against the served document. */
async function call(
  who: Browser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  template: string,
  url: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const res = who
    ? await who.app(method, url, opts)
    : await w.app.inject({
        method,
        url,
        headers: { origin: w.config.publicUrl, ...opts.headers },
        ...(opts.body === undefined ? {} : { payload: opts.body as object }),
      });
  conformance.check(method, template, res, url);
  return res;
}

beforeAll(async () => {
  w = await createWorld();
  team = await buildTeam(w);
  const res = await w.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  conformance = new Conformance(JSON.parse(res.body) as Json);
}, 120_000);

afterAll(async () => {
  await w?.close();
});

const owner = () => team.browsers.owner;
const admin = () => team.browsers.admin;
const readonly = () => team.browsers.readonly;
const analyst = () => team.browsers.analyst;

describe(`admin responses match the served OpenAPI document (${DB_KIND})`, () => {
  it('GET /admin/me: 200 signed in, 401 without a session, 403 with an API key', async () => {
    const T = '/api/v1/admin/me';
    expect((await call(owner(), 'GET', T, T)).json()).toMatchObject({ role: 'owner', needs_bootstrap: false });
    expect((await call(team.browsers.none, 'GET', T, T)).json()).toMatchObject({ role: null });
    expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    expect((await call(null, 'GET', T, T, { headers: bearer(team.websiteToken) })).statusCode).toBe(403);
  });

  it('PUT /admin/me/workspace: 200 for a workspace of the user, 404 another, 401/403 without a session', async () => {
    const T = '/api/v1/admin/me/workspace';
    const chosen = await call(owner(), 'PUT', T, T, { body: { id: team.workspaceId } });
    expect(chosen.json()).toMatchObject({ workspace_id: team.workspaceId, role: 'owner' });
    expect((await call(owner(), 'PUT', T, T, { body: { id: randomUUID() } })).statusCode).toBe(404);
    expect((await call(owner(), 'PUT', T, T, { body: { id: 'nope' } })).statusCode).toBe(422);
    expect((await call(null, 'PUT', T, T, { body: { id: team.workspaceId } })).statusCode).toBe(401);
    const key = { headers: bearer(team.websiteToken), body: { id: team.workspaceId } };
    expect((await call(null, 'PUT', T, T, key)).statusCode).toBe(403);
  });

  describe('API keys', () => {
    const LIST = '/api/v1/admin/api-keys';
    const ONE = '/api/v1/admin/api-keys/{key}';
    let keyId: string;

    it('lists (200), refuses no session (401) and a user without a role (403)', async () => {
      const res = await call(readonly(), 'GET', LIST, LIST);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(team.websiteToken.split('_').slice(3).join('_'));
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);
    });

    it('creates (201), refuses a bad type/scope pair (422), bad JSON (400) and a read-only user (403)', async () => {
      const body = { name: 'site', type: 'website', scopes: ['players:read'], player_restrictions: [PLAYER_UUID] };
      const res = await call(admin(), 'POST', LIST, LIST, { body });
      expect(res.statusCode).toBe(201);
      keyId = res.json().data.id;
      expect(res.json().secret).toMatch(/^stb_website_/);
      const bad = await call(admin(), 'POST', LIST, LIST, { body: { ...body, type: 'client' } });
      expect(bad.statusCode).toBe(422);
      const unparseable = await call(admin(), 'POST', LIST, LIST, {
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(unparseable.statusCode).toBe(400);
      expect((await call(readonly(), 'POST', LIST, LIST, { body })).statusCode).toBe(403);
      expect((await call(null, 'POST', LIST, LIST, { body })).statusCode).toBe(401);
    });

    it('updates (200), answers 404 for an unknown key and 422 for an invalid body', async () => {
      const body = { name: 'site 2', scopes: ['players:read', 'stats:read'] };
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${keyId}`, { body })).statusCode).toBe(200);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${randomUUID()}`, { body })).statusCode).toBe(404);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${keyId}`, { body: { name: '' } })).statusCode).toBe(422);
      expect((await call(readonly(), 'PUT', ONE, `${LIST}/${keyId}`, { body })).statusCode).toBe(403);
      expect((await call(null, 'PUT', ONE, `${LIST}/${keyId}`, { body })).statusCode).toBe(401);
    });

    it('rotates (200) and revokes (204), 404 for an unknown key, 401/403 without rights', async () => {
      const ROTATE = `${ONE}/rotate`;
      const REVOKE = `${ONE}/revoke`;
      const rotated = await call(admin(), 'POST', ROTATE, `${LIST}/${keyId}/rotate`, { body: {} });
      expect(rotated.statusCode).toBe(200);
      const newId = rotated.json().data.id as string;
      expect((await call(admin(), 'POST', ROTATE, `${LIST}/${randomUUID()}/rotate`, { body: {} })).statusCode).toBe(
        404,
      );
      expect((await call(readonly(), 'POST', ROTATE, `${LIST}/${newId}/rotate`, { body: {} })).statusCode).toBe(403);
      expect((await call(null, 'POST', ROTATE, `${LIST}/${newId}/rotate`, { body: {} })).statusCode).toBe(401);
      expect((await call(admin(), 'POST', REVOKE, `${LIST}/${newId}/revoke`)).statusCode).toBe(204);
      expect((await call(admin(), 'POST', REVOKE, `${LIST}/${randomUUID()}/revoke`)).statusCode).toBe(404);
      expect((await call(readonly(), 'POST', REVOKE, `${LIST}/${newId}/revoke`)).statusCode).toBe(403);
      expect((await call(null, 'POST', REVOKE, `${LIST}/${newId}/revoke`)).statusCode).toBe(401);
    });
  });

  describe('servers and seasons', () => {
    it('lists, creates, updates servers; 409 on a duplicate, 404 unknown, 422 invalid', async () => {
      const LIST = '/api/v1/admin/servers';
      const ONE = '/api/v1/admin/servers/{server}';
      expect((await call(readonly(), 'GET', LIST, LIST)).statusCode).toBe(200);
      const body = { name: 'Lobby', hostname: 'lobby.example.com', port: 25566 };
      const created = await call(admin(), 'POST', LIST, LIST, { body });
      expect(created.statusCode).toBe(201);
      expect((await call(admin(), 'POST', LIST, LIST, { body })).statusCode).toBe(409);
      expect((await call(admin(), 'POST', LIST, LIST, { body: { ...body, port: 0 } })).statusCode).toBe(422);
      const id = created.json().data.id as string;
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${id}`, { body: { ...body, enabled: false } })).statusCode).toBe(
        200,
      );
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${randomUUID()}`, { body })).statusCode).toBe(404);
      expect((await call(analyst(), 'POST', LIST, LIST, { body })).statusCode).toBe(403);
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);
      expect((await call(null, 'POST', LIST, LIST, { body })).statusCode).toBe(401);
      expect((await call(null, 'PUT', ONE, `${LIST}/${id}`, { body })).statusCode).toBe(401);
      expect((await call(analyst(), 'PUT', ONE, `${LIST}/${id}`, { body })).statusCode).toBe(403);
    });

    it('lists, creates, changes and activates seasons; 409 on a duplicate slug, 404 unknown, 422 invalid', async () => {
      const LIST = '/api/v1/admin/seasons';
      const ONE = '/api/v1/admin/seasons/{season}';
      const ACTIVATE = '/api/v1/admin/seasons/{season}/activate';
      expect((await call(readonly(), 'GET', LIST, LIST)).statusCode).toBe(200);
      const body = { name: 'Season 2', slug: 's2' };
      expect((await call(admin(), 'POST', LIST, LIST, { body })).statusCode).toBe(201);
      expect((await call(admin(), 'POST', LIST, LIST, { body })).statusCode).toBe(409);
      expect((await call(admin(), 'POST', LIST, LIST, { body: { name: 'x', slug: 'Not A Slug' } })).statusCode).toBe(
        422,
      );
      const gains = { body: { scoring: 'gains' } };
      expect((await call(admin(), 'PUT', ONE, `${LIST}/s2`, gains)).statusCode).toBe(200);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/s2`, { body: { scoring: 'best' } })).statusCode).toBe(422);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/s2`, { body: { slug: 's1' } })).statusCode).toBe(409);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/nope`, gains)).statusCode).toBe(404);
      expect((await call(analyst(), 'PUT', ONE, `${LIST}/s2`, gains)).statusCode).toBe(403);
      expect((await call(null, 'PUT', ONE, `${LIST}/s2`, gains)).statusCode).toBe(401);
      expect((await call(admin(), 'POST', ACTIVATE, `${LIST}/s2/activate`)).statusCode).toBe(200);
      expect((await call(admin(), 'POST', ACTIVATE, `${LIST}/nope/activate`)).statusCode).toBe(404);
      expect((await call(analyst(), 'POST', ACTIVATE, `${LIST}/s2/activate`)).statusCode).toBe(403);
      expect((await call(null, 'POST', ACTIVATE, `${LIST}/s2/activate`)).statusCode).toBe(401);
      expect((await call(analyst(), 'POST', LIST, LIST, { body })).statusCode).toBe(403);
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);
      expect((await call(null, 'POST', LIST, LIST, { body })).statusCode).toBe(401);
    });
  });

  describe('players, statistics, users and the audit log', () => {
    it('lists and hides players (analyst), 404 unknown, 422 invalid', async () => {
      const LIST = '/api/v1/admin/players';
      const ONE = '/api/v1/admin/players/{player}';
      const res = await call(readonly(), 'GET', LIST, `${LIST}?search=ste`);
      expect(res.json().data[0]).toMatchObject({ uuid: PLAYER_UUID });
      const url = `${LIST}/${PLAYER_UUID}`;
      expect((await call(analyst(), 'PUT', ONE, url, { body: { public: false } })).statusCode).toBe(200);
      expect((await call(analyst(), 'PUT', ONE, url, { body: { public: 'no' } })).statusCode).toBe(422);
      expect(
        (await call(analyst(), 'PUT', ONE, `${LIST}/${randomUUID()}`, { body: { public: true } })).statusCode,
      ).toBe(404);
      expect((await call(readonly(), 'PUT', ONE, url, { body: { public: true } })).statusCode).toBe(403);
      expect((await call(null, 'PUT', ONE, url, { body: { public: true } })).statusCode).toBe(401);
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);
    });

    it('lists and updates statistic definitions, 404 unknown', async () => {
      const LIST = '/api/v1/admin/stats';
      const ONE = '/api/v1/admin/stats/{key}';
      expect((await call(readonly(), 'GET', LIST, LIST)).json().data[0]).toMatchObject({ key: STAT_KEY });
      const url = `${LIST}/${encodeURIComponent(STAT_KEY)}`;
      expect((await call(analyst(), 'PUT', ONE, url, { body: { sort_order: 'asc' } })).statusCode).toBe(200);
      expect((await call(analyst(), 'PUT', ONE, url, { body: { sort_order: 'up' } })).statusCode).toBe(422);
      expect((await call(analyst(), 'PUT', ONE, `${LIST}/nope:nope`, { body: { public: true } })).statusCode).toBe(404);
      expect((await call(readonly(), 'PUT', ONE, url, { body: { public: true } })).statusCode).toBe(403);
      expect((await call(null, 'PUT', ONE, url, { body: { public: true } })).statusCode).toBe(401);
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);
    });

    it('lists and updates users (admin), 409 when the last owner would go, 403 for an analyst', async () => {
      const LIST = '/api/v1/admin/users';
      const ONE = '/api/v1/admin/users/{user}';
      expect((await call(admin(), 'GET', LIST, LIST)).statusCode).toBe(200);
      expect((await call(analyst(), 'GET', LIST, LIST)).statusCode).toBe(403);
      expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
      const url = `${LIST}/${team.userIds.none}`;
      expect((await call(admin(), 'PUT', ONE, url, { body: { role: 'readonly' } })).statusCode).toBe(200);
      expect((await call(admin(), 'PUT', ONE, url, { body: { role: 'boss' } })).statusCode).toBe(422);
      const ownerUrl = `${LIST}/${team.userIds.owner}`;
      expect((await call(owner(), 'PUT', ONE, ownerUrl, { body: { role: 'admin' } })).statusCode).toBe(409);
      expect((await call(admin(), 'PUT', ONE, `${LIST}/${randomUUID()}`, { body: { role: 'admin' } })).statusCode).toBe(
        404,
      );
      expect((await call(analyst(), 'PUT', ONE, url, { body: { role: 'admin' } })).statusCode).toBe(403);
      expect((await call(null, 'PUT', ONE, url, { body: { role: 'admin' } })).statusCode).toBe(401);
      // By the email address they signed in with (the console's "Give someone a role").
      const byEmail = await call(admin(), 'PUT', ONE, `${LIST}/analyst@example.com`, { body: { role: 'analyst' } });
      expect(byEmail.statusCode, byEmail.body).toBe(200);
      const unknown = await call(admin(), 'PUT', ONE, `${LIST}/nobody@example.com`, { body: { role: 'analyst' } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toMatch(/must sign in once/);
    });

    it('pages the audit log (200), 422 for a bad page size, 403 for an analyst', async () => {
      const T = '/api/v1/admin/audit-log';
      const res = await call(admin(), 'GET', T, `${T}?per_page=5`);
      expect(res.json().data.length).toBeGreaterThan(0);
      expect((await call(admin(), 'GET', T, `${T}?per_page=0`)).statusCode).toBe(422);
      expect((await call(analyst(), 'GET', T, T)).statusCode).toBe(403);
      expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    });
  });

  it('manages webhooks (admin): create, list, replace, rotate, test, deliveries, delete; 401, 403, 404, 409, 422', async () => {
    const LIST = '/api/v1/admin/webhooks';
    const ONE = '/api/v1/admin/webhooks/{webhook}';
    const body = { url: 'https://93.184.216.34/hook', events: ['season.activated', 'webhook.test'] };
    const created = await call(admin(), 'POST', LIST, LIST, { body });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const url = `${LIST}/${id}`;
    expect((await call(admin(), 'POST', LIST, LIST, { body: { ...body, url: 'http://10.0.0.1/' } })).statusCode).toBe(
      422,
    );
    expect((await call(admin(), 'GET', LIST, LIST)).statusCode).toBe(200);
    expect((await call(admin(), 'PUT', ONE, url, { body })).statusCode).toBe(200);
    expect((await call(admin(), 'PUT', ONE, url, { body: { ...body, events: [] } })).statusCode).toBe(422);
    expect((await call(admin(), 'PUT', ONE, `${LIST}/${randomUUID()}`, { body })).statusCode).toBe(404);
    const ROTATE = `${ONE}/rotate-secret`;
    expect((await call(admin(), 'POST', ROTATE, `${url}/rotate-secret`)).statusCode).toBe(200);
    expect((await call(admin(), 'POST', ROTATE, `${LIST}/${randomUUID()}/rotate-secret`)).statusCode).toBe(404);
    const TEST = `${ONE}/test`;
    expect((await call(admin(), 'POST', TEST, `${url}/test`)).statusCode).toBe(202);
    const DELIVERIES = `${ONE}/deliveries`;
    expect((await call(admin(), 'GET', DELIVERIES, `${url}/deliveries`)).statusCode).toBe(200);
    expect((await call(admin(), 'GET', DELIVERIES, `${url}/deliveries?per_page=0`)).statusCode).toBe(422);
    expect((await call(admin(), 'GET', DELIVERIES, `${LIST}/${randomUUID()}/deliveries`)).statusCode).toBe(404);
    expect((await call(admin(), 'PUT', ONE, url, { body: { ...body, enabled: false } })).statusCode).toBe(200);
    expect((await call(admin(), 'POST', TEST, `${url}/test`)).statusCode).toBe(409);
    expect((await call(admin(), 'POST', TEST, `${LIST}/${randomUUID()}/test`)).statusCode).toBe(404);
    for (const [method, template, path] of [
      ['GET', LIST, LIST],
      ['POST', LIST, LIST],
      ['PUT', ONE, url],
      ['DELETE', ONE, url],
      ['POST', ROTATE, `${url}/rotate-secret`],
      ['POST', TEST, `${url}/test`],
      ['GET', DELIVERIES, `${url}/deliveries`],
    ] as const) {
      const opts = method === 'POST' || method === 'PUT' ? { body } : {};
      expect((await call(analyst(), method, template, path, opts)).statusCode).toBe(403);
      expect((await call(null, method, template, path, opts)).statusCode).toBe(401);
    }
    expect((await call(admin(), 'DELETE', ONE, url)).statusCode).toBe(204);
    expect((await call(admin(), 'DELETE', ONE, url)).statusCode).toBe(404);
  });

  it("mirrors the key reads for the console (every role): the website's view, signed in", async () => {
    const reader = await w.services.keys.create(ACTOR, team.workspaceId, {
      name: 'reader',
      type: 'integration',
      scopes: ['players:read', 'stats:read', 'leaderboards:read', 'presence:read'],
    });
    // The user without a role (an earlier test gave it one).
    const U = '/api/v1/admin/users/{user}';
    const none = `/api/v1/admin/users/${team.userIds.none}`;
    expect((await call(admin(), 'PUT', U, none, { body: { role: null } })).statusCode).toBe(200);
    // And the player an earlier test hid, shown again.
    const P = '/api/v1/admin/players/{player}';
    const shown = await call(admin(), 'PUT', P, `/api/v1/admin/players/${PLAYER_UUID}`, { body: { public: true } });
    expect(shown.statusCode).toBe(200);
    const reads: [string, string][] = [
      ['/api/v1/admin/leaderboards', `/api/v1/admin/leaderboards?season=s1&stat=${STAT_KEY}`],
      [
        '/api/v1/admin/leaderboards/rank',
        `/api/v1/admin/leaderboards/rank?season=s1&stat=${STAT_KEY}&player=${PLAYER_UUID}`,
      ],
      ['/api/v1/admin/players/{player}/stats', `/api/v1/admin/players/${PLAYER_UUID}/stats`],
      [
        '/api/v1/admin/players/{player}/stats/history',
        `/api/v1/admin/players/${PLAYER_UUID}/stats/history?stat=${STAT_KEY}`,
      ],
      ['/api/v1/admin/online', '/api/v1/admin/online'],
    ];
    for (const [template, url] of reads) {
      const res = await call(readonly(), 'GET', template, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      // The same answer a website key gets.
      const key = await w.app.inject({ method: 'GET', url: url.replace('/admin', ''), headers: bearer(reader.secret) });
      expect(key.statusCode).toBe(200);
      expect(res.json()).toEqual(key.json());
      expect((await call(null, 'GET', template, url)).statusCode, `${url} without a session`).toBe(401);
      expect((await call(team.browsers.none, 'GET', template, url)).statusCode, `${url} without a role`).toBe(403);
      const withKey = await call(null, 'GET', template, url, { headers: bearer(team.websiteToken) });
      expect(withKey.statusCode, `${url} with a key`).toBe(403);
    }
    const missing = `/api/v1/admin/players/${randomUUID()}/stats`;
    expect((await call(readonly(), 'GET', '/api/v1/admin/players/{player}/stats', missing)).statusCode).toBe(404);
    const unknown = '/api/v1/admin/leaderboards?season=s1&stat=no:such';
    expect((await call(readonly(), 'GET', '/api/v1/admin/leaderboards', unknown)).statusCode).toBe(404);
  });

  it('filters the audit log by action, actor and time, and exports it as CSV (admins)', async () => {
    const T = '/api/v1/admin/audit-log';
    const all = (await call(admin(), 'GET', T, T)).json();
    const created = (await call(admin(), 'GET', T, `${T}?action=SEASON_CREATED`)).json();
    expect(created.meta.total).toBeGreaterThan(0);
    expect(created.meta.total).toBeLessThan(all.meta.total);
    expect(created.data.every((r: { action: string }) => r.action === 'SEASON_CREATED')).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await call(admin(), 'GET', T, `${T}?from=${encodeURIComponent(future)}`)).json().meta.total).toBe(0);
    expect((await call(admin(), 'GET', T, `${T}?from=yesterday`)).statusCode).toBe(422);
    const E = '/api/v1/admin/audit-log/export';
    const csv = await call(admin(), 'GET', E, `${E}?action=SEASON_CREATED`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="statboard-audit-log-/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,action,actor,actor_user_id,target_type,target_id,ip,request_id,before,after,summary,target_name',
    );
    expect(lines[1]).toMatch(/,Created (and activated )?season [^,]+,[^,]+$/);
    expect(lines).toHaveLength(created.meta.total + 1);
    expect((await call(analyst(), 'GET', E, E)).statusCode).toBe(403);
    expect((await call(null, 'GET', E, E)).statusCode).toBe(401);
    expect((await call(admin(), 'GET', E, `${E}?to=never`)).statusCode).toBe(422);
  });

  it('POST /setup/bootstrap: 401 without a session, 409 once a workspace exists', async () => {
    const T = '/api/v1/setup/bootstrap';
    expect((await call(null, 'POST', T, T, { body: { token: 'x' } })).statusCode).toBe(401);
    const { token } = await w.services.setup.createToken(ACTOR);
    expect((await call(team.browsers.none, 'POST', T, T, { body: { token } })).statusCode).toBe(409);
  });

  it('GET|PUT /admin/public-site: 200 (every role reads, admins write), 401, 403, 422', async () => {
    const T = '/api/v1/admin/public-site';
    expect((await call(readonly(), 'GET', T, T)).json()).toMatchObject({ data: { enabled: false } });
    expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    expect((await call(team.browsers.none, 'GET', T, T)).statusCode).toBe(403);
    const body = { enabled: true, title: 'Team', description: '', featured_stats: [STAT_KEY], embed_origins: [] };
    expect((await call(admin(), 'PUT', T, T, { body })).json()).toMatchObject({ data: { enabled: true } });
    expect((await call(readonly(), 'PUT', T, T, { body })).statusCode).toBe(403);
    expect((await call(null, 'PUT', T, T, { body })).statusCode).toBe(401);
    expect((await call(admin(), 'PUT', T, T, { body: { ...body, embed_origins: ['nope'] } })).statusCode).toBe(422);
  });

  it('lists ingest rejections (every role), 401 without a session, 403 for an API key', async () => {
    const T = '/api/v1/admin/ingest/rejections';
    expect((await call(readonly(), 'GET', T, T)).statusCode).toBe(200);
    expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    const key = { authorization: `Bearer ${team.websiteToken}` };
    expect((await call(null, 'GET', T, T, { headers: key })).statusCode).toBe(403);
  });

  it('gives activity (every role), 401 without a session, 403 for an API key', async () => {
    const T = '/api/v1/admin/activity';
    expect((await call(readonly(), 'GET', T, T)).statusCode).toBe(200);
    expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    const key = { authorization: `Bearer ${team.websiteToken}` };
    expect((await call(null, 'GET', T, T, { headers: key })).statusCode).toBe(403);
    expect((await call(readonly(), 'GET', T, `${T}?interval=week`)).statusCode).toBe(422);
  });

  it('removes values (admin), erases and blocks a player and unblocks them (owner), lists blocks (every role)', async () => {
    const mod = await w.services.keys.create(ACTOR, team.workspaceId, {
      name: 'erasure mod',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const uuid = randomUUID();
    const batch = {
      protocol_version: 1,
      client: { mod_version: '1.2.0', minecraft_version: '1.21.4' },
      player: { uuid, username: 'Erased' },
      server: { hostname: 'mc.example.com', port: 25565 },
      session_id: randomUUID(),
      observed_at: new Date().toISOString(),
      stats: [{ key: STAT_KEY, value: 3 }],
    };
    const up = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: bearer(mod.secret),
      payload: batch,
    });
    expect(up.statusCode, up.body).toBe(200);
    const STATS = '/api/v1/admin/players/{player}/stats';
    // The season the upload went into (earlier tests activate others).
    const active = (await w.services.seasons.active(team.workspaceId))!;
    const stats = `/api/v1/admin/players/${uuid}/stats?season=${active.id}`;
    expect((await call(analyst(), 'DELETE', STATS, stats)).statusCode).toBe(403);
    expect((await call(null, 'DELETE', STATS, stats)).statusCode).toBe(401);
    expect((await call(admin(), 'DELETE', STATS, `/api/v1/admin/players/${uuid}/stats`)).statusCode).toBe(422);
    expect(
      (await call(admin(), 'DELETE', STATS, `/api/v1/admin/players/${randomUUID()}/stats?season=s1`)).statusCode,
    ).toBe(404);
    expect((await call(admin(), 'DELETE', STATS, stats)).json()).toEqual({ data: { values_removed: 1 } });

    const ONE = '/api/v1/admin/players/{player}';
    const one = `/api/v1/admin/players/${uuid}`;
    expect((await call(admin(), 'DELETE', ONE, one)).statusCode).toBe(403);
    expect((await call(null, 'DELETE', ONE, one)).statusCode).toBe(401);
    expect((await call(owner(), 'DELETE', ONE, `${one}?block=maybe`)).statusCode).toBe(422);
    expect((await call(owner(), 'DELETE', ONE, `/api/v1/admin/players/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call(owner(), 'DELETE', ONE, `${one}?block=true`)).statusCode).toBe(204);

    const LIST = '/api/v1/admin/players/blocked';
    expect((await call(readonly(), 'GET', LIST, LIST)).json().data).toMatchObject([{ uuid }]);
    expect((await call(null, 'GET', LIST, LIST)).statusCode).toBe(401);
    expect((await call(team.browsers.none, 'GET', LIST, LIST)).statusCode).toBe(403);

    const BLOCK = '/api/v1/admin/players/{player}/block';
    const block = `${one}/block`;
    expect((await call(admin(), 'DELETE', BLOCK, block)).statusCode).toBe(403);
    expect((await call(null, 'DELETE', BLOCK, block)).statusCode).toBe(401);
    expect((await call(owner(), 'DELETE', BLOCK, block)).statusCode).toBe(204);
    expect((await call(owner(), 'DELETE', BLOCK, block)).statusCode).toBe(404);
  });

  it('lists review items (every role), approves and rejects them (admin); 404 unknown, 409 decided, 422 invalid', async () => {
    const client = await w.services.keys.create(ACTOR, team.workspaceId, {
      name: 'held',
      type: 'client',
      scopes: ['ingest:write'],
    });
    // Two players whose play time then rises by a billion ticks at once: held (`rate`).
    const held: string[] = [randomUUID(), randomUUID()];
    for (const [i, value] of [1, 1e9].entries()) {
      for (const uuid of held) {
        const res = await w.app.inject({
          method: 'POST',
          url: '/api/v1/ingest/batch',
          headers: bearer(client.secret),
          payload: {
            protocol_version: 1,
            client: { mod_version: '1', minecraft_version: '1.21.4' },
            player: { uuid, username: 'Held' },
            server: { hostname: 'mc.example.com', port: 25565 },
            session_id: randomUUID(),
            observed_at: new Date(Date.now() + i).toISOString(),
            stats: [{ key: 'minecraft.custom:minecraft.play_time', value }],
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const T = '/api/v1/admin/review';
    const list = await call(readonly(), 'GET', T, T);
    expect(list.statusCode, list.body).toBe(200);
    const ids = (list.json().data as { id: string; player: { uuid: string } }[])
      .filter((d) => held.includes(d.player.uuid))
      .map((d) => d.id);
    expect(ids).toHaveLength(2);
    expect((await call(readonly(), 'GET', T, `${T}?status=gone`)).statusCode).toBe(422);
    expect((await call(null, 'GET', T, T)).statusCode).toBe(401);
    const key = { authorization: `Bearer ${team.websiteToken}` };
    expect((await call(null, 'GET', T, T, { headers: key })).statusCode).toBe(403);
    for (const [decision, id] of [
      ['approve', ids[0]!],
      ['reject', ids[1]!],
    ] as const) {
      const D = `/api/v1/admin/review/{id}/${decision}`;
      const url = `/api/v1/admin/review/${id}/${decision}`;
      expect((await call(analyst(), 'POST', D, url)).statusCode).toBe(403);
      expect((await call(null, 'POST', D, url)).statusCode).toBe(401);
      expect((await call(admin(), 'POST', D, url)).statusCode).toBe(200);
      expect((await call(admin(), 'POST', D, url)).statusCode).toBe(409);
      expect((await call(admin(), 'POST', D, `/api/v1/admin/review/${randomUUID()}/${decision}`)).statusCode).toBe(404);
    }
  });

  it('exercised the success, 401 and 403 responses of every admin route', () => {
    const adminRoute = (path: string) => path.startsWith('/api/v1/admin/');
    const missing = conformance.missing(adminRoute, ['200', '201', '204', '401', '403']);
    expect(missing).toEqual([]);
  });
});
