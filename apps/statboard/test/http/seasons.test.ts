import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { getJson, snapshotDb } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let old: Season;
let mid: Season;
let next: Season;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Seasons');
  const s = ctx.services.seasons;
  old = await s.create(ACTOR, fx.workspaceId, {
    name: 'Old',
    slug: 'old',
    started_at: '2025-01-01T00:00:00Z',
    ended_at: '2025-06-01T00:00:00Z',
  });
  mid = await s.create(ACTOR, fx.workspaceId, { name: 'Mid', slug: 'mid', started_at: '2025-07-01T00:00:00Z' });
  next = await s.create(ACTOR, fx.workspaceId, { name: 'Next', slug: 'next' });
});
afterAll(async () => {
  await ctx?.close();
});

async function seasons(token = fx.keys.website!): Promise<Season[]> {
  const res = await getJson(ctx, token, '/api/v1/seasons');
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: Season[] };
  expect(Object.keys(body)).toEqual(['data']);
  return body.data;
}

runSecurityMatrix('GET /api/v1/seasons', () => ctx, {
  method: 'GET',
  scope: 'stats:read',
  url: () => '/api/v1/seasons',
});

describe('GET /api/v1/seasons', () => {
  it('lists every season of the workspace as Season {id, name, slug, active, started_at, ended_at, scoring}', async () => {
    const list = await seasons();
    expect(list.map((x) => x.slug).sort()).toEqual(['mid', 'next', 'old', 's1']);
    for (const x of list)
      expect(Object.keys(x).sort()).toEqual(['active', 'ended_at', 'id', 'name', 'scoring', 'slug', 'started_at']);
    expect(list.find((x) => x.slug === 'old')).toEqual({
      id: old.id,
      name: 'Old',
      slug: 'old',
      active: false,
      started_at: '2025-01-01T00:00:00.000Z',
      ended_at: '2025-06-01T00:00:00.000Z',
      scoring: 'absolute',
    });
  });

  it('shows a change of scoring in the next answer', async () => {
    expect((await seasons()).find((x) => x.id === mid.id)?.scoring).toBe('absolute');
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, mid.id, { scoring: 'gains' });
    expect((await seasons()).find((x) => x.id === mid.id)?.scoring).toBe('gains');
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, mid.id, { scoring: 'absolute' });
    expect((await seasons()).find((x) => x.id === mid.id)?.scoring).toBe('absolute');
  });

  it('puts the active season first', async () => {
    expect((await seasons())[0]).toMatchObject({ id: fx.seasonId, active: true });
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, next.slug);
    const list = await seasons();
    expect(list[0]).toMatchObject({ id: next.id, active: true });
    expect(list.filter((x) => x.active)).toHaveLength(1);
    // Then the newest start first.
    const rest = list.slice(1).filter((x) => x.started_at !== null);
    const starts = rest.map((x) => Date.parse(x.started_at!));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(list.map((x) => x.slug).indexOf('mid')).toBeLessThan(list.map((x) => x.slug).indexOf('old'));
  });

  it("lists only the key's seasons when it has a season restriction", async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'two seasons',
      type: 'website',
      scopes: ['stats:read'],
      season_restrictions: [old.id, mid.id],
    });
    expect((await seasons(k.secret)).map((x) => x.id).sort()).toEqual([old.id, mid.id].sort());
  });

  it("never lists another workspace's seasons", async () => {
    const other = await seedWorkspace(ctx.services, 'Seasons other');
    const ours = (await seasons()).map((x) => x.id);
    const theirs = (await seasons(other.keys.website!)).map((x) => x.id);
    expect(theirs).toEqual([other.seasonId]);
    expect(ours).not.toContain(other.seasonId);
  });

  it('writes nothing when answering', async () => {
    const before = await snapshotDb(ctx.db);
    await seasons();
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });
});
