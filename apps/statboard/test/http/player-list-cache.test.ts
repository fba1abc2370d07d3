import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk, uuid } from './support.ts';

/**
 * `GET /players` pages are cached for keys without a player restriction, and stay exact: a player added by an
 * upload, renamed or hidden is in the next answer.
 */
describe('GET /players from the cache', () => {
  let ctx: TestContext;
  let fx: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services, 'Lists');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const list = async (query = '') => {
    const res = await getJson(ctx, fx.keys.website!, `/api/v1/players${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { uuid: string; username: string }[]; meta: { total: number } };
  };
  const upload = (player: string, username: string) =>
    ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username, sessionId: uuid() }));

  it('shows a player added by an upload in the next answer, with the total', async () => {
    const before = await list();
    const newcomer = uuid();
    await upload(newcomer, 'Newcomer');
    const after = await list();
    expect(after.meta.total).toBe(before.meta.total + 1);
    expect(after.data.map((p) => p.uuid)).toContain(newcomer);
  });

  it('follows renames and hiding at once', async () => {
    const player = uuid();
    await upload(player, 'Before');
    expect((await list('?search=Before')).data.map((p) => p.uuid)).toEqual([player]);
    await upload(player, 'Afterwards');
    expect((await list('?search=Before')).data).toEqual([]);
    expect((await list('?search=Afterwards')).data.map((p) => p.uuid)).toEqual([player]);
    const total = (await list()).meta.total;
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, player, { public: false });
    expect((await list('?search=Afterwards')).data).toEqual([]);
    expect((await list()).meta.total).toBe(total - 1);
  });
});
