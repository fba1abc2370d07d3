import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, bearer, DB_KIND, type HttpAnswer, modBatch, overHttp } from '../helpers.ts';
import { expectError } from '../http/support.ts';
import { buildTeam, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

/**
 * Corrections, erasure and a switch of scoring with two servers, through the routes as they ship: every read a
 * key makes (network totals, `server=`, a key restricted to a server, ranks, history) follows at once, though
 * each was read (and cached) just before.
 */
let w: World;
let t: Team;
let base: string;
let mod: string;
let site: string;
let creativeOnly: string;
let agent: string;
let second: string;

const STONE = 'minecraft.mined:minecraft.stone';
const DIRT = 'minecraft.mined:minecraft.dirt';
const SAND = 'minecraft.mined:minecraft.sand';
const MAIN = { hostname: 'mc.example.com', port: 25565 };
const CREATIVE = { hostname: 'creative.example.com', port: 25565 };

let n = 0;
const freshUuid = () => `5b1d2e3f-0000-4000-8000-${String(++n).padStart(12, '0')}`;
/** Observation times that only move forward, in the last hour. */
let clock = Date.now() - 50 * 60_000;
function next(): string {
  clock += 1_000;
  return new Date(clock).toISOString();
}

async function upload(
  uuid: string,
  via: { hostname: string; port: number },
  stats: { key: string; value: number }[],
  username = `P${uuid.slice(-4)}`,
  observedAt = next(),
) {
  const res = await overHttp(base, {
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: { ...bearer(mod), 'content-type': 'application/json' },
    payload: JSON.stringify(modBatch({ uuid, username, ...via, stats, observedAt, sessionId: crypto.randomUUID() })),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const get = (token: string, url: string): Promise<HttpAnswer> => overHttp(base, { url, headers: bearer(token) });

/** A board's entries as [uuid, value]. */
async function board(token: string, query: string): Promise<[string, number][]> {
  const res = await get(token, `/api/v1/leaderboards?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entries.map((e: { player: { uuid: string }; value: number }) => [e.player.uuid, e.value]);
}

/** A player's value of `stat` in `/players/{p}/stats` (undefined: none). */
async function statValue(token: string, uuid: string, query: string, stat: string): Promise<number | undefined> {
  const res = await get(token, `/api/v1/players/${uuid}/stats?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats.find((s: { key: string }) => s.key === stat)?.value;
}

/** A player's history of `stat` by hour over the last day, as values. */
async function points(token: string, uuid: string, query: string, stat: string): Promise<number[]> {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const res = await get(
    token,
    `/api/v1/players/${uuid}/stats/history?${query}&stat=${encodeURIComponent(stat)}&interval=hour&from=${from}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().points.map((p: { value: number }) => p.value);
}

/** The last point of a player's history of `stat` by hour over the last day. */
async function lastPoint(token: string, uuid: string, query: string, stat: string): Promise<number | undefined> {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const res = await get(
    token,
    `/api/v1/players/${uuid}/stats/history?${query}&stat=${encodeURIComponent(stat)}&interval=hour&from=${from}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().points.at(-1)?.value;
}

async function rank(token: string, query: string): Promise<HttpAnswer> {
  return get(token, `/api/v1/leaderboards/rank?${query}`);
}

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  await w.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(w.app.server.address() as AddressInfo).port}`;
  second = (await w.services.servers.create(ACTOR, t.workspaceId, { name: 'Creative', ...CREATIVE })).id;
  const key = async (body: Parameters<typeof w.services.keys.create>[2]) =>
    (await w.services.keys.create(ACTOR, t.workspaceId, body)).secret;
  const reads = ['players:read', 'stats:read', 'leaderboards:read'] as const;
  mod = await key({ name: 'mod', type: 'client', scopes: ['ingest:write'] });
  site = await key({ name: 'site', type: 'website', scopes: [...reads] });
  creativeOnly = await key({ name: 'creative', type: 'website', scopes: [...reads], server_restrictions: [second] });
  agent = await key({
    name: 'agent',
    type: 'integration',
    scopes: ['ingest:server'],
    server_restrictions: [t.serverId],
  });
  for (const stat of [STONE, DIRT]) {
    await upload(freshUuid(), MAIN, [{ key: stat, value: 1 }]);
  }
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe(`history with server= (${DB_KIND})`, () => {
  it("is that server's history, and a restricted key's the sum of its servers' histories", async () => {
    const p = freshUuid();
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    await upload(p, MAIN, [{ key: SAND, value: 100 }], undefined, hoursAgo(4));
    await upload(p, MAIN, [{ key: SAND, value: 150 }], undefined, hoursAgo(3));
    // On one server only: its history is the network's.
    expect(await points(site, p, `season=s1&server=${t.serverId}`, SAND)).toEqual([100, 150]);
    expect(await points(creativeOnly, p, 'season=s1', SAND)).toEqual([]);
    await upload(p, CREATIVE, [{ key: SAND, value: 5 }], undefined, hoursAgo(2));
    await upload(p, CREATIVE, [{ key: SAND, value: 7 }], undefined, hoursAgo(1));
    await upload(p, MAIN, [{ key: SAND, value: 175 }], undefined, hoursAgo(0));
    expect(await points(site, p, 'season=s1', SAND)).toEqual([100, 150, 155, 157, 182]);
    // Each server's own history, though the other server's values came between its points.
    expect(await points(site, p, `season=s1&server=${t.serverId}`, SAND)).toEqual([100, 150, 175]);
    expect(await points(site, p, `season=s1&server=${second}`, SAND)).toEqual([5, 7]);
    expect(await points(creativeOnly, p, 'season=s1', SAND)).toEqual([5, 7]);
    await upload(p, CREATIVE, [{ key: SAND, value: 9 }], undefined, hoursAgo(0));
    expect(await points(site, p, `season=s1&server=${second}`, SAND)).toEqual([5, 7, 9]);
    expect(await points(site, p, 'season=s1', SAND)).toEqual([100, 150, 155, 157, 184]);
  });
});

describe(`DELETE /admin/players/{player}/stats with two servers, reads cached (${DB_KIND})`, () => {
  it("removes one server's value of one statistic (season by id): totals, server boards, ranks, a restricted key and history follow", async () => {
    const p = freshUuid();
    const rival = freshUuid();
    await upload(p, MAIN, [
      { key: STONE, value: 500 },
      { key: DIRT, value: 9 },
    ]);
    await upload(p, CREATIVE, [
      { key: STONE, value: 300 },
      { key: DIRT, value: 4 },
    ]);
    await upload(rival, CREATIVE, [{ key: STONE, value: 100 }]);
    const q = `season=s1&stat=${encodeURIComponent(STONE)}`;
    // Read everything first, so every cache and board holds the values.
    expect((await board(site, q))[0]).toEqual([p, 800]);
    expect(await board(site, `${q}&server=${second}`)).toEqual([
      [p, 300],
      [rival, 100],
    ]);
    expect(await board(creativeOnly, q)).toEqual([
      [p, 300],
      [rival, 100],
    ]);
    expect((await rank(site, `${q}&player=${p}&server=${second}`)).json()).toMatchObject({ entry: { rank: 1 } });
    expect((await rank(site, `${q}&player=${rival}`)).json()).toMatchObject({ entry: { value: 100 } });
    expect(await statValue(site, p, 'season=s1', STONE)).toBe(800);
    expect(await statValue(site, p, `season=s1&server=${second}`, STONE)).toBe(300);
    expect(await lastPoint(site, p, 'season=s1', STONE)).toBe(800);

    const res = await t.browsers.admin.app(
      'DELETE',
      `/api/v1/admin/players/${p}/stats?season=${t.seasonId}&stat=${encodeURIComponent(STONE)}&server=${second}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { values_removed: 1 } });

    expect((await board(site, q))[0]).toEqual([p, 500]);
    expect(await board(site, `${q}&server=${second}`)).toEqual([[rival, 100]]);
    expect(await board(creativeOnly, q)).toEqual([[rival, 100]]);
    expectError(await rank(site, `${q}&player=${p}&server=${second}`), 404, 'NOT_FOUND');
    expectError(await rank(creativeOnly, `${q}&player=${p}`), 404, 'NOT_FOUND');
    expect((await rank(site, `${q}&player=${p}`)).json()).toMatchObject({ entry: { rank: 1, value: 500 } });
    expect(await statValue(site, p, 'season=s1', STONE)).toBe(500);
    expect(await statValue(site, p, `season=s1&server=${second}`, STONE)).toBeUndefined();
    expect(await statValue(creativeOnly, p, 'season=s1', STONE)).toBeUndefined();
    expect(await lastPoint(site, p, 'season=s1', STONE)).toBe(500);
    // The other statistic keeps both servers' values.
    expect(await statValue(site, p, 'season=s1', DIRT)).toBe(13);
    expect(await statValue(creativeOnly, p, 'season=s1', DIRT)).toBe(4);
  });

  it('removes every value of a season by slug: the player leaves every board it was read on', async () => {
    const p = freshUuid();
    await upload(p, MAIN, [{ key: DIRT, value: 1_000 }]);
    await upload(p, CREATIVE, [{ key: DIRT, value: 2_000 }]);
    const q = `season=s1&stat=${encodeURIComponent(DIRT)}`;
    expect((await board(site, q))[0]).toEqual([p, 3_000]);
    expect((await board(site, `${q}&server=${t.serverId}`))[0]).toEqual([p, 1_000]);
    expect((await board(creativeOnly, q))[0]).toEqual([p, 2_000]);
    expect(await statValue(site, p, 'season=s1', DIRT)).toBe(3_000);

    const res = await t.browsers.admin.app('DELETE', `/api/v1/admin/players/${p}/stats?season=s1`);
    // Values are kept per server: both servers' values went.
    expect(res.json()).toEqual({ data: { values_removed: 2 } });

    for (const [token, query] of [
      [site, q],
      [site, `${q}&server=${t.serverId}`],
      [site, `${q}&server=${second}`],
      [creativeOnly, q],
    ] as const) {
      expect((await board(token, query)).map(([u]) => u)).not.toContain(p);
    }
    expect(await statValue(site, p, 'season=s1', DIRT)).toBeUndefined();
    expect(await statValue(site, p, `season=s1&server=${second}`, DIRT)).toBeUndefined();
    expect(await lastPoint(site, p, 'season=s1', DIRT)).toBeUndefined();
  });
});

