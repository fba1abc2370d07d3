import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES } from '#src/http/compression.ts';
import { ONLINE_CACHE_MIN_PLAYERS, ONLINE_CACHE_MS } from '#src/modules/online/service.ts';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk, uuid } from './support.ts';

/**
 * A large `/online` answer (ONLINE_CACHE_MIN_PLAYERS players or more, for a key without a player restriction) is
 * served for up to ONLINE_CACHE_MS, and dropped at once when a player is hidden or renamed; a small one, or a
 * restricted key's, is read every time (test/http/online.test.ts).
 */
describe('GET /online with thousands online', () => {
  let ctx: TestContext;
  let fx: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services, 'Crowd');
    const players = await ctx.db.query<{ id: string }>(
      `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT $1, gen_random_uuid(), 'Crowd' || g || CASE WHEN g % 100 = 0 THEN 'é"\\/' || chr(9) ELSE '' END, now()
       FROM generate_series(1, $2::int) g RETURNING id`,
      [fx.workspaceId, ONLINE_CACHE_MIN_PLAYERS + 10],
    );
    await ctx.db.query(
      `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version, game_version,
         started_at, last_seen_at)
       SELECT $1, id, gen_random_uuid(), $2, $3, '1', '1.21', now(), now() FROM unnest($4::uuid[]) AS id`,
      [fx.workspaceId, fx.serverId, fx.seasonId, players.map((p) => p.id)],
    );
  });

  afterAll(async () => {
    await ctx?.close();
  });

  const count = async () => {
    const res = await getJson(ctx, fx.keys.website!, '/api/v1/online');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { player: { uuid: string } }[] }).data;
  };

  it('writes the answer as JSON.stringify writes its entries, and serves the same bytes while it is kept', async () => {
    const res = await getJson(ctx, fx.keys.website!, '/api/v1/online');
    expect(res.statusCode, res.body).toBe(200);
    const rows = await ctx.db.query<{
      id: string;
      uuid: string;
      username: string;
      last_seen_at: Date;
      server_id: string;
      server_name: string;
    }>(
      `SELECT p.id, p.uuid, p.username, g.last_seen_at, sv.id AS server_id, sv.name AS server_name
       FROM game_sessions g JOIN players p ON p.id = g.player_id JOIN servers sv ON sv.id = g.server_id
       WHERE g.workspace_id = $1 AND g.ended_at IS NULL AND p.public ORDER BY lower(p.username), p.uuid`,
      [fx.workspaceId],
    );
    const data = rows.map((r) => ({
      player: { id: r.id, uuid: r.uuid, username: r.username, public: true },
      online: true,
      last_seen_at: new Date(r.last_seen_at).toISOString(),
      server: { id: r.server_id, name: r.server_name },
    }));
    expect(rows.some((r) => r.username.includes('"'))).toBe(true);
    expect(res.body).toBe(JSON.stringify({ data }));
    const again = await getJson(ctx, fx.keys.website!, '/api/v1/online');
    expect(again.body).toBe(res.body);
  });

  it('sends the kept answer gzipped to clients that accept gzip, on both paths, and says it varies by it', async () => {
    // Over real HTTP (the fast path of node:http) and through Fastify (inject): the same bytes, compressed before
    // the kept answer was first served.
    const overHttp = (encoding: string | null) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const url = new URL('/api/v1/online', ctx.url);
        const headers: Record<string, string> = { authorization: `Bearer ${fx.keys.website!}` };
        if (encoding !== null) headers['accept-encoding'] = encoding;
        httpGet(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const viaFastify = async (encoding: string | null) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/online',
        headers: { authorization: `Bearer ${fx.keys.website!}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
      return { headers: res.headers, body: res.rawPayload };
    };
    for (const read of [overHttp, viaFastify]) {
      const plain = await read(null);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
      const zipped = await read('gzip, deflate, br');
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('Accept-Encoding');
      expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
      expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      // A client that refuses gzip gets the answer as it is.
      expect((await read('gzip;q=0, identity')).headers['content-encoding']).toBeUndefined();
    }
  });

  it('serves the same answer for a moment, then the new one', async () => {
    const before = (await count()).length;
    expect(before).toBe(ONLINE_CACHE_MIN_PLAYERS + 10);
    const newcomer = uuid();
    await ingestOk(ctx, fx.keys.client!, modBatch({ uuid: newcomer, username: 'Newcomer', sessionId: uuid() }));
    // The newcomer's first batch arrives within the answer's life (it may or may not be there yet) …
    const soon = await count();
    expect([before, before + 1]).toContain(soon.length);
    // … and is there once it has run out.
    await new Promise((r) => setTimeout(r, ONLINE_CACHE_MS + 200));
    const later = await count();
    expect(later.length).toBe(before + 1);
    expect(later.map((e) => e.player.uuid)).toContain(newcomer);
  });

  it('never serves a kept answer of all servers to a key restricted to some of them', async () => {
    const lobby = await ctx.services.servers.create(ACTOR, fx.workspaceId, {
      name: 'Lobby',
      hostname: 'lobby.example.com',
      port: 25566,
    });
    const onLobby = uuid();
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({ uuid: onLobby, username: 'LobbyOne', sessionId: uuid(), hostname: 'lobby.example.com', port: 25566 }),
    );
    const restricted = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'lobby only',
      type: 'website',
      scopes: ['presence:read'],
      server_restrictions: [lobby.id],
    });
    // The answer of all servers is large, so it is kept; the restricted key's comes right after, within its life.
    expect((await count()).length).toBeGreaterThan(ONLINE_CACHE_MIN_PLAYERS);
    for (const url of ['/api/v1/online', `/api/v1/online?server=${lobby.id}`]) {
      const res = await getJson(ctx, restricted.secret, url);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { data: { player: { uuid: string } }[] }).data.map((e) => e.player.uuid)).toEqual([
        onLobby,
      ]);
    }
    expect((await getJson(ctx, restricted.secret, `/api/v1/online?server=${fx.serverId}`)).statusCode).toBe(403);
  });

  it('drops a hidden player at once', async () => {
    const [first] = await count();
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, first!.player.uuid, { public: false });
    const after = await count();
    expect(after.map((e) => e.player.uuid)).not.toContain(first!.player.uuid);
  });
});
