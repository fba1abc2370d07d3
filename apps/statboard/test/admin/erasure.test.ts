import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as cli, EXIT } from '#src/cli.ts';
import { ACTOR, bearer, DB_KIND, modBatch } from '../helpers.ts';
import { expectError } from '../http/support.ts';
import { buildTeam, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

/** Corrections and erasure: values removed (admin), players erased and blocked (owner), and what ingest does then. */
let w: World;
let t: Team;
let mod: string;
let site: string;

const STONE = 'minecraft.mined:minecraft.stone';
const DIRT = 'minecraft.mined:minecraft.dirt';
let n = 0;
/** A fresh player's game UUID. */
const freshUuid = () => `7a0c1e2d-0000-4000-8000-${String(++n).padStart(12, '0')}`;

async function upload(uuid: string, username: string, stats: { key: string; value: number }[], extra = {}) {
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(mod),
    payload: {
      ...modBatch({ uuid, username, stats, sessionId: crypto.randomUUID() }),
      observed_at: new Date(Date.now() - 60_000 + n).toISOString(),
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** Rows the player still has in each table (by game UUID, through the players row where the table needs it). */
async function rowsOf(uuid: string) {
  const [r] = await w.db.db.query<Record<string, number>>(
    `SELECT
       (SELECT count(*) FROM players WHERE workspace_id = $1 AND uuid = $2)::int AS players,
       (SELECT count(*) FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $2)::int AS values,
       (SELECT count(*) FROM stat_history h JOIN players p ON p.id = h.player_id WHERE p.uuid = $2)::int AS history,
       (SELECT count(*) FROM game_sessions s JOIN players p ON p.id = s.player_id WHERE p.uuid = $2)::int AS sessions,
       (SELECT count(*) FROM events e JOIN players p ON p.id = e.player_id WHERE p.uuid = $2)::int AS events`,
    [t.workspaceId, uuid],
  );
  return r!;
}

async function lastAudit(action: string) {
  const rows = await w.db.db.query<{
    target_type: string;
    target_id: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    actor_user_id: string | null;
  }>(
    `SELECT target_type, target_id, before, after, actor_user_id FROM audit_log
     WHERE workspace_id = $1 AND action = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [t.workspaceId, action],
  );
  return rows[0];
}

const stats = async (uuid: string) =>
  w.app.inject({ method: 'GET', url: `/api/v1/players/${uuid}/stats?season=s1`, headers: bearer(site) });
async function board(key: string) {
  const res = await w.app.inject({
    method: 'GET',
    url: `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(key)}`,
    headers: bearer(site),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { entries: { player: { uuid: string }; value: number }[] }).entries;
}

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  mod = (
    await w.services.keys.create(ACTOR, t.workspaceId, { name: 'mod 2', type: 'client', scopes: ['ingest:write'] })
  ).secret;
  site = (
    await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'site 2',
      type: 'website',
      scopes: ['players:read', 'stats:read', 'leaderboards:read'],
    })
  ).secret;
  for (const key of [STONE, DIRT]) {
    const res = await t.browsers.admin.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(key)}`, {
      body: { public: true },
    });
    // Dirt is defined by the first upload of it below.
    expect([200, 404]).toContain(res.statusCode);
  }
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe(`DELETE /admin/players/{player}/stats (${DB_KIND})`, () => {
  it('removes one value and its history (admin): reads and boards follow at once, audited with the counts', async () => {
    const uuid = freshUuid();
    // History keeps the last value of an hour once a later hour's value comes.
    const earlier = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await upload(
      uuid,
      'Digger',
      [
        { key: STONE, value: 900_000 },
        { key: DIRT, value: 5 },
      ],
      { observed_at: earlier },
    );
    await upload(uuid, 'Digger', [
      { key: STONE, value: 900_001 },
      { key: DIRT, value: 6 },
    ]);
    // Read first, so the caches and the rank board hold the value.
    expect((await board(STONE))[0]).toMatchObject({ player: { uuid }, value: 900_001 });
    expect((await stats(uuid)).json().stats).toHaveLength(2);
    const before = await rowsOf(uuid);
    expect(before.history).toBeGreaterThan(0);

    const res = await t.browsers.admin.app(
      'DELETE',
      `/api/v1/admin/players/${uuid}/stats?season=s1&stat=${encodeURIComponent(STONE)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { values_removed: 1 } });

    expect((await board(STONE)).map((e) => e.player.uuid)).not.toContain(uuid);
    expect(
      (await stats(uuid)).json().stats.map((s: { key: string }) => s.key),
      'the other value stays',
    ).toEqual([DIRT]);
    const [left] = await w.db.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stat_history h JOIN players p ON p.id = h.player_id
       JOIN stat_definitions d ON d.id = h.stat_id WHERE p.uuid = $1 AND d.key = $2`,
      [uuid, STONE],
    );
    expect(left!.n).toBe(0);
    const audit = await lastAudit('PLAYER_STATS_REMOVED');
    expect(audit).toMatchObject({
      target_type: 'player',
      actor_user_id: t.userIds.admin,
      before: { uuid, username: 'Digger', season: { slug: 's1' }, stat: STONE, server: null },
      after: { values_removed: 1, history_removed: expect.any(Number) },
    });
    expect((audit!.after as { history_removed: number }).history_removed).toBeGreaterThan(0);
  });

  it('resets a season: every value of the player in it (by season id), and a later upload counts again', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'Reset', [
      { key: STONE, value: 10 },
      { key: DIRT, value: 20 },
    ]);
    const res = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${uuid}/stats?season=${t.seasonId}`);
    expect(res.json()).toEqual({ data: { values_removed: 2 } });
    expect(await rowsOf(uuid)).toMatchObject({ players: 1, values: 0, history: 0 });
    await upload(uuid, 'Reset', [{ key: STONE, value: 3 }]);
    expect((await stats(uuid)).json().stats).toMatchObject([{ key: STONE, value: 3 }]);
    // Nothing left to remove: 0, still audited.
    const again = await t.browsers.admin.app(
      'DELETE',
      `/api/v1/admin/players/${uuid}/stats?season=s1&stat=${encodeURIComponent(DIRT)}`,
    );
    expect(again.json()).toEqual({ data: { values_removed: 0 } });
  });

  it('takes server= naming a server of the workspace (404 for another), and 404s unknown season, stat, player', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'Served', [{ key: STONE, value: 1 }]);
    const base = `/api/v1/admin/players/${uuid}/stats?season=s1`;
    expectError(await t.browsers.admin.app('DELETE', `${base}&server=${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await t.browsers.admin.app('DELETE', `${base}&server=nope`), 422, 'INVALID_PAYLOAD');
    expectError(await t.browsers.admin.app('DELETE', `${base}&stat=no:such`), 404, 'NOT_FOUND');
    expectError(
      await t.browsers.admin.app('DELETE', `/api/v1/admin/players/${uuid}/stats?season=nope`),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.browsers.admin.app('DELETE', `/api/v1/admin/players/${freshUuid()}/stats?season=s1`),
      404,
      'NOT_FOUND',
    );
    expectError(await t.browsers.admin.app('DELETE', `/api/v1/admin/players/${uuid}/stats`), 422, 'INVALID_PAYLOAD');
    const res = await t.browsers.admin.app('DELETE', `${base}&server=${t.serverId}`);
    expect(res.json()).toEqual({ data: { values_removed: 1 } });
    expect((await lastAudit('PLAYER_STATS_REMOVED'))?.before).toMatchObject({ server: t.serverId });
  });

  it('is for admins and owners: an analyst and a read-only user get 403 and nothing goes', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'Kept', [{ key: STONE, value: 1 }]);
    for (const who of ['analyst', 'readonly', 'none'] as const) {
      const res = await t.browsers[who].app('DELETE', `/api/v1/admin/players/${uuid}/stats?season=s1`);
      expectError(res, 403, 'FORBIDDEN');
    }
    expect((await rowsOf(uuid)).values).toBe(1);
  });
});