describe(`DELETE /admin/players/{player} of a player on two servers, reads cached (${DB_KIND})`, () => {
  it("erases both servers' values: every board, rank and read forgets the player and their name", async () => {
    const p = freshUuid();
    // An earlier hour's value first: the player has history, the network's and the server's.
    await upload(
      p,
      MAIN,
      [{ key: STONE, value: 6_500 }],
      'TwoServers',
      new Date(Date.now() - 2 * 3_600_000).toISOString(),
    );
    await upload(p, MAIN, [{ key: STONE, value: 7_000 }], 'TwoServers');
    await upload(p, CREATIVE, [{ key: STONE, value: 6_000 }], 'TwoServers');
    const q = `season=s1&stat=${encodeURIComponent(STONE)}`;
    expect((await board(site, q))[0]).toEqual([p, 13_000]);
    expect((await board(site, `${q}&server=${second}`))[0]).toEqual([p, 6_000]);
    expect((await board(site, `${q}&server=${t.serverId}`))[0]).toEqual([p, 7_000]);
    expect((await board(creativeOnly, q))[0]).toEqual([p, 6_000]);
    expect((await rank(creativeOnly, `${q}&player=${p}`)).statusCode).toBe(200);
    expect((await get(site, '/api/v1/players?username=TwoServers')).json().data).toHaveLength(1);

    const [row] = await w.db.db.query<{ id: string }>('SELECT id FROM players WHERE uuid = $1', [p]);
    const rowsOf = async () =>
      (
        await w.db.db.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM server_stats WHERE player_id = $1)
             + (SELECT count(*) FROM server_stat_history WHERE player_id = $1)
             + (SELECT count(*) FROM stat_history WHERE player_id = $1)
             + (SELECT count(*) FROM players WHERE id = $1))::int AS n`,
          [row!.id],
        )
      )[0]!.n;
    expect(await rowsOf()).toBe(5);

    expect((await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${p}`)).statusCode).toBe(204);

    for (const [token, query] of [
      [site, q],
      [site, `${q}&server=${t.serverId}`],
      [site, `${q}&server=${second}`],
      [creativeOnly, q],
    ] as const) {
      expect((await board(token, query)).map(([u]) => u)).not.toContain(p);
    }
    expectError(await rank(creativeOnly, `${q}&player=${p}`), 404, 'NOT_FOUND');
    expectError(await rank(site, `${q}&player=${p}&server=${t.serverId}`), 404, 'NOT_FOUND');
    expectError(await get(site, `/api/v1/players/${p}/stats?season=s1&server=${second}`), 404, 'NOT_FOUND');
    expectError(await get(site, `/api/v1/players/${p}`), 404, 'NOT_FOUND');
    expect((await get(site, '/api/v1/players?username=TwoServers')).json().data).toEqual([]);
    expect(await rowsOf()).toBe(0);
  });
});

