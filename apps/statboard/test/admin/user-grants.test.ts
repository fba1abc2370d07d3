import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR } from '../helpers.ts';
import { expectError } from '../http/support.ts';
import { type Browser, createWorld, signIn, type World } from './support/world.ts';

/**
 * Who a role change on `/admin/users/{email|id}` names: a login is one user by (issuer, subject); an email names
 * a user only when their provider verified it, and only one; an admin reaches the members of their workspace and
 * users without any membership, nobody else.
 */
let w: World;
let ownerA: Browser;
let adminA: Browser;
let ownerB: Browser;
let wsA = '';
let wsB = '';

const idOf = async (b: Browser): Promise<string> =>
  ((await b.app('GET', '/api/v1/admin/me')).json() as { id: string }).id;
const roleOf = async (b: Browser): Promise<string | null> =>
  ((await b.app('GET', '/api/v1/admin/me')).json() as { role: string | null }).role;
const grant = (by: Browser, user: string, role: string | null): Promise<LightMyRequestResponse> =>
  by.app('PUT', `/api/v1/admin/users/${encodeURIComponent(user)}`, { body: { role } });
const dataOf = (res: LightMyRequestResponse) => (res.json() as { data: { id: string; role: string | null } }).data;
const membersOf = async (b: Browser): Promise<Record<string, string | null>> => {
  const res = await b.app('GET', '/api/v1/admin/users');
  expect(res.statusCode, res.body).toBe(200);
  const users = (res.json() as { data: { id: string; role: string | null }[] }).data;
  return Object.fromEntries(users.map((u) => [u.id, u.role]));
};

/** The 404 of a user nobody has heard of: every user out of reach must get exactly this. */
let unknownBody: { code: string; message: string };
const expectUnknown = (res: LightMyRequestResponse): void => {
  const { code, message } = expectError(res, 404, 'NOT_FOUND').error;
  expect({ code, message }).toEqual(unknownBody);
};

beforeAll(async () => {
  w = await createWorld();
  ownerA = await signIn(w, 'owner@a.test');
  const boot = await ownerA.app('POST', '/api/v1/setup/bootstrap', {
    body: { token: (await w.services.setup.createToken(ACTOR)).token, workspace_name: 'A' },
  });
  expect(boot.statusCode, boot.body).toBe(201);
  wsA = (boot.json() as { data: { workspace_id: string } }).data.workspace_id;
  adminA = await signIn(w, 'admin@a.test');
  expect((await grant(ownerA, await idOf(adminA), 'admin')).statusCode).toBe(200);

  wsB = (await w.services.workspaces.create(ACTOR, { name: 'B' })).id;
  ownerB = await signIn(w, 'owner@b.test');
  const bootB = await ownerB.app('POST', '/api/v1/setup/bootstrap', {
    body: { token: (await w.services.setup.createToken(ACTOR, { workspace_id: wsB })).token },
  });
  expect(bootB.statusCode, bootB.body).toBe(201);
  const memberB = await signIn(w, 'member@b.test');
  expect((await grant(ownerB, 'member@b.test', 'readonly')).statusCode).toBe(200);
  expect(await roleOf(memberB)).toBe('readonly');

  const unknown = expectError(await grant(ownerA, 'ghost@a.test', 'admin'), 404, 'NOT_FOUND').error;
  unknownBody = { code: unknown.code, message: unknown.message };
});
afterAll(async () => {
  await w?.close();
});

