import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '#src/app.ts';
import { ChangeBus } from '#src/cache/bus.ts';
import { buildServices, type Services } from '#src/services.ts';
import type { Team } from '../admin/support/team.ts';
import type { World } from '../admin/support/world.ts';
import { ACTOR, createTestDb, overHttp, seedWorkspace, type TestDb, testConfig } from '../helpers.ts';
import { HIDDEN_PLAYER, PLAY_TIME, SECRET_STAT, type SiteData, STONE, seedSiteData, WALKED } from './support.ts';

// Public pages are answered before Fastify routes them (SitePages.serveFast) when the fast path is on. These tests
// send the same requests over real HTTP to the app as it ships and to one with the fast path off (Fastify only), on
// the same services, and require the same status, headers and body, while checking that the fast path did serve.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET over real HTTP, its body unzipped when it came gzipped. */
async function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const res = await overHttp(base, { url: path, headers });
  const gzipped = res.headers['content-encoding'] === 'gzip';
  return {
    status: res.statusCode,
    headers: res.headers,
    body: gzipped ? gunzipSync(res.rawPayload).toString() : res.body,
  };
}

/** Everything but the Date header, which may tick between the two answers. */
function comparable(a: Answer): Answer {
  const { date: _date, ...headers } = a.headers;
  return { ...a, headers };
}

