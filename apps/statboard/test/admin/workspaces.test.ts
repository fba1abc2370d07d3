import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, bearer } from '../helpers.ts';
import { countRows, expectError } from '../http/support.ts';
import { buildTeam, type Team } from './support/team.ts';
import { Browser, createWorld, signIn, type World } from './support/world.ts';

// A user who belongs to several workspaces picks the one the session acts in; every admin route then answers for
// it. The team's owner is also an admin of a second workspace, built through the services as the CLI would.

let w: World;
let t: Team;
let second: { id: string; name: string; slug: string };
let secondServerId = '';
let secondKeyId = '';

interface Me {
  workspace_id: string | null;
  role: string | null;
  permissions: string[];
  workspaces: { id: string; name: string; slug: string; role: string }[];
}

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  second = await w.services.workspaces.create(ACTOR, { name: 'Second', slug: 'second' });
  await w.services.users.setRole({ ...ACTOR, role: 'owner' }, second.id, t.userIds.owner, { role: 'admin' }, 'anyone');
  secondServerId = (
    await w.services.servers.create(ACTOR, second.id, { name: 'Lobby', hostname: 'lobby.example.com', port: 25565 })
  ).id;
  secondKeyId = (
    await w.services.keys.create(ACTOR, second.id, { name: 'second site', type: 'website', scopes: ['players:read'] })
  ).data.id;
});
afterAll(async () => {
  await w?.close();
});