describe(`DELETE /admin/players/{player} (${DB_KIND})`, () => {
  it('erases everything of the player (owner): values, history, sessions, events and the name; the audit keeps the UUID', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'Forgotten', [{ key: STONE, value: 77 }], {
      events: [
        {
          id: crypto.randomUUID(),
          type: 'advancement',
          occurred_at: new Date().toISOString(),
          payload: { advancement: 'minecraft:story/mine_stone' },
        },
      ],
    });
    expect(await rowsOf(uuid)).toMatchObject({ players: 1, values: 1, sessions: 1, events: 1 });
    expect((await board(STONE)).map((e) => e.player.uuid)).toContain(uuid);

    const res = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${uuid}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await rowsOf(uuid)).toEqual({ players: 0, values: 0, history: 0, sessions: 0, events: 0 });
    expect((await board(STONE)).map((e) => e.player.uuid)).not.toContain(uuid);
    expectError(await stats(uuid), 404, 'NOT_FOUND');
    const list = await t.browsers.owner.app('GET', '/api/v1/admin/players?search=Forgotten');
    expect(list.json()).toEqual({ data: [] });

    const audit = await lastAudit('PLAYER_ERASED');
    expect(audit).toMatchObject({ target_type: 'player', target_id: uuid, before: { uuid } });
    expect(audit!.after).toMatchObject({ uuid, blocked: false, erased: { values: 1, sessions: 1, events: 1 } });
    expect(JSON.stringify(audit)).not.toContain('Forgotten');
    const log = await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?action=PLAYER_ERASED');
    const record = log.json().data[0];
    expect(record).toMatchObject({ target_name: uuid, summary: `Erased player ${uuid}` });
    expect(JSON.stringify(record)).not.toContain('Forgotten');

    // A later upload (not blocked) is a new player.
    await upload(uuid, 'Back', [{ key: STONE, value: 1 }]);
    expect((await rowsOf(uuid)).players).toBe(1);
  });

  it('is for owners only: an admin gets 403 and nothing goes; an unknown player is 404', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'Stays', [{ key: STONE, value: 1 }]);
    for (const who of ['admin', 'analyst', 'readonly', 'none'] as const) {
      expectError(await t.browsers[who].app('DELETE', `/api/v1/admin/players/${uuid}`), 403, 'FORBIDDEN');
      expectError(await t.browsers[who].app('DELETE', `/api/v1/admin/players/${uuid}/block`), 403, 'FORBIDDEN');
    }
    expect((await rowsOf(uuid)).players).toBe(1);
    expectError(await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${freshUuid()}`), 404, 'NOT_FOUND');
    expectError(await t.browsers.owner.app('DELETE', '/api/v1/admin/players/not-a-uuid'), 404, 'NOT_FOUND');
  });
});

describe(`blocked players (${DB_KIND})`, () => {
  const blockedUuid = freshUuid();

  it('with block=true, later uploads are answered 200, stored nowhere, and counted as PLAYER_BLOCKED', async () => {
    await upload(blockedUuid, 'Cheater', [{ key: STONE, value: 5 }]);
    const res = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${blockedUuid}?block=true`);
    expect(res.statusCode, res.body).toBe(204);
    const audit = await lastAudit('PLAYER_ERASED');
    expect(audit).toMatchObject({ target_id: blockedUuid, after: { blocked: true } });
    const blocks = await t.browsers.readonly.app('GET', '/api/v1/admin/players/blocked');
    expect(blocks.json().data).toEqual([
      { uuid: blockedUuid, blocked_at: expect.any(String), blocked_by: t.userIds.owner },
    ]);

    const answer = await upload(blockedUuid, 'Cheater', [{ key: STONE, value: 9_999_999 }]);
    expect(answer.json()).toMatchObject({ accepted: true });
    await upload(blockedUuid, 'Cheater', [{ key: STONE, value: 9_999_999 }]);
    expect(await rowsOf(blockedUuid)).toEqual({ players: 0, values: 0, history: 0, sessions: 0, events: 0 });
    await w.services.flush();
    const rejections = await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections');
    const group = rejections
      .json()
      .data.find((r: { code: string; player_uuid: string }) => r.code === 'PLAYER_BLOCKED');
    expect(group).toMatchObject({ count: 2, player_uuid: blockedUuid, server: { hostname: 'mc.example.com' } });
  });

  it("discards a blocked player's values in a server's upload (POST /ingest/server) and stores the others", async () => {
    const agent = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [t.serverId],
    });
    const other = freshUuid();
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/server',
      headers: bearer(agent.secret),
      payload: {
        observed_at: new Date().toISOString(),
        players: [
          { uuid: blockedUuid, username: 'Cheater', stats: [{ key: STONE, value: 7 }] },
          { uuid: other, username: 'Honest', stats: [{ key: STONE, value: 3 }] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: true, players: 1, values: 1 });
    expect((await rowsOf(blockedUuid)).players).toBe(0);
    expect((await rowsOf(other)).values).toBe(1);
  });

  it('skips a blocked player in an import of a world', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'statboard-erase-'));
    try {
      await mkdir(join(dir, 'stats'));
      const other = freshUuid();
      const file = { stats: { 'minecraft:mined': { 'minecraft:stone': 12 } }, DataVersion: 3953 };
      await writeFile(join(dir, 'stats', `${blockedUuid}.json`), JSON.stringify(file));
      await writeFile(join(dir, 'stats', `${other}.json`), JSON.stringify(file));
      const r = await w.services.imports.importWorld(ACTOR, t.workspaceId, { season: 's1', world: dir });
      expect(r).toMatchObject({ files: 1, players: 1 });
      expect(r.skipped).toEqual([
        { file: `stats/${blockedUuid}.json`, reason: 'the player is blocked: their statistics are discarded' },
      ]);
      expect((await rowsOf(blockedUuid)).players).toBe(0);
      expect((await rowsOf(other)).players).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('DELETE …/block lets the uploads in again (owner), audited; unblocking again is 404', async () => {
    const res = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${blockedUuid}/block`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await lastAudit('PLAYER_UNBLOCKED')).toMatchObject({ target_id: blockedUuid, after: { uuid: blockedUuid } });
    expect((await t.browsers.owner.app('GET', '/api/v1/admin/players/blocked')).json()).toEqual({ data: [] });
    await upload(blockedUuid, 'Reformed', [{ key: STONE, value: 4 }]);
    expect(await rowsOf(blockedUuid)).toMatchObject({ players: 1, values: 1 });
    expectError(await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${blockedUuid}/block`), 404, 'NOT_FOUND');
  });

  it('blocks a UUID that has no player (erased before) when block=true', async () => {
    const uuid = freshUuid();
    expect((await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${uuid}?block=true`)).statusCode).toBe(204);
    await upload(uuid, 'Never', [{ key: STONE, value: 1 }]);
    expect((await rowsOf(uuid)).players).toBe(0);
    expect((await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${uuid}/block`)).statusCode).toBe(204);
  });
});