let db: TestDb;
let services: Services;
let hot: FastifyInstance;
let plain: FastifyInstance;
let hotUrl: string;
let plainUrl: string;
let data: SiteData;
let slug: string;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await createTestDb();
  const config = testConfig({ PUBLIC_URL: 'http://stats.example' });
  services = buildServices(db.db, config, { bus: ChangeBus.local() });
  hot = await buildApp({ config, services });
  plain = await buildApp({ config, services, fastReads: false });
  hotUrl = await listen(hot);
  plainUrl = await listen(plain);
  const fx = await seedWorkspace(services, 'Fast Pages');
  slug = (await db.db.query<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [fx.workspaceId]))[0]!.slug;
  data = await seedSiteData({ app: hot, services } as unknown as World, { workspaceId: fx.workspaceId } as Team);
  await services.seasons.create(ACTOR, fx.workspaceId, { name: 'Old <times>', slug: 'old', active: false });
  await services.publicSite.update(ACTOR, fx.workspaceId, {
    enabled: true,
    title: 'Fast & "pages"',
    description: 'Both paths',
    featured_stats: [PLAY_TIME, WALKED],
    embed_origins: ['https://club.example'],
  });
  // Every player page once through each app until its ranks are counted (a page still counting them is
  // rendered again next time, and so may differ between two requests).
  for (const base of [plainUrl, hotUrl]) {
    for (const p of data.players) {
      for (let i = 0; i < 50; i++) {
        const page = await get(base, `/p/${slug}/players/${p.uuid}`, {});
        if (!page.body.includes('Ranks are being counted')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}, 180_000);

afterAll(async () => {
  await hot?.close();
  await plain?.close();
  await services?.flush().catch(() => undefined);
  await db?.drop();
});

/** A path's parts: well-formed and not, encoded and not. */
const site = () => fc.constantFrom(slug, slug.toUpperCase(), 'nope', `${slug}%`, encodeURIComponent(slug));
const playerRef = () =>
  fc.constantFrom(
    data.players[0]!.uuid,
    data.players[1]!.username,
    encodeURIComponent(data.players[2]!.username),
    data.players[3]!.uuid.toUpperCase(),
    HIDDEN_PLAYER.uuid,
    HIDDEN_PLAYER.username,
    '00000000-0000-4000-8000-000000000000',
    'x'.repeat(101),
    'a%2Fb',
    '%zz',
  );
const statRef = fc.constantFrom(
  encodeURIComponent(PLAY_TIME),
  PLAY_TIME,
  encodeURIComponent(STONE),
  encodeURIComponent(SECRET_STAT),
  'minecraft.custom%3Aminecraft.nope',
);
const query = fc
  .array(
    fc.constantFrom(
      'season=s1',
      'season=old',
      'season=nope',
      'page=2',
      'page=0',
      'page=x',
      'limit=3',
      'limit=26',
      'theme=dark',
      'theme=blue',
      `stat=${encodeURIComponent(STONE)}`,
      'q=Alex',
      'q=',
      'x=1',
      'a%zz=1',
    ),
    { maxLength: 3 },
  )
  .map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
const path = () =>
  fc
    .tuple(
      fc.oneof(
        site().map((s) => `/p/${s}`),
        site().map((s) => `/p/${s}/`),
        site().map((s) => `/p/${s}/seasons`),
        site().map((s) => `/p/${s}/players`),
        fc.tuple(site(), playerRef()).map(([s, p]) => `/p/${s}/players/${p}`),
        fc.tuple(site(), statRef).map(([s, st]) => `/p/${s}/leaderboards/${st}`),
        fc.tuple(site(), statRef).map(([s, st]) => `/p/${s}/embed/leaderboard/${st}`),
        site().map((s) => `/p/${s}/nothing/here`),
        site().map((s) => `/p/${s}/players/${data.players[0]!.uuid};x`),
      ),
      query,
    )
    .map(([p, q]) => p + q);
const headers = fc.record(
  {
    'accept-encoding': fc.constantFrom('gzip, deflate, br', 'identity', 'gzip;q=0'),
    'x-request-id': fc.constantFrom('req-1', 'abc-DEF_123'),
  },
  { requiredKeys: ['x-request-id'] },
);

/** The same request to both apps; asked again once when they differ (a page rendered again in between). */
async function both(p: string, h: Record<string, string>): Promise<[Answer, Answer]> {
  let reference = await get(plainUrl, p, h);
  let fast = await get(hotUrl, p, h);
  if (JSON.stringify(comparable(fast)) !== JSON.stringify(comparable(reference))) {
    reference = await get(plainUrl, p, h);
    fast = await get(hotUrl, p, h);
  }
  return [reference, fast];
}

describe('public pages on the fast path', () => {
  it('answer exactly as Fastify does, for generated requests (and serve the well-formed ones)', async () => {
    const before = hot.fastReads.served;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(path(), headers, async (p, h) => {
        const [reference, fast] = await both(p, h);
        expect(comparable(fast), p).toEqual(comparable(reference));
        seen.add(`${reference.status} ${reference.headers['content-encoding'] ?? ''}`);
        // Revalidation: the page's own ETag gets a 304 on both paths, with the same headers.
        const etag = reference.headers.etag;
        if (reference.status === 200 && typeof etag === 'string') {
          const [ref304, fast304] = await both(p, { ...h, 'if-none-match': etag });
          expect(ref304.status, p).toBe(304);
          expect(comparable(fast304), p).toEqual(comparable(ref304));
          seen.add('304');
        }
      }),
      { numRuns: 150 },
    );
    expect(hot.fastReads.served).toBeGreaterThan(before + 50);
    // Pages, gzipped and not, the 404 page, revalidations and what Fastify refuses were all compared.
    expect([...seen].sort()).toEqual(expect.arrayContaining(['200 ', '200 gzip', '304', '404 ', '404 gzip']));
  }, 120_000);

  it('counts a page once against the address limit, and answers 429 in the documented shape past it', async () => {
    const config = testConfig({ PUBLIC_URL: 'http://stats.example', PUBLIC_PAGE_LIMIT_PER_MINUTE: '3' });
    const limited = await buildApp({ config, services });
    const url = await listen(limited);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await get(url, `/p/${slug}/players/${data.players[0]!.uuid}`, {})).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await get(url, `/p/${slug}`, { 'x-request-id': 'over-1' });
      expect(refused.status).toBe(429);
      expect(refused.headers['x-request-id']).toBe('over-1');
      expect(JSON.parse(refused.body)).toEqual({
        error: expect.objectContaining({ code: 'RATE_LIMITED', request_id: 'over-1' }),
      });
    } finally {
      await limited.close();
    }
  });

  it('serves a kept page past its age when the database cannot answer, and hands the error to Fastify otherwise', async () => {
    const kept = `/p/${slug}/players/${data.players[4]!.username}`;
    const once = `/p/${slug}/players/${data.players[5]!.username}`;
    // Read twice: a page is kept from the second time it is asked for.
    const fresh = await get(hotUrl, kept, {});
    expect(fresh.status).toBe(200);
    await get(hotUrl, kept, {});
    const query = db.db.query;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 40_000 });
    // Every statement is cancelled, as PostgreSQL's statement_timeout does when it is overloaded.
    db.db.query = () =>
      Promise.reject(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    try {
      const served = hot.fastReads.served;
      const stale = await get(hotUrl, kept, {});
      expect(stale.status).toBe(200);
      expect(stale.headers.etag).toBe(fresh.headers.etag);
      expect(hot.fastReads.served).toBe(served + 1);
      const h = { 'x-request-id': 'down-1' };
      const [reference, fast] = [await get(plainUrl, once, h), await get(hotUrl, once, h)];
      expect(fast.status).toBe(503);
      expect(comparable(fast)).toEqual(comparable(reference));
      expect(JSON.parse(fast.body)).toEqual({
        error: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', request_id: 'down-1' }),
      });
    } finally {
      db.db.query = query;
      vi.useRealTimers();
    }
  });
});
