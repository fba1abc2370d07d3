import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson } from './support.ts';

/**
 * `GET /seasons` answers are cached per workspace and season restriction, and stay exact: a season created,
 * changed, activated (by the service or the CLI, which share it) or started or ended by its schedule is in the
 * next answer; a restricted key sees only its
 * seasons, whatever another key's answer left in the cache.
 */
describe('GET /seasons from the cache', () => {
  let ctx: TestContext;
  let fx: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services, 'Season lists');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const read = async (token = fx.keys.website!): Promise<string> => {
    const res = await getJson(ctx, token, '/api/v1/seasons');
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  type Seasons = { data: { id: string; slug: string; active: boolean; ended_at: string | null }[] };
  const list = async (token?: string) => (JSON.parse(await read(token)) as Seasons).data;

  it('answers a hit with the bytes of the miss, on the fast path, as the list reads it', async () => {
    const miss = await read();
    const served = ctx.app.fastReads.served;
    expect(await read()).toBe(miss);
    expect(ctx.app.fastReads.served).toBe(served + 1);
    expect(miss).toBe(JSON.stringify({ data: await ctx.services.seasons.list(fx.workspaceId) }));
  });

  it('shows a season created, and an activation, in the next answer', async () => {
    expect((await list()).map((s) => s.slug)).toEqual(['s1']);
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Later', slug: 'later' });
    expect((await list()).map((s) => s.slug)).toEqual(['s1', 'later']);
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 'later');
    const after = await list();
    expect(after.map((s) => [s.slug, s.active])).toEqual([
      ['later', true],
      ['s1', false],
    ]);
    expect(after[1]!.ended_at).not.toBeNull();
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Third', slug: 'third', active: true });
    expect((await list()).map((s) => [s.slug, s.active])[0]).toEqual(['third', true]);
  });

  it('shows a change, and a season started or ended by its schedule, in the next answer', async () => {
    await list();
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, 'later', { name: 'Later on', scoring: 'gains' });
    expect((await list()).find((s) => s.slug === 'later')).toMatchObject({ name: 'Later on', scoring: 'gains' });
    const start = Date.now() + 3_600_000;
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Planned',
      slug: 'planned',
      started_at: new Date(start).toISOString(),
      ended_at: new Date(start + 3_600_000).toISOString(),
    });
    expect((await list()).find((s) => s.slug === 'planned')?.active).toBe(false);
    await ctx.services.seasons.runSchedules(new Date(start));
    expect((await list())[0]).toMatchObject({ slug: 'planned', active: true });
    await ctx.services.seasons.runSchedules(new Date(start + 3_600_000));
    expect((await list()).filter((s) => s.active)).toEqual([]);
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 'third');
  });

  it('never shows a restricted key more than its seasons, whatever is cached', async () => {
    const all = await list();
    const s1 = all.find((s) => s.slug === 's1')!;
    const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'season one',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [s1.id],
    });
    expect((await list(key.secret)).map((s) => s.id)).toEqual([s1.id]);
    expect((await list(key.secret)).map((s) => s.id)).toEqual([s1.id]);
    expect(await list()).toEqual(all);
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 's1');
    expect(await list(key.secret)).toMatchObject([{ id: s1.id, active: true }]);
  });
});
