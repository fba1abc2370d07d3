import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type Team } from '../admin/support/team.ts';
import { createWorld, type World } from '../admin/support/world.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { PLAY_TIME, type SiteData, STONE, seedSiteData } from './support.ts';

// The rendered pages kept (PAGE_CACHE_MB): a page read twice is served from memory for its 30 seconds, values
// reaching it within them; with PAGE_CACHE_MB=0 every request renders its page.

let w: World;
let t: Team;
let data: SiteData;

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  data = await seedSiteData(w, t);
  const on = { enabled: true, title: 'Team', description: '', featured_stats: [PLAY_TIME], embed_origins: [] };
  expect((await t.browsers.admin.app('PUT', '/api/v1/admin/public-site', { body: on })).statusCode).toBe(200);
}, 180_000);
afterAll(async () => {
  await w?.close();
});

describe('the page cache (PAGE_CACHE_MB)', () => {
  it('keeps a page read twice for its 30 seconds; with PAGE_CACHE_MB=0 every page is rendered for its request', async () => {
    const client = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'cache mod',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const alex = data.players[0]!;
    const kept = w; // the default budget
    const none = await w.instance({ PAGE_CACHE_MB: '0' });
    const stoneRow = async (app: typeof w.app) => {
      const res = await app.inject({ method: 'GET', url: '/p/team/players/Alex' });
      expect(res.statusCode, res.body).toBe(200);
      return /Stone Mined<\/a><\/td><td class="n">([^<]+)<\/td>/.exec(res.body)?.[1];
    };
    // Read twice: the second render is kept (a page read once is not).
    for (const i of [kept, none]) {
      expect(await stoneRow(i.app)).toBe('50');
      expect(await stoneRow(i.app)).toBe('50');
    }
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: bearer(client.secret),
      payload: modBatch({
        uuid: alex.uuid,
        username: alex.username,
        sessionId: randomUUID(),
        observedAt: new Date().toISOString(),
        stats: [{ key: STONE, value: 57 }],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    await w.services.flush();
    // Values reach a kept page within its age; with no page cache, at once.
    expect(await stoneRow(kept.app)).toBe('50');
    expect(await stoneRow(none.app)).toBe('57');
  });
});
