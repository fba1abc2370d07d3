import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LIST_CACHE_MS } from '#src/modules/players/admin-service.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { countRows, expectError, expectInvalid } from '../http/support.ts';
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

interface AuditRecord {
  id: string;
  workspace_id: string;
  actor: { user_id: string | null; label: string | null; display_name: string | null };
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  request_id: string | null;
  created_at: string;
}

async function auditLog(): Promise<AuditRecord[]> {
  const res = await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?per_page=100');
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: AuditRecord[] }).data;
}

const secrets: string[] = [];

describe('API keys', () => {
  let keyId = '';
  it('creates a key (201 {data, secret}); uuid_restrictions is an alias of player_restrictions', async () => {
    const res = await t.browsers.admin.app('POST', '/api/v1/admin/api-keys', {
      body: {
        name: 'Website',
        type: 'website',
        scopes: ['players:read', 'stats:read'],
        uuid_restrictions: [PLAYER_UUID],
        season_restrictions: [t.seasonId],
      },
      headers: { 'x-request-id': 'req-create-key' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { data: Record<string, unknown>; secret: string };
    expect(body.secret).toMatch(/^stb_website_[0-9a-f-]{36}_.{43,}$/);
    expect(body.data).toMatchObject({
      name: 'Website',
      type: 'website',
      status: 'active',
      player_restrictions: [PLAYER_UUID],
      uuid_restrictions: [PLAYER_UUID],
      season_restrictions: [t.seasonId],
      server_restrictions: [],
    });
    expect(body.data).not.toHaveProperty('secret_hash');
    secrets.push(body.secret);
    keyId = String(body.data.id);
    const read = await w.app.inject({ url: `/api/v1/players/${PLAYER_UUID}`, headers: bearer(body.secret) });
    expect(read.statusCode).toBe(200);
  });

  it('lists keys without secrets', async () => {
    const res = await t.browsers.readonly.app('GET', '/api/v1/admin/api-keys');
    expect(res.statusCode).toBe(200);
    // The whole secret (it may itself contain `_`: everything after the token's third underscore).
    expect(res.body).not.toContain(secrets[0]!.split('_').slice(3).join('_'));
    expect(res.body).not.toContain('secret');
    expect((res.json() as { data: { id: string }[] }).data.map((k) => k.id)).toContain(keyId);
  });

  it('lists each key with the fields, order and values of the schema-serialized record of a change', async () => {
    // PUT answers through the route's response schema; the list is written with JSON.stringify.
    const put = await t.browsers.admin.app('PUT', `/api/v1/admin/api-keys/${keyId}`, {
      body: { name: 'Website', scopes: ['players:read', 'stats:read'], uuid_restrictions: [PLAYER_UUID] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = put.body.slice('{"data":'.length, -1);
    const list = await t.browsers.readonly.app('GET', '/api/v1/admin/api-keys');
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const listed = (list.json() as { data: { id: string }[] }).data.find((k) => k.id === keyId);
    expect(JSON.stringify(listed)).toBe(changed);
    expect(list.body).toContain(changed);
  });

  it('validates: a client key with a read scope is 422, an unknown season restriction 422', async () => {
    expectInvalid(
      await t.browsers.admin.app('POST', '/api/v1/admin/api-keys', {
        body: { name: 'x', type: 'client', scopes: ['ingest:write', 'players:read'] },
      }),
      'scopes',
    );
    expectInvalid(
      await t.browsers.admin.app('POST', '/api/v1/admin/api-keys', {
        body: {
          name: 'x',
          type: 'website',
          scopes: ['players:read'],
          season_restrictions: ['00000000-0000-4000-8000-000000000000'],
        },
      }),
      'season_restrictions',
    );
  });

  it('updates a key (PUT replaces the settings)', async () => {
    const res = await t.browsers.admin.app('PUT', `/api/v1/admin/api-keys/${keyId}`, {
      body: { name: 'Website v2', scopes: ['players:read'] },
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: Record<string, unknown> }).data).toMatchObject({
      name: 'Website v2',
      scopes: ['players:read'],
      player_restrictions: [],
      season_restrictions: [],
    });
  });

  it('rotates a key with a grace period: both work during it; the new secret is returned once', async () => {
    const res = await t.browsers.admin.app('POST', `/api/v1/admin/api-keys/${keyId}/rotate`, {
      body: { grace_seconds: 300 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: string; name: string }; secret: string };
    secrets.push(body.secret);
    expect(body.data.id).not.toBe(keyId);
    expect(body.data.name).toBe('Website v2');
    for (const token of secrets) {
      expect((await w.app.inject({ url: '/api/v1/players', headers: bearer(token) })).statusCode).toBe(200);
    }
    keyId = body.data.id;
  });

  it('revokes a key: 204 with an empty body, and the key fails at once', async () => {
    const res = await t.browsers.admin.app('POST', `/api/v1/admin/api-keys/${keyId}/revoke`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await w.app.inject({ url: '/api/v1/players', headers: bearer(secrets[1]!) }), 401, 'INVALID_API_KEY');
  });

  it('answers 404 for an unknown key and a malformed id', async () => {
    expectError(
      await t.browsers.admin.app('POST', '/api/v1/admin/api-keys/00000000-0000-4000-8000-000000000000/revoke'),
      404,
      'NOT_FOUND',
    );
    expectError(await t.browsers.admin.app('POST', '/api/v1/admin/api-keys/not-a-uuid/revoke'), 404, 'NOT_FOUND');
  });
});

describe('servers and seasons', () => {
  it('registers a server (201), refuses a duplicate (409) and updates it (200)', async () => {
    const created = await t.browsers.admin.app('POST', '/api/v1/admin/servers', {
      body: { name: 'Lobby', hostname: 'Lobby.Example.com.', port: 25566 },
    });
    expect(created.statusCode).toBe(201);
    const server = (created.json() as { data: { id: string; hostname: string; enabled: boolean } }).data;
    expect(server).toMatchObject({ hostname: 'lobby.example.com', enabled: true });
    expectError(
      await t.browsers.admin.app('POST', '/api/v1/admin/servers', {
        body: { hostname: 'lobby.example.com', port: 25566 },
      }),
      409,
      'CONFLICT',
    );
    const updated = await t.browsers.admin.app('PUT', `/api/v1/admin/servers/${server.id}`, {
      body: { name: 'Lobby', hostname: 'lobby.example.com', port: 25566, enabled: false },
    });
    expect(updated.statusCode).toBe(200);
    expect((updated.json() as { data: { enabled: boolean } }).data.enabled).toBe(false);
    expectError(
      await t.browsers.admin.app('PUT', '/api/v1/admin/servers/00000000-0000-4000-8000-000000000000', {
        body: { hostname: 'x.example.com', port: 1 },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('creates seasons (201, duplicate slug 409) and activates one by slug, deactivating the other', async () => {
    const created = await t.browsers.admin.app('POST', '/api/v1/admin/seasons', { body: { name: 'Two', slug: 's2' } });
    expect(created.statusCode).toBe(201);
    expectError(
      await t.browsers.admin.app('POST', '/api/v1/admin/seasons', { body: { name: 'Two', slug: 's2' } }),
      409,
      'CONFLICT',
    );
    const act = await t.browsers.admin.app('POST', '/api/v1/admin/seasons/s2/activate');
    expect(act.statusCode).toBe(200);
    expect((act.json() as { data: { slug: string; active: boolean } }).data).toMatchObject({
      slug: 's2',
      active: true,
    });
    const list = (await t.browsers.readonly.app('GET', '/api/v1/admin/seasons')).json() as {
      data: { slug: string; active: boolean }[];
    };
    expect(list.data.filter((s) => s.active).map((s) => s.slug)).toEqual(['s2']);
    expectError(await t.browsers.admin.app('POST', '/api/v1/admin/seasons/nope/activate'), 404, 'NOT_FOUND');
    // Back to s1 for the rest of the file.
    expect((await t.browsers.admin.app('POST', '/api/v1/admin/seasons/s1/activate')).statusCode).toBe(200);
  });
});

describe('timestamps', () => {
  it('accepts only instants in years 0001–9999 in UTC (else 422), and lists stay readable', async () => {
    for (const at of [
      '9999-12-31T23:59:59-23:59',
      '0001-01-01T00:00:00+01:00',
      '0000-12-31T23:00:00Z',
      '10000-01-01T00:00:00Z',
    ]) {
      expectInvalid(
        await t.browsers.admin.app('POST', '/api/v1/admin/seasons', {
          body: { name: 'Far', slug: 'far', ended_at: at },
        }),
        'ended_at',
      );
      expectInvalid(
        await t.browsers.admin.app('POST', '/api/v1/admin/api-keys', {
          body: { name: 'Far', type: 'website', scopes: ['stats:read'], expires_at: at },
        }),
        'expires_at',
      );
    }
    const edge = await t.browsers.admin.app('POST', '/api/v1/admin/seasons', {
      body: { name: 'Edges', slug: 'edges', started_at: '0001-01-01T00:00:00Z', ended_at: '9999-12-31T23:59:59Z' },
    });
    expect(edge.statusCode).toBe(201);
    const key = await t.browsers.admin.app('POST', '/api/v1/admin/api-keys', {
      body: { name: 'Edge', type: 'website', scopes: ['stats:read'], expires_at: '9999-12-31T23:59:59.999Z' },
    });
    expect(key.statusCode).toBe(201);
    secrets.push((key.json() as { secret: string }).secret);
    const seasons = await t.browsers.readonly.app('GET', '/api/v1/admin/seasons');
    expect(seasons.statusCode).toBe(200);
    expect(JSON.stringify(seasons.json())).toContain('9999-12-31T23:59:59.000Z');
    expect((await t.browsers.readonly.app('GET', '/api/v1/admin/api-keys')).statusCode).toBe(200);
  });
});

describe('players and statistic definitions', () => {
  it('lists every player, and an analyst hides one from the public API', async () => {
    const list = await t.browsers.readonly.app('GET', '/api/v1/admin/players?search=stev');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { data: { uuid: string; public: boolean }[] }).data).toEqual([
      expect.objectContaining({ uuid: PLAYER_UUID, public: true }),
    ]);
    const res = await t.browsers.analyst.app('PUT', `/api/v1/admin/players/${PLAYER_UUID}`, {
      body: { public: false },
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: { public: boolean } }).data.public).toBe(false);
    const key = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'r',
      type: 'website',
      scopes: ['players:read'],
    });
    expectError(await w.app.inject({ url: `/api/v1/players/${PLAYER_UUID}`, headers: bearer(key.secret) }), 404);
    const hidden = await t.browsers.readonly.app('GET', '/api/v1/admin/players');
    expect((hidden.json() as { data: { public: boolean }[] }).data[0]!.public).toBe(false);
    await t.browsers.analyst.app('PUT', `/api/v1/admin/players/${PLAYER_UUID}`, { body: { public: true } });
    expectError(
      await t.browsers.analyst.app('PUT', '/api/v1/admin/players/00000000-0000-4000-8000-000000000000', {
        body: { public: true },
      }),
      404,
      'NOT_FOUND',
    );
    expectInvalid(
      await t.browsers.analyst.app('PUT', `/api/v1/admin/players/${PLAYER_UUID}`, { body: { public: 'no' } }),
      'public',
    );
  });

  it('writes the admin player list as JSON.stringify writes its records, whatever the names hold', async () => {
    const names = ['quote"back\\slash', 'ctl\u0001\u001f\n\t\b\f\r', 'uni é ☃ 😀 \u2028', 'x</script>/'];
    const [original] = await w.db.db.query<{ username: string }>('SELECT username FROM players WHERE uuid = $1', [
      PLAYER_UUID,
    ]);
    try {
      for (const name of names) {
        await w.db.db.query('UPDATE players SET username = $2 WHERE uuid = $1', [PLAYER_UUID, name]);
        // Written behind the service's back: told as ingest tells a rename.
        w.bus.applyLocal({ topic: 'player', workspaceId: t.workspaceId, players: [PLAYER_UUID] });
        for (const search of [undefined, name.slice(0, 3), PLAYER_UUID.toUpperCase(), 'no such player']) {
          const url = `/api/v1/admin/players${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`;
          const res = await t.browsers.readonly.app('GET', url);
          expect(res.statusCode, res.body).toBe(200);
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          const data = await w.services.playerAdmin.list(t.workspaceId, search);
          expect(res.body).toBe(JSON.stringify({ data }));
          if (search !== 'no such player') expect(data.map((p) => p.username)).toContain(name);
          for (const p of data) {
            expect(new Date(p.first_seen_at).toISOString()).toBe(p.first_seen_at);
            expect(new Date(p.last_seen_at).toISOString()).toBe(p.last_seen_at);
          }
        }
      }
    } finally {
      await w.db.db.query('UPDATE players SET username = $2 WHERE uuid = $1', [PLAYER_UUID, original!.username]);
      w.bus.applyLocal({ topic: 'player', workspaceId: t.workspaceId, players: [PLAYER_UUID] });
    }
  });

  it('keeps the list for 2 s, while a new player shows at once; last seen times are at most that late', async () => {
    type Listed = { data: { uuid: string; last_seen_at: string }[] };
    const list = async () => (await t.browsers.readonly.app('GET', '/api/v1/admin/players')).json() as Listed;
    const client = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'list cache',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const upload = async (uuid: string, username?: string) => {
      const res = await w.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/batch',
        headers: bearer(client.secret),
        payload: modBatch({ uuid, ...(username ? { username } : {}), stats: [] }),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const seen = (l: Listed) => l.data.find((p) => p.uuid === PLAYER_UUID)?.last_seen_at;
    const first = await list();
    const newcomer = '00000000-0000-4000-8000-00000000abcd';
    await upload(newcomer, 'Aaron');
    expect((await list()).data.map((p) => p.uuid)).toContain(newcomer);
    // An upload of a known player moves its last seen time: shown within ADMIN_LIST_CACHE_MS.
    const before = seen(await list());
    await new Promise((r) => setTimeout(r, 20));
    await upload(PLAYER_UUID);
    await new Promise((r) => setTimeout(r, ADMIN_LIST_CACHE_MS + 100));
    const after = seen(await list());
    expect(Date.parse(after!)).toBeGreaterThan(Date.parse(before!));
    expect(first.data.length).toBeGreaterThan(0);
  });

  it('caps the admin player list at 500 records', async () => {
    const client = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'bulk',
      type: 'client',
      scopes: ['ingest:write'],
    });
    for (let i = 0; i < 501; i++) {
      const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const res = await w.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/batch',
        headers: bearer(client.secret),
        payload: modBatch({ uuid, username: `p${i}`, stats: [] }),
      });
      expect(res.statusCode).toBe(200);
    }
    const list = await t.browsers.readonly.app('GET', '/api/v1/admin/players');
    expect((list.json() as { data: unknown[] }).data).toHaveLength(500);
  });

  it('changes a statistic definition (analyst): display name, sort order, visibility', async () => {
    const res = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(STAT_KEY)}`, {
      body: { display_name: 'Stone mined', sort_order: 'asc', public: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: unknown }).data).toMatchObject({
      key: STAT_KEY,
      display_name: 'Stone mined',
      sort_order: 'asc',
      public: false,
    });
    const list = (await t.browsers.readonly.app('GET', '/api/v1/admin/stats')).json() as { data: { key: string }[] };
    expect(list.data.map((d) => d.key)).toContain(STAT_KEY);
    const key = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'lb',
      type: 'website',
      scopes: ['leaderboards:read'],
    });
    expectError(
      await w.app.inject({ url: `/api/v1/leaderboards?season=s1&stat=${STAT_KEY}`, headers: bearer(key.secret) }),
      404,
    );
    expectError(
      await t.browsers.analyst.app('PUT', '/api/v1/admin/stats/no.such:stat', { body: { public: true } }),
      404,
    );
    expectInvalid(
      await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${STAT_KEY}`, { body: { sort_order: 'up' } }),
      'sort_order',
    );
  });
});