describe('a role given by email goes only to a user whose provider verified the email', () => {
  it('gives it to the verified owner of the email, not to a later login that claims it unverified', async () => {
    const victim = await signIn(w, 'victim@a.test');
    w.idp!.accounts.set('attacker', { email: 'victim@a.test', emailVerified: false });
    const attacker = await signIn(w, 'attacker');
    // Same email, another subject: another user (a login is matched by issuer and subject only).
    expect(await idOf(attacker)).not.toBe(await idOf(victim));

    const res = await grant(ownerA, 'Victim@A.test', 'admin');
    expect(res.statusCode, res.body).toBe(200);
    expect(dataOf(res)).toMatchObject({ id: await idOf(victim), role: 'admin' });
    expect(await roleOf(victim)).toBe('admin');
    expect(await roleOf(attacker)).toBeNull();
  });

  it('refuses with 409 when two verified users share the email, saying to use the user id; the id works', async () => {
    w.idp!.accounts.set('twin-1', { email: 'shared@a.test' });
    w.idp!.accounts.set('twin-2', { email: 'shared@a.test' });
    const one = await signIn(w, 'twin-1');
    const two = await signIn(w, 'twin-2');
    const refused = expectError(await grant(ownerA, 'shared@a.test', 'analyst'), 409, 'CONFLICT').error;
    expect(refused.message).toMatch(/user id/);
    expect(refused.message).toContain('GET /api/v1/admin/users');
    expect(await roleOf(one)).toBeNull();
    expect(await roleOf(two)).toBeNull();

    const byId = await grant(ownerA, await idOf(two), 'analyst');
    expect(byId.statusCode, byId.body).toBe(200);
    expect(await roleOf(two)).toBe('analyst');
    expect(await roleOf(one)).toBeNull();
    // Still two users behind the email: still 409, even now that one is a member.
    expectError(await grant(ownerA, 'shared@a.test', null), 409, 'CONFLICT');
  });

  it('answers 404, as for an unknown user, when only unverified logins carry the email; their id still works', async () => {
    w.idp!.accounts.set('claims-false', { email: 'unverified@a.test', emailVerified: false });
    w.idp!.accounts.set('claims-nothing', { email: 'unverified@a.test', emailVerified: null });
    const said = await signIn(w, 'claims-false');
    await signIn(w, 'claims-nothing');
    expectUnknown(await grant(ownerA, 'unverified@a.test', 'readonly'));

    const byId = await grant(ownerA, await idOf(said), 'readonly');
    expect(byId.statusCode, byId.body).toBe(200);
    expect(await roleOf(said)).toBe('readonly');
  });

  it('takes the verification of the latest login: verified now, the email names the user', async () => {
    w.idp!.accounts.set('late@a.test', { emailVerified: false });
    const late = await signIn(w, 'late@a.test');
    expectUnknown(await grant(ownerA, 'late@a.test', 'readonly'));
    w.idp!.accounts.set('late@a.test', { emailVerified: true });
    await late.login('late@a.test');
    const res = await grant(ownerA, 'late@a.test', 'readonly');
    expect(res.statusCode, res.body).toBe(200);
    expect(dataOf(res).id).toBe(await idOf(late));
  });

  it('reads email_verified from the ID token when the email comes from there', async () => {
    const iw = await createWorld({
      idp: { claimsInIdToken: true, accounts: { 'no@i.test': { emailVerified: false } } },
    });
    try {
      const owner = await signIn(iw, 'owner@i.test');
      const boot = await owner.app('POST', '/api/v1/setup/bootstrap', {
        body: { token: (await iw.services.setup.createToken(ACTOR)).token },
      });
      expect(boot.statusCode, boot.body).toBe(201);
      await signIn(iw, 'yes@i.test');
      await signIn(iw, 'no@i.test');
      expect((await grant(owner, 'yes@i.test', 'readonly')).statusCode).toBe(200);
      expectError(await grant(owner, 'no@i.test', 'readonly'), 404, 'NOT_FOUND');
    } finally {
      await iw.close();
    }
  });
});

describe("an admin reaches only their workspace's members and users without any membership", () => {
  it('cannot find, grant or remove a member of another workspace by email or id: 404, the same body as unknown', async () => {
    const ownerBId = await idOf(ownerB);
    const beforeB = await membersOf(ownerB);
    const memberBId = Object.keys(beforeB).find((id) => id !== ownerBId)!;
    for (const ref of ['owner@b.test', ownerBId, 'member@b.test', memberBId]) {
      for (const role of ['admin', 'readonly', null]) {
        expectUnknown(await grant(adminA, ref, role));
        expectUnknown(await grant(ownerA, ref, role));
      }
    }
    expect(await membersOf(ownerB)).toEqual(beforeB);
    expect(Object.keys(await membersOf(adminA))).not.toContain(ownerBId);
    expect(await roleOf(ownerB)).toBe('owner');
  });

  it('gives a role to someone who signed in without any membership; another workspace then cannot reach them', async () => {
    const newcomer = await signIn(w, 'newhire@b.test');
    const res = await grant(adminA, 'newhire@b.test', 'readonly');
    expect(res.statusCode, res.body).toBe(200);
    expect(await roleOf(newcomer)).toBe('readonly');
    expectUnknown(await grant(ownerB, 'newhire@b.test', 'admin'));
    expectUnknown(await grant(ownerB, await idOf(newcomer), 'admin'));
  });

  it('lets only one of two workspaces granting the same newcomer at once have them; the other gets 404', async () => {
    const newcomer = await signIn(w, 'contested@x.test');
    const answers = await Promise.all([
      grant(adminA, 'contested@x.test', 'readonly'),
      grant(ownerB, 'contested@x.test', 'readonly'),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const rows = await w.db.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM workspace_memberships WHERE user_id = $1',
      [await idOf(newcomer)],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('leaves a user in two workspaces both memberships whichever workspace changes its own', async () => {
    const both = await signIn(w, 'both@x.test');
    const id = await idOf(both);
    expect((await grant(adminA, 'both@x.test', 'analyst')).statusCode).toBe(200);
    // Only the operator puts a member of one workspace into another (the CLI reaches every user).
    await w.services.users.setRole({ ...ACTOR, role: 'owner' }, wsB, id, { role: 'readonly' }, 'anyone');

    const fromA = await grant(adminA, id, 'admin');
    expect(fromA.statusCode, fromA.body).toBe(200);
    const fromB = await grant(ownerB, 'both@x.test', 'analyst');
    expect(fromB.statusCode, fromB.body).toBe(200);
    expect((await membersOf(adminA))[id]).toBe('admin');
    expect((await membersOf(ownerB))[id]).toBe('analyst');

    const removed = await grant(ownerB, id, null);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await membersOf(adminA))[id]).toBe('admin');
    expect(id in (await membersOf(ownerB))).toBe(false);
    const rows = await w.db.db.query<{ workspace_id: string }>(
      'SELECT workspace_id FROM workspace_memberships WHERE user_id = $1',
      [id],
    );
    expect(rows.map((r) => r.workspace_id)).toEqual([wsA]);
  });
});
