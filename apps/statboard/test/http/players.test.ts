import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, expectInvalid, getJson, ingestOk, mutate, snapshotDb, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let web: string;

interface Player {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
}
interface Page {
  data: Player[];
  meta: { current_page: number; per_page: number; total: number };
}

const NAMES = ['Alice', 'alfred', 'ALBERT', 'Bob', 'a_b', 'axb', '100%', '1000', 'Zed'];
const uuids = new Map<string, string>();
const HIDDEN = 'Hidden';

async function addPlayer(name: string, ws: Fixture = fx): Promise<string> {
  const id = uuid();
  await ingestOk(ctx, ws.keys.client!, modBatch({ uuid: id, username: name, sessionId: uuid() }));
  return id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Players');
  web = fx.keys.website!;
  for (const n of NAMES) uuids.set(n, await addPlayer(n));
  uuids.set(HIDDEN, await addPlayer(HIDDEN));
  // No admin route sets visibility yet: hide one player directly.
  await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [uuids.get(HIDDEN)]);
});
afterAll(async () => {
  await ctx?.close();
});

async function list(query: string, token = web): Promise<Page> {
  const res = await getJson(ctx, token, `/api/v1/players${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

runSecurityMatrix('GET /api/v1/players', () => ctx, {
  method: 'GET',
  scope: 'players:read',
  url: () => '/api/v1/players',
});
runSecurityMatrix('GET /api/v1/players/{uuid}', () => ctx, {
  method: 'GET',
  scope: 'players:read',
  url: (w) => `/api/v1/players/${w.playerUuid}`,
});

describe('GET /api/v1/players', () => {
  it('lists public players as {data: [Player], meta} with per_page 50 and page 1 by default', async () => {
    const page = await list('');
    expect(page.meta).toEqual({ current_page: 1, per_page: 50, total: NAMES.length });
    expect(page.data).toHaveLength(NAMES.length);
    for (const p of page.data) {
      expect(Object.keys(p).sort()).toEqual(['id', 'public', 'username', 'uuid']);
      expect(p.public).toBe(true);
      expect(p.uuid).toBe(uuids.get(p.username));
    }
    expect(page.data.map((p) => p.username).sort()).toEqual([...NAMES].sort());
  });

  it('never lists a player who is not public', async () => {
    const page = await list('?per_page=100');
    expect(page.data.map((p) => p.username)).not.toContain(HIDDEN);
    expect((await list(`?search=${HIDDEN}`)).meta.total).toBe(0);
  });

  it('searches a case-insensitive username substring', async () => {
    const names = (await list('?search=AL')).data.map((p) => p.username).sort();
    expect(names).toEqual(['ALBERT', 'Alice', 'alfred'].sort());
    expect((await list('?search=bob')).data.map((p) => p.username)).toEqual(['Bob']);
    expect((await list('?search=lic')).data.map((p) => p.username)).toEqual(['Alice']);
    expect((await list('?search=nobody')).data).toEqual([]);
  });

  it('treats % and _ in the search term literally', async () => {
    expect((await list('?search=_')).data.map((p) => p.username)).toEqual(['a_b']);
    expect((await list('?search=a_b')).data.map((p) => p.username)).toEqual(['a_b']);
    expect((await list('?search=%25')).data.map((p) => p.username)).toEqual(['100%']);
    expect((await list('?search=100%25')).data.map((p) => p.username)).toEqual(['100%']);
    expect((await list('?search=%5C')).data).toEqual([]);
  });

  it('treats an empty search as no search', async () => {
    expect((await list('?search=')).meta.total).toBe(NAMES.length);
  });

  it('pages with page and per_page, keeping total', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const p = await list(`?per_page=4&page=${page}`);
      expect(p.meta).toEqual({ current_page: page, per_page: 4, total: NAMES.length });
      seen.push(...p.data.map((x) => x.uuid));
    }
    expect(seen).toHaveLength(NAMES.length);
    expect(new Set(seen).size).toBe(NAMES.length);
    expect((await list('?per_page=1')).data).toHaveLength(1);
    expect((await list('?per_page=100')).data).toHaveLength(NAMES.length);
  });

  it('returns an empty page with the total past the end', async () => {
    for (const q of ['?page=4&per_page=4', '?page=2', '?page=1000000', '?page=99999999999']) {
      const p = await list(q);
      expect(p.data).toEqual([]);
      expect(p.meta.total).toBe(NAMES.length);
    }
  });

  it('returns 422 for per_page outside 1–100 or not an integer', async () => {
    for (const v of ['0', '101', '-1', '1.5', 'abc', '', '1e3', '50x', 'Infinity', 'NaN', '1e400']) {
      const res = await getJson(ctx, web, `/api/v1/players?per_page=${v}`);
      expectInvalid(res, 'per_page');
    }
  });

  it('returns 422 for page below 1 or not an integer', async () => {
    for (const v of ['0', '-1', '1.5', 'first', '', 'Infinity', '-Infinity', '1e400', 'NaN', '99999999999999999999']) {
      const res = await getJson(ctx, web, `/api/v1/players?page=${v}`);
      expectInvalid(res, 'page');
    }
  });

  it("lists only the players in the key's player restriction", async () => {
    const allowed = [uuids.get('Alice')!, uuids.get('Bob')!, uuids.get(HIDDEN)!];
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'restricted',
      type: 'website',
      scopes: ['players:read'],
      player_restrictions: allowed.map((u) => u.toUpperCase()),
    });
    const page = await list('', k.secret);
    expect(page.data.map((p) => p.username).sort()).toEqual(['Alice', 'Bob']);
    expect(page.meta.total).toBe(2);
  });

  it("never lists another workspace's players", async () => {
    const other = await seedWorkspace(ctx.services, 'Players other');
    await addPlayer('Stranger', other);
    expect((await list('?search=Stranger')).data).toEqual([]);
    const theirs = await list('', other.keys.website!);
    expect(theirs.data.map((p) => p.username)).toEqual(['Stranger']);
  });

  it('writes nothing when answering', async () => {
    const before = await snapshotDb(ctx.db);
    await list('?search=a');
    await getJson(ctx, web, '/api/v1/players?per_page=0');
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });
});

describe('GET /api/v1/players/{uuid}', () => {
  it('returns the bare Player {id, uuid, username, public}', async () => {
    const res = await getJson(ctx, web, `/api/v1/players/${uuids.get('Alice')}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Player;
    expect(Object.keys(body).sort()).toEqual(['id', 'public', 'username', 'uuid']);
    expect(body).toMatchObject({ uuid: uuids.get('Alice'), username: 'Alice', public: true });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts the UUID in upper case', async () => {
    const res = await getJson(ctx, web, `/api/v1/players/${uuids.get('Bob')!.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().uuid).toBe(uuids.get('Bob'));
  });

  it('returns 404 NOT_FOUND for a player who is not public', async () => {
    expectError(await getJson(ctx, web, `/api/v1/players/${uuids.get(HIDDEN)}`), 404, 'NOT_FOUND');
  });

  it('returns 404 NOT_FOUND for an unknown player', async () => {
    expectError(await getJson(ctx, web, `/api/v1/players/${uuid()}`), 404, 'NOT_FOUND');
  });

  it('returns 404 NOT_FOUND for a player of another workspace', async () => {
    const other = await seedWorkspace(ctx.services, 'Players other 2');
    const theirs = await addPlayer('Outsider', other);
    expectError(await getJson(ctx, web, `/api/v1/players/${theirs}`), 404, 'NOT_FOUND');
    expect((await getJson(ctx, other.keys.website!, `/api/v1/players/${theirs}`)).statusCode).toBe(200);
  });

  it("returns 403 FORBIDDEN for a player outside the key's restriction, and 200 inside it", async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'only alice',
      type: 'website',
      scopes: ['players:read'],
      player_restrictions: [uuids.get('Alice')!],
    });
    expectError(await getJson(ctx, k.secret, `/api/v1/players/${uuids.get('Bob')}`), 403, 'FORBIDDEN');
    // Outside the restriction is 403 whether or not the player exists.
    expectError(await getJson(ctx, k.secret, `/api/v1/players/${uuid()}`), 403, 'FORBIDDEN');
    expect((await getJson(ctx, k.secret, `/api/v1/players/${uuids.get('Alice')}`)).statusCode).toBe(200);
  });

  it('answers a path segment that is not a UUID with a 4xx error, never a 500', async () => {
    for (const seg of ['abc', '123', 'null', '%20', '..%2F..', 'a'.repeat(100), '%E2%9C%93', "1'%20OR%201=1", '%00']) {
      const res = await getJson(ctx, web, `/api/v1/players/${seg}`);
      expect(res.statusCode, `${seg}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectError(res, res.statusCode);
    }
  });

  // Known defect, outside this suite's files: Fastify answers a path parameter over 100 characters (414) and a
  // broken percent-escape in the path (400) itself, without X-Request-ID and in its own body shape, because
  // Errors the router raises itself (app.ts `frameworkErrors`).
  for (const [name, seg] of [
    ['a segment over 100 characters', 'a'.repeat(101)],
    ['a broken percent-escape', '%E0%A4%A'],
  ] as const) {
    it(`answers ${name} in the error shape with X-Request-ID`, async () => {
      const res = await getJson(ctx, web, `/api/v1/players/${seg}`);
      expect(res.statusCode).toBeLessThan(500);
      expectError(res, res.statusCode);
    });
  }
});