const me = async (b: Browser): Promise<Me> => {
  const res = await b.app('GET', '/api/v1/admin/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Me;
};
const choose = (b: Browser, id: string) => b.app('PUT', '/api/v1/admin/me/workspace', { body: { id } });

describe('GET /admin/me', () => {
  it("lists the role's permissions in the session's workspace: none without a role", async () => {
    expect((await me(t.browsers.owner)).permissions).toEqual([
      'read',
      'read:users',
      'write:players',
      'write:config',
      'write:users',
      'grant:owner',
      'remove:values',
      'erase:players',
    ]);
    expect((await me(t.browsers.admin)).permissions).toEqual([
      'read',
      'read:users',
      'write:players',
      'write:config',
      'write:users',
      'remove:values',
    ]);
    expect((await me(t.browsers.analyst)).permissions).toEqual(['read', 'write:players']);
    expect((await me(t.browsers.readonly)).permissions).toEqual(['read']);
    expect(await me(t.browsers.none)).toMatchObject({ role: null, permissions: [], workspaces: [] });
  });

  it('lists every workspace of the user with their role there, the oldest membership first (the default)', async () => {
    const owner = await me(t.browsers.owner);
    expect(owner.workspace_id).toBe(t.workspaceId);
    expect(owner.workspaces).toEqual([
      { id: t.workspaceId, name: 'Team', slug: expect.any(String), role: 'owner' },
      { id: second.id, name: 'Second', slug: 'second', role: 'admin' },
    ]);
    expect((await me(t.browsers.readonly)).workspaces).toEqual([expect.objectContaining({ id: t.workspaceId })]);
  });
});

describe('PUT /admin/me/workspace', () => {
  it('switches the session: /admin/me and every admin route then act in the chosen workspace', async () => {
    const owner = t.browsers.owner;
    const res = await choose(owner, second.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ workspace_id: second.id, role: 'admin' });
    expect((res.json() as Me).permissions).not.toContain('grant:owner');

    const servers = await owner.app('GET', '/api/v1/admin/servers');
    expect(servers.statusCode).toBe(200);
    expect((servers.json() as { data: { id: string }[] }).data.map((s) => s.id)).toEqual([secondServerId]);
    const keys = await owner.app('GET', '/api/v1/admin/api-keys');
    expect((keys.json() as { data: { id: string }[] }).data.map((k) => k.id)).toEqual([secondKeyId]);
    const created = await owner.app('POST', '/api/v1/admin/servers', {
      body: { hostname: 'creative.example.com', port: 25565 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await countRows(w.db.db, 'servers', 'workspace_id = $1', [second.id])).toBe(2);
    expect(await countRows(w.db.db, 'servers', 'workspace_id = $1', [t.workspaceId])).toBe(1);
    // The role is the one held there (admin: no owner grants), and the first workspace's members are out of reach.
    const grant = await owner.app('PUT', `/api/v1/admin/users/${t.userIds.none}`, { body: { role: 'owner' } });
    expectError(grant, 403, 'FORBIDDEN');
    const member = await owner.app('PUT', `/api/v1/admin/users/${t.userIds.readonly}`, { body: { role: 'analyst' } });
    expectError(member, 404, 'NOT_FOUND');
  });

  it('is remembered across the requests of the session, and back again', async () => {
    const owner = t.browsers.owner;
    expect((await me(owner)).workspace_id).toBe(second.id);
    expect((await me(owner)).workspace_id).toBe(second.id);
    expect((await choose(owner, t.workspaceId)).statusCode).toBe(200);
    const back = await me(owner);
    expect(back).toMatchObject({ workspace_id: t.workspaceId, role: 'owner' });
    const servers = await owner.app('GET', '/api/v1/admin/servers');
    expect((servers.json() as { data: { id: string }[] }).data.map((s) => s.id)).toEqual([t.serverId]);
  });

  it('answers 404 for a workspace the user is not a member of (or that does not exist), and stays put', async () => {
    const admin = t.browsers.admin;
    expectError(await choose(admin, second.id), 404, 'NOT_FOUND');
    expectError(await choose(admin, randomUUID()), 404, 'NOT_FOUND');
    expectError(await choose(t.browsers.none, t.workspaceId), 404, 'NOT_FOUND');
    expect((await me(admin)).workspace_id).toBe(t.workspaceId);
    const invalid = await choose(admin, 'second');
    expect([400, 422]).toContain(invalid.statusCode);
  });

  it('refuses an API key (403), no session (401) and another origin (403), as every admin route', async () => {
    const url = '/api/v1/admin/me/workspace';
    const key = await w.app.inject({ method: 'PUT', url, headers: bearer(t.websiteToken), payload: { id: second.id } });
    expectError(key, 403, 'FORBIDDEN');
    const none = await w.app.inject({ method: 'PUT', url, payload: { id: second.id } });
    expectError(none, 401, 'UNAUTHENTICATED');
    const foreign = await t.browsers.owner.app('PUT', url, {
      body: { id: second.id },
      headers: { origin: 'https://evil.example' },
    });
    expectError(foreign, 403, 'FORBIDDEN');
    expect((await me(t.browsers.owner)).workspace_id).toBe(t.workspaceId);
  });

  it('reaches the other instances at once, even where the session was kept in memory', async () => {
    const other = await w.instance();
    const there = new Browser(other);
    for (const [k, v] of t.browsers.owner.appJar.cookies) there.appJar.cookies.set(k, v);
    expect((await me(there)).workspace_id).toBe(t.workspaceId);
    expect((await choose(t.browsers.owner, second.id)).statusCode).toBe(200);
    expect((await me(there)).workspace_id).toBe(second.id);
    expect((await choose(t.browsers.owner, t.workspaceId)).statusCode).toBe(200);
  });

  it("starts the user's next session in their last choice; a lost membership falls back to the oldest", async () => {
    expect((await choose(t.browsers.owner, second.id)).statusCode).toBe(200);
    const again = await signIn(w, 'owner@example.com');
    expect((await me(again)).workspace_id).toBe(second.id);
    // Other users' sessions are their own.
    expect((await me(t.browsers.admin)).workspace_id).toBe(t.workspaceId);

    await w.services.users.setRole({ ...ACTOR, role: 'owner' }, second.id, t.userIds.owner, { role: null }, 'anyone');
    const after = await me(again);
    expect(after).toMatchObject({ workspace_id: t.workspaceId, role: 'owner' });
    expect(after.workspaces.map((x) => x.id)).toEqual([t.workspaceId]);
    expect((await me(t.browsers.owner)).workspace_id).toBe(t.workspaceId);
  });

  it('writes no audit record: a choice changes no workspace data', async () => {
    const before = await countRows(w.db.db, 'audit_log');
    expect((await choose(t.browsers.owner, t.workspaceId)).statusCode).toBe(200);
    expect(await countRows(w.db.db, 'audit_log')).toBe(before);
  });
});
