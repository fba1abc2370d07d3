import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import { expectError, getJson, ingestOk, mutate, snapshotDb, sql, uuid } from './support.ts';

let ctx: TestContext;
let fx: Fixture;

interface OnlineBody {
  data: {
    player: { id: string; uuid: string; username: string; public: boolean };
    online: boolean;
    last_seen_at: string;
    server: { id: string; name: string };
  }[];
}

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Online');
});
afterAll(async () => {
  await ctx?.close();
});

async function online(token = fx.keys.website!): Promise<OnlineBody> {
  const res = await getJson(ctx, token, '/api/v1/online');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OnlineBody;
}
const uuidsOnline = async (token?: string) => (await online(token)).data.map((e) => e.player.uuid);

async function join(username: string, session = uuid(), player = uuid()): Promise<{ player: string; session: string }> {
  await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username, sessionId: session }));
  return { player, session };
}

/** Moves a session's last heartbeat into the past (no route can). */
async function age(session: string, seconds: number): Promise<void> {
  await mutate(
    ctx,
    fx.workspaceId,
    `UPDATE game_sessions SET last_seen_at = now() - make_interval(secs => $2) WHERE session_id = $1`,
    [session, seconds],
  );
}

runSecurityMatrix('GET /api/v1/online', () => ctx, {
  method: 'GET',
  scope: 'presence:read',
  url: () => '/api/v1/online',
});

describe('GET /api/v1/online', () => {
  it('lists a player with an open session as {player, online: true, last_seen_at}', async () => {
    const before = Date.now();
    const { player } = await join('Onliner');
    const entry = (await online()).data.find((e) => e.player.uuid === player);
    expect(entry).toBeDefined();
    expect(Object.keys(entry!).sort()).toEqual(['last_seen_at', 'online', 'player', 'server']);
    expect(entry!.server).toEqual({ id: fx.serverId, name: 'Main' });
    expect(Object.keys(entry!.player).sort()).toEqual(['id', 'public', 'username', 'uuid']);
    expect(entry!.online).toBe(true);
    expect(entry!.player).toMatchObject({ username: 'Onliner', public: true });
    // last_seen_at is server time of the heartbeat, not the client's observed_at (2026-10-06).
    expect(Date.parse(entry!.last_seen_at)).toBeGreaterThanOrEqual(before - 2000);
  });

  it('keeps a player online for two minutes after the last heartbeat, then drops them', async () => {
    const { player, session } = await join('Window');
    await age(session, 110);
    expect(await uuidsOnline()).toContain(player);
    await age(session, 125);
    expect(await uuidsOnline()).not.toContain(player);
    // A heartbeat brings them back.
    await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: player, username: 'Window', sessionId: session, stats: [] }));
    expect(await uuidsOnline()).toContain(player);
  });

  it('excludes ended sessions', async () => {
    const { player, session } = await join('Leaver');
    expect(await uuidsOnline()).toContain(player);
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: player,
        username: 'Leaver',
        sessionId: session,
        events: [{ id: uuid(), type: 'SESSION_ENDED', occurred_at: new Date().toISOString(), payload: {} }],
      }),
    );
    expect(await uuidsOnline()).not.toContain(player);
  });

  it('lists a player once even with two open sessions', async () => {
    const { player } = await join('Twice');
    await join('Twice', uuid(), player);
    expect(await countOpen(player)).toBe(2);
    expect((await uuidsOnline()).filter((u) => u === player)).toHaveLength(1);
  });

  it('lists public players only', async () => {
    const { player } = await join('Private');
    await mutate(ctx, fx.workspaceId, 'UPDATE players SET public = false WHERE uuid = $1', [player]);
    expect(await uuidsOnline()).not.toContain(player);
  });

  it("lists only players in the key's player restriction", async () => {
    const a = await join('InList');
    const b = await join('NotInList');
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'one',
      type: 'website',
      scopes: ['presence:read'],
      player_restrictions: [a.player.toUpperCase()],
    });
    const seen = await uuidsOnline(k.secret);
    expect(seen).toEqual([a.player]);
    expect(seen).not.toContain(b.player);
  });

  it("applies the key's server restriction: its servers only, server= outside it 403, inside it that server", async () => {
    const lobby = await ctx.services.servers.create(ACTOR, fx.workspaceId, {
      name: 'Lobby',
      hostname: 'lobby.example.com',
      port: 25566,
    });
    const survival = await ctx.services.servers.create(ACTOR, fx.workspaceId, {
      name: 'Survival',
      hostname: 'survival.example.com',
      port: 25567,
    });
    const onMain = await join('RestrMain');
    const onLobby = uuid();
    const onSurvival = uuid();
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: onLobby,
        username: 'RestrLobby',
        sessionId: uuid(),
        hostname: 'lobby.example.com',
        port: 25566,
      }),
    );
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: onSurvival,
        username: 'RestrSurvival',
        sessionId: uuid(),
        hostname: 'survival.example.com',
        port: 25567,
      }),
    );
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'lobby and survival',
      type: 'website',
      scopes: ['presence:read'],
      server_restrictions: [lobby.id, survival.id],
    });
    // The unrestricted answer first (it may be kept), then the restricted key's.
    expect(await uuidsOnline()).toEqual(expect.arrayContaining([onMain.player, onLobby, onSurvival]));
    const seen = (await online(k.secret)).data;
    expect(seen.map((e) => e.player.uuid).sort()).toEqual([onLobby, onSurvival].sort());
    expect(new Set(seen.map((e) => e.server.id))).toEqual(new Set([lobby.id, survival.id]));

    const before = await snapshotDb(ctx.db);
    for (const outside of [fx.serverId, uuid()]) {
      const res = await getJson(ctx, k.secret, `/api/v1/online?server=${outside}`);
      expect(expectError(res, 403, 'FORBIDDEN').error.message).toBe('This API key may not read that server.');
    }
    expect(await snapshotDb(ctx.db)).toEqual(before);

    const inside = await getJson(ctx, k.secret, `/api/v1/online?server=${lobby.id.toUpperCase()}`);
    expect(inside.statusCode, inside.body).toBe(200);
    expect((inside.json() as OnlineBody).data.map((e) => e.player.uuid)).toEqual([onLobby]);
  });

  it("never lists another workspace's players", async () => {
    const other = await seedWorkspace(ctx.services, 'Online other');
    const theirs = uuid();
    await ingestOk(ctx, other.keys.client!, modBatch({ uuid: theirs, username: 'Elsewhere' }));
    expect(await uuidsOnline()).not.toContain(theirs);
    expect(await uuidsOnline(other.keys.website!)).toEqual([theirs]);
  });

  it('writes nothing when answering', async () => {
    const before = await snapshotDb(ctx.db);
    await online();
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });
});

async function countOpen(player: string): Promise<number> {
  const rows = await sql(
    ctx,
    `SELECT count(*)::int AS n FROM game_sessions g JOIN players p ON p.id = g.player_id
     WHERE p.uuid = $1 AND g.ended_at IS NULL`,
    [player],
  );
  return rows[0]!.n as number;
}