describe(`a blocked player in a server's upload of several players (${DB_KIND})`, () => {
  it('answers 200, stores the others, and counts the blocked one as PLAYER_BLOCKED', async () => {
    const blocked = freshUuid();
    const others = [freshUuid(), freshUuid()];
    expect((await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${blocked}?block=true`)).statusCode).toBe(204);
    const res = await overHttp(base, {
      method: 'POST',
      url: '/api/v1/ingest/server',
      headers: { ...bearer(agent), 'content-type': 'application/json' },
      payload: JSON.stringify({
        observed_at: next(),
        players: [
          { uuid: others[0], username: 'First', stats: [{ key: STONE, value: 11 }] },
          { uuid: blocked, username: 'Blocked', stats: [{ key: STONE, value: 99_999 }] },
          { uuid: others[1], username: 'Third', stats: [{ key: STONE, value: 12 }] },
        ],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: true });
    expect(await statValue(site, others[0]!, 'season=s1', STONE)).toBe(11);
    expect(await statValue(site, others[1]!, 'season=s1', STONE)).toBe(12);
    expectError(await get(site, `/api/v1/players/${blocked}/stats?season=s1`), 404, 'NOT_FOUND');
    await w.services.flush();
    const rejections = await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections');
    const group = rejections
      .json()
      .data.find(
        (r: { code: string; player_uuid: string }) => r.code === 'PLAYER_BLOCKED' && r.player_uuid === blocked,
      );
    expect(group).toMatchObject({ count: 1, player_uuid: blocked });
  });
});

// Last: it makes a season that counts gains the active one.
describe(`PUT /admin/seasons/{season} scoring, reads cached (${DB_KIND})`, () => {
  it('switches every read between gains and absolute values at once: boards, ranks, stats, history, server=, a restricted key', async () => {
    const [a, b] = [freshUuid(), freshUuid()];
    // Season 1 values before the gains season starts: the baselines on each server.
    await upload(a, MAIN, [{ key: STONE, value: 10_000 }]);
    await upload(a, CREATIVE, [{ key: STONE, value: 50 }]);
    await upload(b, MAIN, [{ key: STONE, value: 20 }]);
    const created = await t.browsers.admin.app('POST', '/api/v1/admin/seasons', {
      body: { name: 'Gains', slug: 'gains', scoring: 'gains' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await t.browsers.admin.app('POST', '/api/v1/admin/seasons/gains/activate')).statusCode).toBe(200);
    await upload(a, MAIN, [{ key: STONE, value: 10_040 }]);
    await upload(a, CREATIVE, [{ key: STONE, value: 60 }]);
    // b had a value on the main server only: the creative one counts from its first value in the season.
    await upload(b, MAIN, [{ key: STONE, value: 120 }]);
    await upload(b, CREATIVE, [{ key: STONE, value: 5 }]);
    await upload(b, CREATIVE, [{ key: STONE, value: 8 }]);

    const q = `season=gains&stat=${encodeURIComponent(STONE)}`;
    const reads = async () => ({
      board: await board(site, q),
      creative: await board(site, `${q}&server=${second}`),
      restricted: await board(creativeOnly, q),
      rank: (await rank(site, `${q}&player=${a}`)).json().entry,
      stats: await statValue(site, a, 'season=gains', STONE),
      server: await statValue(site, b, `season=gains&server=${second}`, STONE),
      history: await lastPoint(site, a, 'season=gains', STONE),
      serverHistory: await lastPoint(site, b, `season=gains&server=${second}`, STONE),
    });
    const gains = {
      board: [
        [b, 103],
        [a, 50],
      ],
      creative: [
        [a, 10],
        [b, 3],
      ],
      restricted: [
        [a, 10],
        [b, 3],
      ],
      rank: expect.objectContaining({ rank: 2, value: 50 }),
      stats: 50,
      server: 3,
      history: 50,
      serverHistory: 3,
    };
    expect(await reads()).toEqual(gains);

    const absolute = await t.browsers.admin.app('PUT', `/api/v1/admin/seasons/${id}`, {
      body: { scoring: 'absolute' },
    });
    expect(absolute.statusCode, absolute.body).toBe(200);
    expect(absolute.json().data.scoring).toBe('absolute');
    expect(await reads()).toEqual({
      board: [
        [a, 10_100],
        [b, 128],
      ],
      creative: [
        [a, 60],
        [b, 8],
      ],
      restricted: [
        [a, 60],
        [b, 8],
      ],
      rank: expect.objectContaining({ rank: 1, value: 10_100 }),
      stats: 10_100,
      server: 8,
      history: 10_100,
      serverHistory: 8,
    });

    expect(
      (await t.browsers.admin.app('PUT', '/api/v1/admin/seasons/gains', { body: { scoring: 'gains' } })).statusCode,
    ).toBe(200);
    expect(await reads()).toEqual(gains);
  });
});
