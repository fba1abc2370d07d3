import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../http/support.ts';
import { buildTeam, type Team } from './support/team.ts';
import { type AppInstance, Browser, createWorld, signIn, type World } from './support/world.ts';

/**
 * Signed-in sessions are kept in memory with their user and role (the `session` cache): every test reads first,
 * so that the session is kept, then changes something and checks the very next request, on this instance and on
 * another one sharing the database and the change bus.
 */
let w: World;
let t: Team;
let other: AppInstance;
/** Display names the provider gives (read at every login). */
const names: Record<string, string> = {};
beforeAll(async () => {
  w = await createWorld({ idp: { names } });
  t = await buildTeam(w);
  other = await w.instance();
});
afterAll(async () => {
  await w?.close();
});

/** The same browser's cookies, sent to another instance. */
function on(target: AppInstance, b: Browser): Browser {
  const moved = new Browser(target);
  for (const [k, v] of b.appJar.cookies) moved.appJar.cookies.set(k, v);
  return moved;
}

async function me(b: Browser): Promise<{ status: number; role?: string | null; display_name?: string }> {
  const res = await b.app('GET', '/api/v1/admin/me');
  return res.statusCode === 200 ? { status: 200, ...res.json() } : { status: res.statusCode };
}

describe('signed-in sessions kept in memory', () => {
  it('refuses a session at once after logout, on this instance and on another that kept it', async () => {
    const b = await signIn(w, 'logout-kept@example.com');
    const elsewhere = on(other, b);
    for (let i = 0; i < 3; i++) {
      expect((await me(b)).status).toBe(200);
      expect((await me(elsewhere)).status).toBe(200);
    }
    const session = b.session!;
    const out = await b.app('POST', '/auth/logout', { headers: { accept: 'application/json' } });
    expect(out.statusCode).toBe(204);
    for (const target of [w, other]) {
      const res = await target.app.inject({
        url: '/api/v1/admin/players',
        headers: { cookie: `statboard_session=${session}` },
      });
      expectError(res, 401, 'UNAUTHENTICATED');
    }
  });

  it('applies a role change to the next request on both instances; a removed role is refused', async () => {
    const b = await signIn(w, 'demoted@example.com');
    const id = (await b.app('GET', '/api/v1/admin/me')).json().id as string;
    const grant = await t.browsers.owner.app('PUT', `/api/v1/admin/users/${id}`, { body: { role: 'admin' } });
    expect(grant.statusCode, grant.body).toBe(200);
    const elsewhere = on(other, b);
    const listKeys = (x: Browser) => x.app('GET', '/api/v1/admin/api-keys');
    const createServer = (x: Browser, name: string) =>
      x.app('POST', '/api/v1/admin/servers', { body: { name, hostname: `${name}.example.com`, port: 25565 } });
    for (const x of [b, elsewhere]) {
      expect((await me(x)).role).toBe('admin');
      expect((await listKeys(x)).statusCode).toBe(200);
    }
    expect((await createServer(b, 'kept-a')).statusCode).toBe(201);

    // Demoted: reads still allowed, configuration writes refused at once.
    const demote = await t.browsers.owner.app('PUT', `/api/v1/admin/users/${id}`, { body: { role: 'readonly' } });
    expect(demote.statusCode, demote.body).toBe(200);
    for (const x of [b, elsewhere]) {
      expect((await me(x)).role).toBe('readonly');
      expectError(await createServer(x, 'refused'), 403, 'FORBIDDEN');
    }

    // Removed from the workspace: every admin read refused at once.
    const remove = await t.browsers.owner.app('PUT', `/api/v1/admin/users/${id}`, { body: { role: null } });
    expect(remove.statusCode, remove.body).toBe(200);
    for (const x of [b, elsewhere]) {
      expect((await me(x)).role).toBeNull();
      expectError(await x.app('GET', '/api/v1/admin/players'), 403, 'FORBIDDEN');
      expectError(await listKeys(x), 403, 'FORBIDDEN');
    }
  });

  it('shows a new name from a later login to the sessions already signed in', async () => {
    const first = await signIn(w, 'renamed@example.com');
    expect((await me(first)).display_name).toBe('renamed');
    names['renamed@example.com'] = 'Renamed Person';
    await signIn(w, 'renamed@example.com');
    expect((await me(first)).display_name).toBe('Renamed Person');
    expect((await me(on(other, first))).display_name).toBe('Renamed Person');
  });

  it('ends a kept session at its idle time, and at its absolute expiry however active it is', async () => {
    const idle = await signIn(w, 'kept-idle@example.com');
    for (let i = 0; i < 3; i++) expect((await me(idle)).status).toBe(200);
    w.clock.advance(120 * 60_000);
    expect((await me(idle)).status).toBe(401);

    const active = await signIn(w, 'kept-absolute@example.com');
    const expiresAt = w.clock.t + 12 * 3_600_000;
    for (let i = 0; i < 11; i++) {
      w.clock.advance(60 * 60_000);
      expect((await me(active)).status).toBe(200);
    }
    // Last seen 30 s before the end: the next requests are answered from memory, which knows the end too.
    w.clock.t = expiresAt - 30_000;
    expect((await me(active)).status).toBe(200);
    w.clock.t = expiresAt - 1_000;
    expect((await me(active)).status).toBe(200);
    w.clock.t = expiresAt;
    expect((await me(active)).status).toBe(401);
    expect((await me(on(other, active))).status).toBe(401);
  });

  it('keeps a session alive that another instance saw, though this instance kept an older last-seen time', async () => {
    const b = await signIn(w, 'two-doors@example.com');
    const elsewhere = on(other, b);
    expect((await me(b)).status).toBe(200);
    w.clock.advance(100 * 60_000);
    expect((await me(elsewhere)).status).toBe(200);
    w.clock.advance(100 * 60_000);
    // 200 minutes since this instance saw it, 100 since the other did (idle time: 120 minutes).
    expect((await me(b)).status).toBe(200);
    w.clock.advance(121 * 60_000);
    expect((await me(elsewhere)).status).toBe(401);
    expect((await me(b)).status).toBe(401);
  });
});
