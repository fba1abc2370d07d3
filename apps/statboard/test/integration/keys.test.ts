import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#src/errors.ts';
import {
  ACTOR,
  createTestContext,
  DB_KIND,
  disableKey,
  type Fixture,
  seedWorkspace,
  type TestContext,
} from '../helpers.ts';

let ctx: TestContext;
let fx: Fixture;
beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
});
afterAll(() => ctx.close());

const keys = () => ctx.services.keys;
const verifier = () => ctx.services.verifier;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe(`API keys (${DB_KIND})`, () => {
  it('stores only the SHA-256 of the secret, never the token', async () => {
    const { data, secret } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'k',
      type: 'integration',
      scopes: ['stats:read'],
    });
    const rows = await ctx.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [data.id]);
    const stored = JSON.stringify(rows[0]);
    const rawSecret = secret.split('_').slice(3).join('_');
    expect(stored).not.toContain(rawSecret);
    expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(data.prefix).toBe(`stb_integration_${data.id.slice(0, 8)}`);
    expect(data).not.toHaveProperty('secret_hash');
  });

  it('enforces the type and scope rules', async () => {
    const ws = fx.workspaceId;
    expect(await code(keys().create(ACTOR, ws, { name: 'c', type: 'client', scopes: ['players:read'] }))).toBe(
      'INVALID_PAYLOAD',
    );
    expect(
      await code(keys().create(ACTOR, ws, { name: 'c', type: 'client', scopes: ['ingest:write', 'stats:read'] })),
    ).toBe('INVALID_PAYLOAD');
    expect(await code(keys().create(ACTOR, ws, { name: 'w', type: 'website', scopes: ['ingest:write'] }))).toBe(
      'INVALID_PAYLOAD',
    );
    expect(await code(keys().create(ACTOR, ws, { name: 'x', type: 'admin', scopes: ['stats:read'] }))).toBe(
      'INVALID_PAYLOAD',
    );
    expect(await code(keys().create(ACTOR, ws, { name: 'x', type: 'integration', scopes: ['events:read'] }))).toBe(
      'INVALID_PAYLOAD',
    );
    expect(await code(keys().create(ACTOR, ws, { name: 'x', type: 'integration', scopes: [] }))).toBe(
      'INVALID_PAYLOAD',
    );
    expect(
      await code(keys().create(ACTOR, ws, { name: 'i', type: 'integration', scopes: ['ingest:write', 'stats:read'] })),
    ).toBe('ok');
  });

  it('refuses server and season restrictions that are not ids of this workspace', async () => {
    const other = await ctx.services.workspaces.create(ACTOR, { name: 'Other' });
    const foreign = await ctx.services.servers.create(ACTOR, other.id, { hostname: 'x.example.com', port: 1 });
    const err = await keys()
      .create(ACTOR, fx.workspaceId, {
        name: 'r',
        type: 'client',
        scopes: ['ingest:write'],
        server_restrictions: [foreign.id],
      })
      .catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).details?.server_restrictions?.[0]).toContain(foreign.id);
  });

  it('verifies a token and fails at once after revoke, disable or expiry', async () => {
    const { data, secret } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'v',
      type: 'client',
      scopes: ['ingest:write'],
    });
    expect((await verifier().verify(secret))?.id).toBe(data.id);
    await disableKey(ctx, data.id);
    expect(await verifier().verify(secret)).toBeNull();
    await disableKey(ctx, data.id, true);
    expect(await verifier().verify(secret)).not.toBeNull();
    await keys().revoke(ACTOR, fx.workspaceId, data.id);
    expect(await verifier().verify(secret)).toBeNull();
    expect((await keys().get(fx.workspaceId, data.id)).status).toBe('revoked');

    const past = await keys().create(ACTOR, fx.workspaceId, {
      name: 'e',
      type: 'client',
      scopes: ['ingest:write'],
      expires_at: new Date(Date.now() + 300).toISOString(),
    });
    expect(await verifier().verify(past.secret)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 350));
    expect(await verifier().verify(past.secret)).toBeNull();
    expect((await keys().get(fx.workspaceId, past.data.id)).status).toBe('expired');
  });

  it('rejects a token whose type was swapped or whose secret was tampered with', async () => {
    const { secret } = await keys().create(ACTOR, fx.workspaceId, {
      name: 't',
      type: 'client',
      scopes: ['ingest:write'],
    });
    expect(await verifier().verify(secret.replace('stb_client_', 'stb_website_'))).toBeNull();
    const last = secret.at(-1) === 'A' ? 'B' : 'A';
    expect(await verifier().verify(secret.slice(0, -1) + last)).toBeNull();
  });

  it('rotates into a new key with the same settings; the old one stops at once or after the grace window', async () => {
    const made = await keys().create(ACTOR, fx.workspaceId, {
      name: 'rot',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [fx.seasonId],
    });
    const r1 = await keys().rotate(ACTOR, fx.workspaceId, made.data.id);
    expect(r1.data).toMatchObject({
      name: 'rot',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [fx.seasonId],
    });
    expect(await verifier().verify(made.secret)).toBeNull();
    expect(await verifier().verify(r1.secret)).not.toBeNull();

    const r2 = await keys().rotate(ACTOR, fx.workspaceId, r1.data.id, { grace_seconds: 1 });
    expect(await verifier().verify(r1.secret)).not.toBeNull();
    expect(await verifier().verify(r2.secret)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect(await verifier().verify(r1.secret)).toBeNull();
    expect(await code(keys().rotate(ACTOR, fx.workspaceId, made.data.id))).toBe('CONFLICT');
  });

  it('keeps last_used_at in memory and writes it in one statement on flush', async () => {
    const { data, secret } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'lu',
      type: 'client',
      scopes: ['ingest:write'],
    });
    await verifier().verify(secret);
    const before = await ctx.db.query<{ last_used_at: Date | null }>(
      'SELECT last_used_at FROM api_keys WHERE id = $1',
      [data.id],
    );
    expect(before[0]!.last_used_at).toBeNull();
    expect((await keys().get(fx.workspaceId, data.id)).last_used_at).not.toBeNull();
    await verifier().flushLastUsed();
    const after = await ctx.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [
      data.id,
    ]);
    expect(after[0]!.last_used_at).not.toBeNull();
  });

  it('lists keys from kept rows with every change and every use of this instance at once', async () => {
    const listed = async (id: string) => (await keys().list(fx.workspaceId)).find((k) => k.id === id);
    const { data, secret } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'listed',
      type: 'client',
      scopes: ['ingest:write'],
    });
    // A new key is listed at once (the create dropped the kept rows), and again from the kept rows.
    expect((await listed(data.id))?.last_used_at).toBeNull();
    expect((await listed(data.id))?.name).toBe('listed');
    // A use is merged in from memory, then read back from the database after the flush.
    await verifier().verify(secret);
    const used = (await listed(data.id))?.last_used_at;
    expect(used).not.toBeNull();
    await verifier().flushLastUsed();
    expect((await listed(data.id))?.last_used_at).toBe(used);
    // Changes drop the kept rows at once.
    await keys().update(ACTOR, fx.workspaceId, data.id, { name: 'renamed', scopes: ['ingest:write'] });
    expect((await listed(data.id))?.name).toBe('renamed');
    await keys().revoke(ACTOR, fx.workspaceId, data.id);
    expect((await listed(data.id))?.status).toBe('revoked');
  });

  it("serves the admin list's answer again until a key is used or a status changes with time", async () => {
    const json = () => keys().listJson(fx.workspaceId);
    const status = async (id: string) =>
      (JSON.parse((await json()).toString()) as { data: { id: string; status: string }[] }).data.find(
        (k) => k.id === id,
      )?.status;
    const { data } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'soon expired',
      type: 'client',
      scopes: ['ingest:write'],
      expires_at: new Date(Date.now() + 400).toISOString(),
    });
    const first = await json();
    expect(JSON.parse(first.toString())).toEqual({ data: await keys().list(fx.workspaceId) });
    expect(await json()).toBe(first);
    expect(await status(data.id)).toBe('active');
    // Past the expiry (within the rows' life): the status moves without any change.
    await new Promise((r) => setTimeout(r, 500));
    expect(await status(data.id)).toBe('expired');
    // A use of any key makes a new answer (with that use's time).
    const other = await keys().create(ACTOR, fx.workspaceId, {
      name: 'used',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const before = await json();
    await verifier().verify(other.secret);
    const after = await json();
    expect(after).not.toBe(before);
    expect(
      (JSON.parse(after.toString()) as { data: { id: string; last_used_at: string | null }[] }).data.find(
        (k) => k.id === other.data.id,
      )?.last_used_at,
    ).not.toBeNull();
  });

  it('updates with replace semantics and 404s for another workspace', async () => {
    const { data } = await keys().create(ACTOR, fx.workspaceId, {
      name: 'u',
      type: 'integration',
      scopes: ['stats:read'],
      description: 'd',
      player_restrictions: ['0b9f2c3e-5d6a-4b7c-8d9e-0f1a2b3c4d5e'],
    });
    const updated = await keys().update(ACTOR, fx.workspaceId, data.id, { name: 'u2', scopes: ['players:read'] });
    expect(updated).toMatchObject({ name: 'u2', description: null, scopes: ['players:read'], player_restrictions: [] });
    const other = await ctx.services.workspaces.create(ACTOR, { name: 'Elsewhere' });
    expect(await code(keys().update(ACTOR, other.id, data.id, { name: 'x', scopes: ['stats:read'] }))).toBe(
      'NOT_FOUND',
    );
  });
});