describe('users', () => {
  it("lists the workspace's members with their roles, and no one else who signed in", async () => {
    const res = await t.browsers.admin.app('GET', '/api/v1/admin/users');
    const users = (res.json() as { data: { email: string; role: string | null }[] }).data;
    expect(users.find((u) => u.email === 'owner@example.com')?.role).toBe('owner');
    expect(users.every((u) => u.role !== null)).toBe(true);
    // Signed in, but a member of no workspace here: not shown (nor are other workspaces' members).
    expect(users.find((u) => u.email === 'none@example.com')).toBeUndefined();
  });
});

describe('audit log', () => {
  it('has a record for every change with actor, target, before/after, IP, request id and time', async () => {
    const log = await auditLog();
    const actions = new Set(log.map((r) => r.action));
    for (const a of [
      'WORKSPACE_BOOTSTRAPPED',
      'USER_ROLE_UPDATED',
      'API_KEY_CREATED',
      'API_KEY_UPDATED',
      'API_KEY_ROTATED',
      'API_KEY_REVOKED',
      'SERVER_CREATED',
      'SERVER_UPDATED',
      'SEASON_CREATED',
      'SEASON_ACTIVATED',
      'PLAYER_UPDATED',
      'STAT_UPDATED',
    ]) {
      expect(actions, a).toContain(a);
    }
    const created = log.find((r) => r.request_id === 'req-create-key')!;
    expect(created).toMatchObject({
      workspace_id: t.workspaceId,
      action: 'API_KEY_CREATED',
      target_type: 'api_key',
      actor: { user_id: t.userIds.admin, label: null, display_name: 'admin' },
      before: null,
      ip: '127.0.0.1',
    });
    expect(created.after).toMatchObject({ name: 'Website', type: 'website' });
    expect(Date.parse(created.created_at)).not.toBeNaN();

    const updated = log.find((r) => r.action === 'SERVER_UPDATED')!;
    expect(updated.before).toMatchObject({ enabled: true });
    expect(updated.after).toMatchObject({ enabled: false });
    const stat = log.find((r) => r.action === 'STAT_UPDATED')!;
    expect(stat.target_id).toBe(STAT_KEY);
    expect(stat.before).toMatchObject({ public: true, sort_order: 'desc' });
    expect(stat.after).toMatchObject({ public: false, sort_order: 'asc' });
    const role = log.find((r) => r.action === 'USER_ROLE_UPDATED' && r.target_id === t.userIds.analyst)!;
    expect(role.before).toMatchObject({ role: null });
    expect(role.after).toMatchObject({ role: 'analyst' });
    const rotated = log.find((r) => r.action === 'API_KEY_ROTATED')!;
    expect(rotated.after).toMatchObject({ grace_seconds: 300, replacement: expect.any(Object) });
  });

  it('names each target and says what happened in words people read, the raw action kept beside them', async () => {
    const log = await auditLog();
    const created = log.find((r) => r.request_id === 'req-create-key')!;
    expect(created).toMatchObject({ target_name: 'Website', summary: 'Created API key Website' });
    expect(log.find((r) => r.action === 'SERVER_UPDATED')).toMatchObject({
      target_name: 'Lobby',
      summary: 'Disabled server Lobby',
    });
    expect(log.find((r) => r.action === 'USER_ROLE_UPDATED' && r.target_id === t.userIds.analyst)).toMatchObject({
      target_name: 'analyst@example.com',
      summary: 'Gave analyst@example.com the role Analyst',
    });
    expect(log.find((r) => r.action === 'WORKSPACE_BOOTSTRAPPED')).toMatchObject({
      target_name: 'Team',
      summary: 'Set up workspace Team',
    });
    // Every record reads as a sentence, none as a code or a bare id.
    for (const r of log) {
      expect(r.summary).not.toMatch(/^[A-Z_]+$/);
      if (r.target_id !== null) expect(r.summary).not.toContain(r.target_id);
    }
  });

  it('never contains a secret or a hash', async () => {
    const text = JSON.stringify(await auditLog());
    for (const s of secrets) {
      expect(text).not.toContain(s);
      expect(text).not.toContain(s.split('_').slice(3).join('_'));
    }
    expect(text).not.toMatch(/secret|token_hash|"hash"/);
    const raw = JSON.stringify(await w.db.db.query('SELECT * FROM audit_log'));
    for (const s of secrets) expect(raw).not.toContain(s.split('_').slice(3).join('_'));
  });

  it('writes nothing when the change fails (same transaction)', async () => {
    const before = await countRows(w.db.db, 'audit_log');
    expectError(
      await t.browsers.admin.app('POST', '/api/v1/admin/servers', {
        body: { hostname: 'mc.example.com', port: 25565 },
      }),
      409,
    );
    expectError(await t.browsers.admin.app('POST', '/api/v1/admin/seasons', { body: { name: 'x', slug: 's1' } }), 409);
    expect(await countRows(w.db.db, 'audit_log')).toBe(before);
  });

  it('pages like /players: meta, per_page 1–100, page ≥ 1, empty past the end', async () => {
    const total = await countRows(w.db.db, 'audit_log', 'workspace_id = $1', [t.workspaceId]);
    const page = await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?page=2&per_page=3');
    expect(page.statusCode).toBe(200);
    const body = page.json() as { data: AuditRecord[]; meta: unknown };
    expect(body.meta).toEqual({ current_page: 2, per_page: 3, total });
    expect(body.data).toHaveLength(3);
    const first = (await t.browsers.owner.app('GET', '/api/v1/admin/audit-log')).json() as {
      data: AuditRecord[];
      meta: { per_page: number };
    };
    expect(first.meta.per_page).toBe(50);
    // Newest first.
    expect(Date.parse(first.data[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(first.data.at(-1)!.created_at));
    const past = (await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?page=999')).json() as { data: unknown[] };
    expect(past.data).toEqual([]);
    for (const q of [
      'per_page=0',
      'per_page=101',
      'per_page=2.5',
      'per_page=x',
      'page=0',
      'page=Infinity',
      'page=1e400',
      'per_page=Infinity',
      'page=-Infinity',
    ]) {
      expectError(await t.browsers.owner.app('GET', `/api/v1/admin/audit-log?${q}`), 422, 'INVALID_PAYLOAD');
    }
  });

  it('cannot be changed or deleted through the API, and the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.browsers.owner.app(method, '/api/v1/admin/audit-log', { body: {} });
      expect(res.statusCode).toBe(404);
    }
    const id = (await auditLog())[0]!.id;
    expect((await t.browsers.owner.app('DELETE', `/api/v1/admin/audit-log/${id}`)).statusCode).toBe(404);
    await expect(w.db.db.query(`UPDATE audit_log SET action = 'X' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(w.db.db.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(/append-only/);
    await expect(w.db.db.exec('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await auditLog()).some((r) => r.id === id)).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents every admin route with tag Admin, the session cookie and its statuses', async () => {
    const doc = (await w.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags: string[]; security: unknown; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const expected: [string, string, string[]][] = [
      ['/api/v1/admin/me', 'get', ['200', '401']],
      ['/api/v1/admin/api-keys', 'get', ['200', '401', '403']],
      ['/api/v1/admin/api-keys', 'post', ['201', '401', '403', '422']],
      ['/api/v1/admin/api-keys/{key}', 'put', ['200', '401', '403', '404', '422']],
      ['/api/v1/admin/api-keys/{key}/rotate', 'post', ['200', '401', '403', '404']],
      ['/api/v1/admin/api-keys/{key}/revoke', 'post', ['204', '401', '403', '404']],
      ['/api/v1/admin/servers', 'post', ['201', '409', '422']],
      ['/api/v1/admin/servers/{server}', 'put', ['200', '404']],
      ['/api/v1/admin/seasons', 'post', ['201', '409']],
      ['/api/v1/admin/seasons/{season}/activate', 'post', ['200', '404']],
      ['/api/v1/admin/players', 'get', ['200']],
      ['/api/v1/admin/players/{player}', 'put', ['200', '404']],
      ['/api/v1/admin/stats', 'get', ['200']],
      ['/api/v1/admin/stats/{key}', 'put', ['200', '404']],
      ['/api/v1/admin/users', 'get', ['200', '403']],
      ['/api/v1/admin/users/{user}', 'put', ['200', '409']],
      ['/api/v1/admin/audit-log', 'get', ['200', '422']],
      ['/api/v1/setup/bootstrap', 'post', ['201', '401', '409', '422']],
    ];
    for (const [path, method, statuses] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.tags).toEqual(['Admin']);
      expect(op!.security).toEqual([{ sessionCookie: [] }]);
      for (const s of statuses) expect(Object.keys(op!.responses), `${method} ${path}`).toContain(s);
    }
    for (const name of ['AdminMe', 'ApiKey', 'CreateApiKeyResponse'])
      expect(doc.components.schemas).toHaveProperty(name);
  });
});
