import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as cli } from '#src/cli.ts';
import { Browser, createWorld, type World } from './support/world.ts';

/** Administrators from the CLI: workspace-scoped bootstrap tokens, and `user list|grant|revoke`. */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.close();
});

/** Runs a CLI command on the world's database and returns its exit code and its JSON output. */
async function run(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await cli([...args, '--json'], w.services);
    return { code, json: out.trim() === '' ? {} : (JSON.parse(out) as Record<string, unknown>) };
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
}

describe('a workspace made with the CLI gets its owner through the normal login', () => {
  let wsId = '';
  let owner: Browser;

  it('bootstrap-token --workspace W: redeeming it makes the signed-in user owner of W, even though workspaces exist', async () => {
    expect((await run('workspace', 'create', '--name', 'Other Realm')).code).toBe(0);
    const created = await run('workspace', 'create', '--name', 'My Server');
    expect(created.code).toBe(0);
    wsId = (created.json.data as { id: string }).id;
    const made = await run('bootstrap-token', '--workspace', 'my-server');
    expect(made.code).toBe(0);
    const token = made.json.token as string;
    expect(token).toMatch(/^stb_bootstrap_/);

    owner = new Browser(w);
    await owner.login('op@example.com');
    const res = await owner.app('POST', '/api/v1/setup/bootstrap', { body: { token } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ data: { workspace_id: wsId, role: 'owner' } });
    const me = await owner.app('GET', '/api/v1/admin/me');
    expect(me.json()).toMatchObject({ workspace_id: wsId, role: 'owner' });
    // Single use: spent, it creates nothing (and workspaces exist).
    const reuse = await owner.app('POST', '/api/v1/setup/bootstrap', { body: { token } });
    expect(reuse.statusCode).toBe(409);
  });

  it('a token without --workspace still cannot create a second first workspace (409)', async () => {
    const plain = await run('bootstrap-token');
    const res = await owner.app('POST', '/api/v1/setup/bootstrap', { body: { token: plain.json.token } });
    expect(res.statusCode).toBe(409);
  });

  it('bootstrap-token for an unknown workspace exits 4', async () => {
    expect((await run('bootstrap-token', '--workspace', 'nope')).code).toBe(4);
  });

  it('user list, grant and revoke; never the last owner', async () => {
    const listed = await run('user', 'list', '--workspace', 'my-server');
    expect(listed.code).toBe(0);
    expect(listed.json.data).toEqual([
      { id: expect.any(String), email: 'op@example.com', display_name: expect.any(String), role: 'owner' },
    ]);
    const ana = new Browser(w);
    await ana.login('ana@example.com');
    const granted = await run(
      'user',
      'grant',
      '--workspace',
      'my-server',
      '--user',
      'ANA@example.com',
      '--role',
      'analyst',
    );
    expect(granted.code).toBe(0);
    expect(granted.json.data).toMatchObject({ email: 'ana@example.com', role: 'analyst' });
    expect((await ana.app('GET', '/api/v1/admin/me')).json().role).toBe('analyst');
    expect(
      (await run('user', 'grant', '--workspace', 'my-server', '--user', 'ghost@example.com', '--role', 'admin')).code,
    ).toBe(4);
    expect(
      (await run('user', 'grant', '--workspace', 'my-server', '--user', 'ana@example.com', '--role', 'boss')).code,
    ).toBe(2);
    const ownerId = (listed.json.data as { id: string }[])[0]!.id;
    expect((await run('user', 'revoke', '--workspace', 'my-server', '--user', ownerId)).code).toBe(5);
    expect((await run('user', 'revoke', '--workspace', 'my-server', '--user', 'ana@example.com')).code).toBe(0);
    const after = await run('user', 'list', '--workspace', 'my-server');
    expect((after.json.data as { email: string }[]).map((u) => u.email)).toEqual(['op@example.com']);
  });

  it('user grant names by email only a user whose provider verified it, and one only (exit 5: use the id)', async () => {
    w.idp!.accounts.set('cli-unverified', { email: 'unverified@example.com', emailVerified: false });
    const unverified = new Browser(w);
    await unverified.login('cli-unverified');
    const grant = (user: string) =>
      run('user', 'grant', '--workspace', 'my-server', '--user', user, '--role', 'readonly');
    expect((await grant('unverified@example.com')).code).toBe(4);
    const id = ((await unverified.app('GET', '/api/v1/admin/me')).json() as { id: string }).id;
    expect((await grant(id)).code).toBe(0);

    for (const twin of ['cli-twin-1', 'cli-twin-2']) {
      w.idp!.accounts.set(twin, { email: 'twins@example.com' });
      await new Browser(w).login(twin);
    }
    expect((await grant('twins@example.com')).code).toBe(5);
  });

  it("user grant reaches a member of another workspace (the operator's privilege), who keeps both memberships", async () => {
    const granted = await run(
      'user',
      'grant',
      '--workspace',
      'other-realm',
      '--user',
      'op@example.com',
      '--role',
      'admin',
    );
    expect(granted.code).toBe(0);
    const list = async (ws: string) =>
      ((await run('user', 'list', '--workspace', ws)).json.data as { email: string; role: string }[]).find(
        (u) => u.email === 'op@example.com',
      )?.role;
    expect(await list('other-realm')).toBe('admin');
    expect(await list('my-server')).toBe('owner');
  });

  it('an owner of one workspace redeems a --workspace token for another: owner of both, the first still theirs', async () => {
    const third = await run('workspace', 'create', '--name', 'Third Realm');
    const thirdId = (third.json.data as { id: string }).id;
    const token = (await run('bootstrap-token', '--workspace', 'third-realm')).json.token as string;
    // The owner of my-server is signed in with a role: the setup route takes the token all the same.
    expect((await owner.app('GET', '/api/v1/admin/me')).json()).toMatchObject({
      role: 'owner',
      needs_bootstrap: false,
    });
    const res = await owner.app('POST', '/api/v1/setup/bootstrap', { body: { token } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ data: { workspace_id: thirdId, role: 'owner' } });
    const roleIn = async (ws: string) =>
      ((await run('user', 'list', '--workspace', ws)).json.data as { email: string; role: string }[]).find(
        (u) => u.email === 'op@example.com',
      )?.role;
    expect(await roleIn('third-realm')).toBe('owner');
    expect(await roleIn('my-server')).toBe('owner');
  });
});

describe('/admin/me gives the console the address players use (PUBLIC_URL)', () => {
  it('with whether it is loopback (players cannot reach it)', async () => {
    const reachable = new Browser(w);
    await reachable.login('public@example.com');
    expect((await reachable.app('GET', '/api/v1/admin/me')).json()).toMatchObject({
      public_url: 'http://statboard.test',
      public_url_loopback: false,
    });
    const local = await createWorld({ env: { PUBLIC_URL: 'http://127.0.0.1:8080' } });
    try {
      const b = new Browser(local);
      await b.login('local@example.com');
      expect((await b.app('GET', '/api/v1/admin/me')).json()).toMatchObject({
        public_url: 'http://127.0.0.1:8080',
        public_url_loopback: true,
      });
    } finally {
      await local.close();
    }
  });
});
