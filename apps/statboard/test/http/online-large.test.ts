import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('drops a hidden player at once', async () => {
    const [first] = await count();
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, first!.player.uuid, { public: false });
    const after = await count();
    expect(after.map((e) => e.player.uuid)).not.toContain(first!.player.uuid);
  });
});
