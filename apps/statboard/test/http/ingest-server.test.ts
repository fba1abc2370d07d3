import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, bearer, createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, expectInvalid, getJson, snapshotDb, sql, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let agent: string;

const URL = '/api/v1/ingest/server';

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
  agent = (
    await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [fx.serverId],
    })
  ).secret;
});
afterAll(async () => {
  await ctx?.close();
});

function post(token: string, body: unknown) {
  return ctx.http({
    method: 'POST',
    url: URL,
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

function upload(
  players: { uuid: string; username?: string; stats: { key: string; value: number }[] }[],
  online?: string[],
) {
  return { observed_at: new Date().toISOString(), players, ...(online ? { online } : {}) };
}

async function statsOf(player: string): Promise<Record<string, number>> {
  const res = await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}/stats`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { stats: { key: string; value: number }[] };
  return Object.fromEntries(body.stats.map((s) => [s.key, s.value]));
}

async function onlineUuids(): Promise<string[]> {
  const res = await getJson(ctx, fx.keys.website!, '/api/v1/online');
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { player: { uuid: string } }[] }).data.map((e) => e.player.uuid).sort();
}

runSecurityMatrix('POST /api/v1/ingest/server', () => ctx, {
  method: 'POST',
  scope: 'ingest:server',
  url: () => URL,
  body: (w) => upload([{ uuid: w.playerUuid, stats: [{ key: w.statKey, value: 9 }] }]),
  outsideRestriction: () => ({ player_restrictions: [uuid()] }),
});

describe('the ingest:server scope', () => {
  const create = (body: Record<string, unknown>) =>
    ctx.services.keys.create(ACTOR, fx.workspaceId, { name: 'k', scopes: ['ingest:server'], ...body });

  it('is refused (422, at scopes) on a client or website key', async () => {
    for (const type of ['client', 'website']) {
      await expect(create({ type, server_restrictions: [fx.serverId] })).rejects.toMatchObject({
        code: 'INVALID_PAYLOAD',
        details: { scopes: [expect.stringContaining('integration')] },
      });
    }
  });

  it('is refused (422, at scopes) on an integration key of no server or of two', async () => {
    const lobby = await ctx.services.servers.create(ACTOR, fx.workspaceId, { hostname: 'lobby.example.com', port: 1 });
    for (const servers of [[], [fx.serverId, lobby.id]]) {
      await expect(create({ type: 'integration', server_restrictions: servers })).rejects.toMatchObject({
        code: 'INVALID_PAYLOAD',
        details: { scopes: [expect.stringContaining('exactly one server')] },
      });
    }
  });
});

describe('POST /api/v1/ingest/server', () => {
  it('stores every player’s values as the server’s, verified, and answers the counts', async () => {
    const a = uuid();
    const b = uuid();
    const res = await post(
      agent,
      upload([
        {
          uuid: a,
          username: 'Alex',
          stats: [
            { key: 'minecraft.custom:minecraft.play_time', value: 1200 },
            { key: 'minecraft.mined:minecraft.stone', value: 5 },
          ],
        },
        { uuid: b.toUpperCase(), username: 'Bea', stats: [{ key: 'minecraft.custom:minecraft.jump', value: 3 }] },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accepted', 'players', 'request_id', 'server_time', 'values']);
    expect(body).toMatchObject({ accepted: true, players: 2, values: 3 });
    expect(await statsOf(a)).toEqual({
      'minecraft.custom:minecraft.play_time': 1200,
      'minecraft.mined:minecraft.stone': 5,
    });
    expect(await statsOf(b)).toEqual({ 'minecraft.custom:minecraft.jump': 3 });
    const verified = await sql(
      ctx,
      `SELECT v.server_id, v.season_id, v.value, v.received_at, d.key FROM verified_stats v
       JOIN players p ON p.id = v.player_id JOIN stat_definitions d ON d.id = v.stat_id
       WHERE p.uuid = $1 ORDER BY d.key`,
      [a],
    );
    expect(verified.map((r) => [r.key, r.value, r.server_id, r.season_id])).toEqual([
      ['minecraft.custom:minecraft.play_time', 1200, fx.serverId, fx.seasonId],
      ['minecraft.mined:minecraft.stone', 5, fx.serverId, fx.seasonId],
    ]);
    expect(Math.abs((verified[0]!.received_at as Date).getTime() - Date.now())).toBeLessThan(60_000);
    const names = await sql(ctx, 'SELECT username FROM players WHERE uuid = $1', [b]);
    expect(names[0]!.username).toBe('Bea');
  });

  it('keeps a player’s name when none is sent, and a later upload replaces its verified value', async () => {
    const a = uuid();
    expect((await post(agent, upload([{ uuid: a, username: 'Named', stats: [] }]))).statusCode).toBe(200);
    const res = await post(agent, upload([{ uuid: a, stats: [{ key: 'minecraft.custom:minecraft.jump', value: 1 }] }]));
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await post(agent, upload([{ uuid: a, stats: [{ key: 'minecraft.custom:minecraft.jump', value: 4 }] }])))
        .statusCode,
    ).toBe(200);
    expect((await sql(ctx, 'SELECT username FROM players WHERE uuid = $1', [a]))[0]!.username).toBe('Named');
    expect(await statsOf(a)).toEqual({ 'minecraft.custom:minecraft.jump': 4 });
    const verified = await sql(
      ctx,
      'SELECT v.value FROM verified_stats v JOIN players p ON p.id = v.player_id WHERE p.uuid = $1',
      [a],
    );
    expect(verified.map((r) => r.value)).toEqual([4]);
  });

  it('sets who is online on its server from `online`: listed players start or continue, the others end', async () => {
    const [a, b, c] = [uuid(), uuid(), uuid()];
    // A client of player c is on the same server through the mod.
    const client = await ctx.services.verifier.verify(fx.keys.client!);
    await ctx.services.ingest.ingest(client!, {
      protocol_version: 1,
      client: { mod_version: '1', game_version: '1.21.4' },
      player: { uuid: c, username: 'Cleo' },
      server: { hostname: 'mc.example.com', port: 25565 },
      session_id: uuid(),
      observed_at: new Date().toISOString(),
    });
    expect(await onlineUuids()).toContain(c);
    let res = await post(agent, upload([{ uuid: a, username: 'Ann', stats: [] }], [a, b]));
    expect(res.statusCode, res.body).toBe(200);
    expect(await onlineUuids()).toEqual([a, b].sort());
    res = await post(agent, upload([{ uuid: a, stats: [] }], [b]));
    expect(res.statusCode, res.body).toBe(200);
    expect(await onlineUuids()).toEqual([b]);
    // b's presence continued: still one session.
    const sessions = await sql(
      ctx,
      'SELECT count(*)::int AS n FROM game_sessions g JOIN players p ON p.id = g.player_id WHERE p.uuid = $1',
      [b],
    );
    expect(sessions[0]!.n).toBe(1);
    res = await post(agent, upload([{ uuid: b, stats: [] }], []));
    expect(await onlineUuids()).toEqual([]);
  });

  it('refuses repeated players and repeated statistics of a player (422, naming the field)', async () => {
    const a = uuid();
    const before = await snapshotDb(ctx.db);
    expectInvalid(
      await post(
        agent,
        upload([
          { uuid: a, stats: [] },
          { uuid: a.toUpperCase(), stats: [] },
        ]),
      ),
      'players.1.uuid',
    );
    expectInvalid(
      await post(
        agent,
        upload([
          {
            uuid: a,
            stats: [
              { key: 'minecraft.custom:minecraft.jump', value: 1 },
              { key: 'minecraft.custom:minecraft.jump', value: 2 },
            ],
          },
        ]),
      ),
      'players.0.stats.1.key',
    );
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });

  it('follows the batch rules for statistics and bounds players to 1–500', async () => {
    const res = await post(agent, upload([{ uuid: uuid(), stats: [{ key: 'no-colon', value: 1 }] }]));
    expectError(res, 422, 'INVALID_PAYLOAD');
    expectError(await post(agent, upload([])), 422, 'INVALID_PAYLOAD');
    const many = Array.from({ length: 501 }, () => ({ uuid: uuid(), stats: [] }));
    expectError(await post(agent, upload(many)), 422, 'INVALID_PAYLOAD');
  });

  it('is 404 NOT_FOUND when its server is disabled or no season is active', async () => {
    const ws = await ctx.services.workspaces.create(ACTOR, { name: 'Quiet' });
    const server = await ctx.services.servers.create(ACTOR, ws.id, { hostname: 'quiet.example.com', port: 25565 });
    const key = await ctx.services.keys.create(ACTOR, ws.id, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [server.id],
    });
    const body = upload([{ uuid: uuid(), stats: [{ key: 'minecraft.custom:minecraft.jump', value: 1 }] }]);
    expect(expectError(await post(key.secret, body), 404, 'NOT_FOUND').error.message).toMatch(/no active season/);
    await ctx.services.seasons.create(ACTOR, ws.id, { name: 'S', slug: 's', active: true });
    expect((await post(key.secret, body)).statusCode).toBe(200);
    await ctx.services.servers.update(ACTOR, ws.id, server.id, {
      hostname: 'quiet.example.com',
      port: 25565,
      enabled: false,
    });
    expect(expectError(await post(key.secret, body), 404, 'NOT_FOUND').error.message).toMatch(/disabled/);
  });
});
