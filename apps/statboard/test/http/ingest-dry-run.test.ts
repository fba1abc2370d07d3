import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { postBatch, snapshotDb } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Dry run');
});
afterAll(() => ctx.close());

const DRY = { url: '/api/v1/ingest/batch?dry_run=true' };
const dry = (token: string, body: unknown) =>
  ctx.http({
    method: 'POST',
    ...DRY,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const lastUsed = async (id: string) =>
  (await ctx.db.query<{ t: Date | null }>('SELECT last_used_at AS t FROM api_keys WHERE id = $1', [id]))[0]!.t;

describe('POST /ingest/batch?dry_run=true', () => {
  it('answers 200 {accepted, dry_run, request_id, server_time, next_upload_after} and writes nothing, not even the last use', async () => {
    const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'tester',
      type: 'client',
      scopes: ['ingest:write'],
    });
    await ctx.services.flush();
    const before = await snapshotDb(ctx.db);
    const res = await dry(
      key.secret,
      modBatch({
        uuid: randomUUID(),
        events: [{ id: randomUUID(), type: 'SESSION_STARTED', occurred_at: new Date().toISOString(), payload: {} }],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      accepted: true,
      dry_run: true,
      request_id: res.headers['x-request-id'],
      server_time: expect.any(String),
      next_upload_after: 60,
    });
    await ctx.services.flush();
    expect(await snapshotDb(ctx.db)).toEqual(before);
    expect(await lastUsed(key.data.id)).toBeNull();
    // The same batch for real writes, and records the key's use.
    expect((await postBatch(ctx, key.secret, modBatch({ uuid: randomUUID() }))).statusCode).toBe(200);
    await ctx.services.flush();
    expect(await lastUsed(key.data.id)).not.toBeNull();
  });

  it('runs every check of a real upload with the same status, code and details', async () => {
    const cases: { token: string; body: unknown }[] = [
      { token: 'nope', body: modBatch({ uuid: randomUUID() }) },
      { token: fx.keys.website!, body: modBatch({ uuid: randomUUID() }) },
      { token: fx.keys.client!, body: '{"not json' },
      { token: fx.keys.client!, body: { ...modBatch({ uuid: randomUUID() }), protocol_version: 2 } },
      {
        token: fx.keys.client!,
        body: { ...modBatch({ uuid: randomUUID() }), server: { hostname: 'other.example.com', port: 25565 } },
      },
      { token: fx.keys.client!, body: modBatch({ uuid: randomUUID(), username: 'bad\u0007name' }) },
    ];
    for (const c of cases) {
      const real = await postBatch(ctx, c.token, c.body);
      const tried = await dry(c.token, c.body);
      expect(tried.statusCode).toBe(real.statusCode);
      expect(real.statusCode).toBeGreaterThanOrEqual(400);
      const strip = (b: string) => {
        const e = (JSON.parse(b) as { error: Record<string, unknown> }).error;
        return { code: e.code, message: e.message, details: e.details };
      };
      expect(strip(tried.body)).toEqual(strip(real.body));
    }
  });

  it('refuses a dry_run that is not a boolean (422)', async () => {
    const res = await ctx.http({
      method: 'POST',
      url: '/api/v1/ingest/batch?dry_run=maybe',
      headers: { authorization: `Bearer ${fx.keys.client}`, 'content-type': 'application/json' },
      payload: JSON.stringify(modBatch({ uuid: randomUUID() })),
    });
    expect(res.statusCode).toBe(422);
  });
});