/** Runs a CLI command on the test database; stdout and stderr as printed. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    return { code: await cli(args, w.services), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe(`statboard player erase / unblock (${DB_KIND})`, () => {
  it('erases and blocks a player (audited as the CLI), then unblocks; a bad or unknown player is refused', async () => {
    const uuid = freshUuid();
    await upload(uuid, 'ByCli', [{ key: STONE, value: 2 }]);
    const W = ['--workspace', t.workspaceId];
    const erased = await run('player', 'erase', ...W, '--player', uuid.toUpperCase(), '--block', '--json');
    expect(erased.code, erased.err).toBe(EXIT.ok);
    expect(JSON.parse(erased.out)).toEqual({ data: { uuid, erased: true, blocked: true } });
    expect(await rowsOf(uuid)).toMatchObject({ players: 0, values: 0 });
    expect(await lastAudit('PLAYER_ERASED')).toMatchObject({ target_id: uuid, actor_user_id: null });
    await upload(uuid, 'ByCli', [{ key: STONE, value: 3 }]);
    expect((await rowsOf(uuid)).players).toBe(0);

    const unblocked = await run('player', 'unblock', ...W, '--player', uuid);
    expect(unblocked.code, unblocked.err).toBe(EXIT.ok);
    expect(unblocked.out).toContain(`Player ${uuid} unblocked`);
    expect((await run('player', 'unblock', ...W, '--player', uuid)).code).toBe(EXIT.notFound);
    expect((await run('player', 'erase', ...W, '--player', freshUuid())).code).toBe(EXIT.notFound);
    const bad = await run('player', 'erase', ...W, '--player', 'steve');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain('--player: must be a UUID');
  });
});

// Last: a second server makes the imports above name theirs.
describe(`DELETE /admin/players/{player}/stats with two servers (${DB_KIND})`, () => {
  it("with server=, removes that server's values: the network total keeps the other servers' share", async () => {
    const second = await w.services.servers.create(ACTOR, t.workspaceId, {
      name: 'Creative',
      hostname: 'creative.example.com',
      port: 25565,
    });
    const uuid = freshUuid();
    await upload(uuid, 'TwoWorlds', [
      { key: STONE, value: 40 },
      { key: DIRT, value: 5 },
    ]);
    await upload(uuid, 'TwoWorlds', [{ key: STONE, value: 2 }], {
      server: { hostname: 'creative.example.com', port: 25565 },
    });
    const networkValue = async (key: string) =>
      (stats(uuid).then((r) => r.json()) as Promise<{ stats: { key: string; value: number }[] }>).then(
        (b) => b.stats.find((x) => x.key === key)?.value,
      );
    expect(await networkValue(STONE)).toBe(42);
    const base = `/api/v1/admin/players/${uuid}/stats?season=s1`;
    const res = await t.browsers.admin.app('DELETE', `${base}&server=${second.id}`);
    expect(res.json()).toEqual({ data: { values_removed: 1 } });
    expect(await networkValue(STONE)).toBe(40);
    expect(await networkValue(DIRT)).toBe(5);
    // The last server's values: the network values go with them.
    expect((await t.browsers.admin.app('DELETE', `${base}&server=${t.serverId}`)).json()).toEqual({
      data: { values_removed: 2 },
    });
    expect(await networkValue(STONE)).toBeUndefined();
    expect((await rowsOf(uuid)).values).toBe(0);
  });
});
