import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestContext,
  type Fixture,
  modBatch,
  seedWorkspace,
  type TestContext,
} from '../../../apps/statboard/test/helpers.ts';
import { committed, generated } from '../scripts/openapi.ts';
import { createStatboardClient, ok, StatboardError } from '../src/index.ts';

describe('the generated SDK', () => {
  it('matches the OpenAPI document the service serves (run `npm run generate -w @statboard/sdk` if not)', async () => {
    const [now, then] = await Promise.all([generated(), committed()]);
    expect(then.document, 'packages/sdk/openapi.json is stale').toBe(now.document);
    expect(then.schema, 'packages/sdk/src/schema.ts is stale').toBe(now.schema);
  }, 60_000);
});

describe('the client against the service', () => {
  let ctx: TestContext;
  let fx: Fixture;
  const uuid = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const stat = 'minecraft.custom:minecraft.play_time';

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services);
    const res = await ctx.http({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: { ...bearer(fx.keys.client!), 'content-type': 'application/json' },
      payload: JSON.stringify(modBatch({ uuid, username: 'Alex', stats: [{ key: stat, value: 3600 }] })),
    });
    expect(res.statusCode).toBe(200);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('reads a leaderboard and a player with a website key, typed', async () => {
    const statboard = createStatboardClient({ baseUrl: ctx.url, apiKey: fx.keys.website! });
    const board = await ok(
      statboard.GET('/api/v1/leaderboards', { params: { query: { season: fx.seasonSlug, stat, limit: 10 } } }),
    );
    expect(board.entries).toEqual([
      expect.objectContaining({ rank: 1, value: 3600, player: expect.objectContaining({ uuid }) }),
    ]);
    const stats = await ok(statboard.GET('/api/v1/players/{player}/stats', { params: { path: { player: uuid } } }));
    expect(stats.player.username).toBe('Alex');
  });

  it('throws the service’s error with its code, message and request id', async () => {
    const statboard = createStatboardClient({ baseUrl: ctx.url, apiKey: 'stb_website_nope' });
    const err = await ok(statboard.GET('/api/v1/online')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatboardError);
    expect(err).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    expect((err as StatboardError).requestId).toMatch(/\S/);
  });

  it('returns errors instead of throwing with throwOnError: false', async () => {
    const statboard = createStatboardClient({ baseUrl: ctx.url, apiKey: fx.keys.website!, throwOnError: false });
    const { data, error, response } = await statboard.GET('/api/v1/players/{player}/stats', {
      params: { path: { player: '99999999-9999-4999-8999-999999999999' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
