import { randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '#src/metrics/metrics.ts';
import { ScreeningStage } from '#src/modules/screening/stage.ts';
import { WebhookDispatcher } from '#src/modules/webhooks/dispatcher.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { expectError } from '../http/support.ts';
import { Receiver } from '../integrations/support/receiver.ts';
import { buildTeam, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

// Uploads from players' machines that do not add up are held for review instead of stored; the answer is the
// same 200. Each rule is shown here through the real route, with the review queue that follows.

const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
const H = 72_000; // the default max_per_hour of a time in ticks

interface HeldValue {
  stat: string | null;
  rule: string;
  previous_value: number | string | null;
  previous_at: string | null;
  value: number | string;
  observed_at: string;
  received_at: string;
  allowed: number | null;
}
interface Item {
  id: string;
  status: string;
  player: { uuid: string; username: string };
  server: { id: string; name: string };
  key: { id: string; name: string } | null;
  uploads: number;
  items: HeldValue[];
}

let w: World;
let t: Team;
let client: string;
let reader: string;

beforeAll(async () => {
  w = await createWorld({ env: { CLIENT_NEW_STATS_PER_DAY: '50', WEBHOOK_ALLOW_PRIVATE: '1' } });
  t = await buildTeam(w);
  client = (
    await w.services.keys.create(ACTOR, t.workspaceId, { name: 'mod2', type: 'client', scopes: ['ingest:write'] })
  ).secret;
  reader = (
    await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'reader',
      type: 'website',
      scopes: ['players:read', 'stats:read', 'leaderboards:read'],
    })
  ).secret;
});
afterAll(async () => {
  await w?.close();
});

let clock = Date.now() - 3_600_000;
/** Observation times that only move forward (what the mod sends). */
function observed(): string {
  clock += 1_000;
  return new Date(clock).toISOString();
}

async function upload(uuid: string, username: string, stats: { key: string; value: number }[], token = client) {
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(token),
    payload: modBatch({ uuid, username, stats, observedAt: observed() }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
}

async function stored(uuid: string, key: string): Promise<number | undefined> {
  const rows = await w.db.db.query<{ value: number }>(
    `SELECT s.value FROM player_stats s JOIN players p ON p.id = s.player_id
     JOIN stat_definitions d ON d.id = s.stat_id WHERE p.uuid = $1 AND d.key = $2`,
    [uuid, key],
  );
  return rows[0]?.value;
}

async function items(status = 'open'): Promise<Item[]> {
  const res = await t.browsers.readonly.app('GET', `/api/v1/admin/review?status=${status}&per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Item[] }).data;
}
const itemOf = async (uuid: string, status = 'open') => (await items(status)).find((i) => i.player.uuid === uuid);

/** Moves the arrival of the player's stored values `ms` into the past (the service's clock, as if time passed). */
async function backdate(uuid: string, ms: number): Promise<void> {
  // The server's row is what screening compares with; the network row moves with it.
  for (const table of ['server_stats', 'player_stats']) {
    await w.db.db.query(
      `UPDATE ${table} SET updated_at = updated_at - make_interval(secs => $2 / 1000.0)
       WHERE player_id = (SELECT id FROM players WHERE uuid = $1)`,
      [uuid, ms],
    );
  }
  // Written behind the service's back: told, as a write of the service would tell (screening keeps what it read).
  await w.bus.publish({ topic: 'values', workspaceId: t.workspaceId, players: [uuid] });
}

describe('rate', () => {
  it('holds a value that rose faster than max_per_hour allows, stores the rest of the batch, and answers the same 200', async () => {
    const p = randomUUID();
    const other = 'minecraft.mined:minecraft.oak_log';
    const first = await upload(p, 'Rater', [
      { key: PLAY_TIME, value: 1_000 },
      { key: other, value: 5 },
    ]);
    const forged = await upload(p, 'Rater', [
      { key: PLAY_TIME, value: 1_000 + 40 * H },
      { key: other, value: 6 },
    ]);
    expect(Object.keys(forged).sort()).toEqual(Object.keys(first).sort());
    expect(forged).toMatchObject({ accepted: true, next_upload_after: first.next_upload_after });
    expect(await stored(p, PLAY_TIME)).toBe(1_000);
    expect(await stored(p, other)).toBe(6);

    const item = await itemOf(p);
    expect(item).toMatchObject({
      status: 'open',
      player: { uuid: p, username: 'Rater' },
      server: { id: t.serverId, name: 'Main' },
      key: { name: 'mod2' },
      uploads: 1,
    });
    expect(item!.items).toHaveLength(1);
    const held = item!.items[0]!;
    expect(held).toMatchObject({ stat: PLAY_TIME, rule: 'rate', previous_value: 1_000, value: 1_000 + 40 * H });
    // 0.1 h of play right after the last upload (and the few milliseconds since).
    expect(held.allowed).toBeGreaterThanOrEqual(1_000 + 7_200);
    expect(held.allowed).toBeLessThan(1_000 + 7_300);
  });

  it('compares later uploads with the last stored value, so a forged counter stays held; a drop is stored', async () => {
    const p = randomUUID();
    await upload(p, 'Forger', [{ key: PLAY_TIME, value: 100 }]);
    await upload(p, 'Forger', [{ key: PLAY_TIME, value: 50 * H }]);
    await upload(p, 'Forger', [{ key: PLAY_TIME, value: 50 * H + 20 }]);
    expect(await stored(p, PLAY_TIME)).toBe(100);
    const item = await itemOf(p);
    expect(item?.uploads).toBe(2);
    expect(item?.items.map((i) => [i.rule, i.value])).toEqual([['rate', 50 * H + 20]]);

    await upload(p, 'Forger', [{ key: PLAY_TIME, value: 40 }]);
    expect(await stored(p, PLAY_TIME)).toBe(40);
  });

  it("counts the hours by the service's clock (+0.1 h), not by the uploads' observed_at", async () => {
    const p = randomUUID();
    const long = new Date(Date.now() - 48 * 3_600_000).toISOString();
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: bearer(client),
      payload: modBatch({ uuid: p, username: 'Clock', stats: [{ key: PLAY_TIME, value: 0 }], observedAt: long }),
    });
    expect(res.statusCode).toBe(200);
    // Arrived an hour ago by the service's clock; the client claims 48 hours between its observations.
    await backdate(p, 3_600_000);
    await upload(p, 'Clock', [{ key: PLAY_TIME, value: 40 * H }]);
    expect(await stored(p, PLAY_TIME)).toBe(0);
    // 1.1 h allowed (and a few ticks for the seconds the test takes).
    await upload(p, 'Clock', [{ key: PLAY_TIME, value: 1.1 * H - 100 }]);
    expect(await stored(p, PLAY_TIME)).toBe(1.1 * H - 100);
    await backdate(p, 3_600_000);
    await upload(p, 'Clock', [{ key: PLAY_TIME, value: 1.1 * H - 100 + 1.1 * H + 500 }]);
    expect(await stored(p, PLAY_TIME)).toBe(1.1 * H - 100);
    expect((await itemOf(p))?.items.at(-1)?.rule).toBe('rate');
  });

  it('follows the max_per_hour an admin sets (null: no limit), shown by GET /admin/stats', async () => {
    const key = 'minecraft.custom:minecraft.jump';
    const p = randomUUID();
    await upload(p, 'Jumper', [{ key, value: 1 }]);
    const list = await t.browsers.readonly.app('GET', '/api/v1/admin/stats');
    expect(
      (list.json() as { data: { key: string; max_per_hour: number | null }[] }).data.find((d) => d.key === key),
    ).toMatchObject({ max_per_hour: H });
    const put = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${key}`, { body: { max_per_hour: null } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.max_per_hour).toBeNull();
    await upload(p, 'Jumper', [{ key, value: 1e9 }]);
    expect(await stored(p, key)).toBe(1e9);
    const bad = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${key}`, { body: { max_per_hour: -1 } });
    expect(bad.statusCode).toBe(422);
  });
});

describe('above_verified', () => {
  it("holds a value above the server's verified one by more than the allowance, and names it before rate", async () => {
    const p = randomUUID();
    await upload(p, 'Verified', [{ key: PLAY_TIME, value: 1_000 }]);
    // What the agent (or an import) vouched for: 500, just now.
    await w.db.db.query(
      `INSERT INTO verified_stats (season_id, server_id, stat_id, player_id, value, received_at)
       SELECT $1, $2, d.id, p.id, 500, now() FROM stat_definitions d, players p
       WHERE d.workspace_id = $3 AND d.key = $4 AND p.uuid = $5`,
      [t.seasonId, t.serverId, t.workspaceId, PLAY_TIME, p],
    );
    await w.bus.publish({ topic: 'values', workspaceId: t.workspaceId, players: [p] });
    // Within the rate from 1,000 (+7,200), but above 500 + 7,200.
    await upload(p, 'Verified', [{ key: PLAY_TIME, value: 8_100 }]);
    expect(await stored(p, PLAY_TIME)).toBe(1_000);
    expect((await itemOf(p))?.items[0]).toMatchObject({ rule: 'above_verified', previous_value: 500 });
    // Both rules hold: the item names above_verified.
    await upload(p, 'Verified', [{ key: PLAY_TIME, value: 1e8 }]);
    expect((await itemOf(p))?.items[0]).toMatchObject({ rule: 'above_verified', value: 1e8 });
    await w.db.db.query('DELETE FROM verified_stats');
    await w.bus.publish({ topic: 'values', workspaceId: t.workspaceId });
  });
});

describe('first_sight', () => {
  it('holds a newcomer straight into the top 10 of a board of 20 players; below it, or equal, is stored', async () => {
    const key = 'minecraft.mined:minecraft.dirt';
    for (let i = 0; i < 20; i++) await upload(randomUUID(), `Digger${i}`, [{ key, value: 10 + i }]);
    const [top, tenth, below] = [randomUUID(), randomUUID(), randomUUID()];
    await upload(top, 'Newcomer', [{ key, value: 1_000 }]);
    await upload(tenth, 'Equal', [{ key, value: 20 }]);
    await upload(below, 'Modest', [{ key, value: 15 }]);
    expect(await stored(top, key)).toBeUndefined();
    expect((await itemOf(top))?.items[0]).toMatchObject({
      stat: key,
      rule: 'first_sight',
      previous_value: null,
      allowed: null,
    });
    expect(await stored(tenth, key)).toBe(20);
    expect(await stored(below, key)).toBe(15);
  });

  it('does not watch a board of fewer than 20 players, and ranks an ascending board lowest first', async () => {
    // 19 players: a newcomer far above them all is stored.
    const small = 'minecraft.mined:minecraft.gravel';
    for (let i = 0; i < 19; i++) await upload(randomUUID(), `Shoveller${i}`, [{ key: small, value: 10 + i }]);
    const first = randomUUID();
    await upload(first, 'FirstGravel', [{ key: small, value: 1_000_000 }]);
    expect(await stored(first, small)).toBe(1_000_000);
    // An ascending board of 20 (10 to 29: the 10th best is 19): under 19 is held, 19 or over is stored.
    const asc = 'minecraft.custom:minecraft.time_since_death';
    for (let i = 0; i < 20; i++) await upload(randomUUID(), `Runner${i}`, [{ key: asc, value: 10 + i }]);
    const put = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(asc)}`, {
      body: { sort_order: 'asc' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const [fastest, equal, slow] = [randomUUID(), randomUUID(), randomUUID()];
    await upload(fastest, 'Fastest', [{ key: asc, value: 1 }]);
    await upload(equal, 'EqualRunner', [{ key: asc, value: 19 }]);
    await upload(slow, 'SlowRunner', [{ key: asc, value: 1_000 }]);
    expect(await stored(fastest, asc)).toBeUndefined();
    expect((await itemOf(fastest))?.items[0]).toMatchObject({ stat: asc, rule: 'first_sight' });
    expect(await stored(equal, asc)).toBe(19);
    expect(await stored(slow, asc)).toBe(1_000);
  });
});

describe('first_sight in a season that counts gains', () => {
  it('ranks a newcomer by the gain it would count: none without an earlier value, else above it', async () => {
    const ws = await w.services.workspaces.create(ACTOR, { name: 'Gains' });
    await w.services.servers.create(ACTOR, ws.id, { hostname: 'mc.example.com', port: 25565 });
    await w.services.seasons.create(ACTOR, ws.id, { name: 'One', slug: 'one', active: true });
    const mod = (await w.services.keys.create(ACTOR, ws.id, { name: 'mod', type: 'client', scopes: ['ingest:write'] }))
      .secret;
    const key = 'minecraft.mined:minecraft.sand';
    const [returning, modest, fresh] = [randomUUID(), randomUUID(), randomUUID()];
    // Last season: two players known on the server.
    await upload(returning, 'Returning', [{ key, value: 1_000_000 }], mod);
    await upload(modest, 'Modest', [{ key, value: 1_000 }], mod);
    await w.services.seasons.create(ACTOR, ws.id, { name: 'Two', slug: 'two', active: true, scoring: 'gains' });
    // A board of 20 players who gained 1 to 20: the 10th gained 11.
    for (let i = 0; i < 20; i++) {
      const u = randomUUID();
      await upload(u, `Gainer${i}`, [{ key, value: 5_000 }], mod);
      await upload(u, `Gainer${i}`, [{ key, value: 5_001 + i }], mod);
    }
    // No earlier value: the first one is the baseline, a gain of 0, however large the value.
    await upload(fresh, 'Fresh', [{ key, value: 2_000_000 }], mod);
    // 5 above last season's value: not in the top 10.
    await upload(modest, 'Modest', [{ key, value: 1_005 }], mod);
    // 50 above last season's value: straight into the top 10.
    await upload(returning, 'Returning', [{ key, value: 1_000_050 }], mod);
    const held = await w.db.db.query<{ player_uuid: string; rule: string; value: number }>(
      `SELECT r.player_uuid::text AS player_uuid, v.rule, v.value FROM review_items r
       JOIN review_values v ON v.item_id = r.id WHERE r.workspace_id = $1`,
      [ws.id],
    );
    expect(held).toEqual([{ player_uuid: returning, rule: 'first_sight', value: 1_000_050 }]);
    const season = await w.db.db.query<{ id: string }>(
      "SELECT id FROM seasons WHERE workspace_id = $1 AND slug = 'two'",
      [ws.id],
    );
    const values = await w.db.db.query<{ uuid: string; value: number }>(
      `SELECT p.uuid::text AS uuid, s.value FROM player_stats s JOIN players p ON p.id = s.player_id
       WHERE s.season_id = $1 AND p.uuid = ANY($2::uuid[]) ORDER BY s.value`,
      [season[0]!.id, `{${[returning, modest, fresh].join(',')}}`],
    );
    expect(values).toEqual([
      { uuid: modest, value: 1_005 },
      { uuid: fresh, value: 2_000_000 },
    ]);
  });
});

describe('rename', () => {
  it('lets a username change once, and holds a second change within 30 days', async () => {
    const p = randomUUID();
    await upload(p, 'First', [{ key: PLAY_TIME, value: 1 }]);
    await upload(p, 'Second', [{ key: PLAY_TIME, value: 2 }]);
    await upload(p, 'Third', [{ key: PLAY_TIME, value: 3 }]);
    const player = await w.app.inject({ method: 'GET', url: `/api/v1/players/${p}`, headers: bearer(reader) });
    expect(player.json().username).toBe('Second');
    expect(await stored(p, PLAY_TIME)).toBe(3);
    expect((await itemOf(p))?.items).toEqual([
      expect.objectContaining({ stat: null, rule: 'rename', previous_value: 'Second', value: 'Third', allowed: null }),
    ]);
  });
});

describe('new statistics', () => {
  it('client uploads create at most 50 a day; values of further new ones are dropped and counted as STAT_LIMIT', async () => {
    const made = await w.db.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stat_definitions WHERE workspace_id = $1 AND from_client
       AND created_at >= date_trunc('day', now(), 'UTC')`,
      [t.workspaceId],
    );
    const room = 50 - made[0]!.n;
    const p = randomUUID();
    const stats = Array.from({ length: 60 }, (_, i) => ({ key: `flood:k${String(i).padStart(2, '0')}`, value: i }));
    await upload(p, 'Flooder', stats);
    const defs = await w.db.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM stat_definitions WHERE workspace_id = $1 AND key LIKE 'flood:%'",
      [t.workspaceId],
    );
    expect(defs[0]!.n).toBe(room);
    expect(await stored(p, 'flood:k00')).toBe(0);
    expect(await stored(p, 'flood:k59')).toBeUndefined();
    await w.services.flush();
    const res = await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections?per_page=100');
    const limit = (res.json() as { data: { code: string; count: number; player_uuid: string | null }[] }).data.filter(
      (g) => g.code === 'STAT_LIMIT',
    );
    expect(limit).toEqual([expect.objectContaining({ count: 60 - room, player_uuid: p })]);
    // A statistic the workspace has is not new: its values are stored as ever.
    await upload(p, 'Flooder', [{ key: 'flood:k00', value: 9 }]);
    expect(await stored(p, 'flood:k00')).toBe(9);
    // The game's own statistics are not invented keys: a first session sends hundreds of them, all stored, even
    // past the day's limit.
    const q = randomUUID();
    const blocks = ['stone', 'dirt', 'oak_log', 'sand', 'gravel', 'cobblestone', 'granite', 'diorite', 'andesite'];
    const game = blocks.map((b, i) => ({ key: `minecraft.broken:minecraft.${b}`, value: i + 1 }));
    await upload(q, 'Newcomer', [...game, { key: 'minecraft.mined:minecraft.not_a_block', value: 1 }]);
    for (const g of game) expect(await stored(q, g.key)).toBe(g.value);
    expect(await stored(q, 'minecraft.mined:minecraft.not_a_block')).toBeUndefined();
  });
});

describe('new statistics of other uploads', () => {
  it("are not counted against the client uploads' day: an integration key's batch, the agent's", async () => {
    const integration = (
      await w.services.keys.create(ACTOR, t.workspaceId, {
        name: 'tool',
        type: 'integration',
        scopes: ['ingest:write'],
      })
    ).secret;
    const p = randomUUID();
    await upload(p, 'Tooled', [{ key: 'tool:made', value: 1 }], integration);
    expect(await stored(p, 'tool:made')).toBe(1);
    const rows = await w.db.db.query<{ from_client: boolean }>(
      'SELECT from_client FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
      [t.workspaceId, 'tool:made'],
    );
    expect(rows).toEqual([{ from_client: false }]);
  });
});

describe('review', () => {
  it('approve stores the held values still the newest (reads follow at once), reject discards; 409 when not open', async () => {
    const p = randomUUID();
    const q = randomUUID();
    for (const [u, n] of [
      [p, 'Approved'],
      [q, 'Rejected'],
    ] as const) {
      await upload(u, n, [{ key: PLAY_TIME, value: 10 }]);
      await upload(u, n, [{ key: PLAY_TIME, value: 99 * H }]);
    }
    const read = async (u: string) =>
      (
        (await w.app.inject({ method: 'GET', url: `/api/v1/players/${u}/stats`, headers: bearer(reader) })).json() as {
          stats: { key: string; value: number }[];
        }
      ).stats.find((s) => s.key === PLAY_TIME)?.value;
    expect(await read(p)).toBe(10);
    const me = async () => (await t.browsers.admin.app('GET', '/api/v1/admin/me')).json().open_reviews as number;
    const before = await me();

    const pItem = (await itemOf(p))!;
    const qItem = (await itemOf(q))!;
    expectError(await t.browsers.analyst.app('POST', `/api/v1/admin/review/${pItem.id}/approve`), 403, 'FORBIDDEN');
    const approved = await t.browsers.admin.app('POST', `/api/v1/admin/review/${pItem.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ stored: 1, item: { id: pItem.id, status: 'approved' } });
    expect(await read(p)).toBe(99 * H);
    expectError(await t.browsers.admin.app('POST', `/api/v1/admin/review/${pItem.id}/approve`), 409, 'CONFLICT');
    expectError(await t.browsers.admin.app('POST', `/api/v1/admin/review/${pItem.id}/reject`), 409, 'CONFLICT');

    const rejected = await t.browsers.admin.app('POST', `/api/v1/admin/review/${qItem.id}/reject`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await stored(q, PLAY_TIME)).toBe(10);
    expectError(await t.browsers.admin.app('POST', `/api/v1/admin/review/${qItem.id}/approve`), 409, 'CONFLICT');
    expectError(await t.browsers.admin.app('POST', `/api/v1/admin/review/${randomUUID()}/approve`), 404, 'NOT_FOUND');

    expect(await me()).toBe(before - 2);
    expect((await itemOf(p, 'approved'))?.status).toBe('approved');
    expect((await itemOf(q, 'rejected'))?.status).toBe('rejected');
    // Later uploads compare with the approved value.
    await upload(p, 'Approved', [{ key: PLAY_TIME, value: 99 * H + 10 }]);
    expect(await stored(p, PLAY_TIME)).toBe(99 * H + 10);

    const audit = await t.browsers.admin.app('GET', '/api/v1/admin/audit-log?per_page=5');
    const summaries = (audit.json().data as { action: string; summary: string }[]).map((a) => [a.action, a.summary]);
    expect(summaries.slice(0, 2)).toEqual([
      ['REVIEW_REJECTED', 'Rejected the 1 held value of Rejected: discarded'],
      ['REVIEW_APPROVED', 'Approved the 1 held value of Approved: stored'],
    ]);
  });

  it('approving a held rename gives the player the new name while the old one is still theirs', async () => {
    const p = randomUUID();
    await upload(p, 'One', [{ key: PLAY_TIME, value: 1 }]);
    await upload(p, 'Two', [{ key: PLAY_TIME, value: 1 }]);
    await upload(p, 'Three', [{ key: PLAY_TIME, value: 1 }]);
    const item = (await itemOf(p))!;
    const res = await t.browsers.admin.app('POST', `/api/v1/admin/review/${item.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const player = await w.app.inject({ method: 'GET', url: `/api/v1/players/${p}`, headers: bearer(reader) });
    expect(player.json().username).toBe('Three');
  });

  it('approve stores only what is still the newest: a value stored after the hold wins; boards follow at once', async () => {
    const sneak = 'minecraft.custom:minecraft.sneak_time';
    const p = randomUUID();
    await upload(p, 'Late', [
      { key: PLAY_TIME, value: 10 },
      { key: sneak, value: 10 },
    ]);
    await upload(p, 'Late', [
      { key: PLAY_TIME, value: 300 * H },
      { key: sneak, value: 300 * H },
    ]);
    // Observed after the hold and stored (a drop is never held): the held sneak_time is no longer the newest.
    await upload(p, 'Late', [{ key: sneak, value: 5 }]);
    const board = async () => {
      const res = await w.app.inject({
        method: 'GET',
        url: `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&limit=1`,
        headers: bearer(reader),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { entries: { player: { uuid: string }; value: number }[] }).entries[0];
    };
    // Read once, so a cached board would answer the next read.
    expect((await board())?.player.uuid).not.toBe(p);
    const item = (await itemOf(p))!;
    expect(item.items.map((i) => [i.stat, i.value])).toEqual([
      [PLAY_TIME, 300 * H],
      [sneak, 300 * H],
    ]);
    const res = await t.browsers.admin.app('POST', `/api/v1/admin/review/${item.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ stored: 1, item: { status: 'approved' } });
    expect(await stored(p, PLAY_TIME)).toBe(300 * H);
    expect(await stored(p, sneak)).toBe(5);
    expect(await board()).toMatchObject({ player: { uuid: p }, value: 300 * H });
    const rank = await w.app.inject({
      method: 'GET',
      url: `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&player=${p}&around=0`,
      headers: bearer(reader),
    });
    expect(rank.json()).toMatchObject({ entry: { rank: 1, value: 300 * H } });
  });

  it('concurrent uploads for the same server and player open one item, announced once', async () => {
    const p = randomUUID();
    await upload(p, 'Racer', [{ key: PLAY_TIME, value: 1 }]);
    await w.services.webhooks.create(ACTOR, t.workspaceId, { url: 'http://127.0.0.1:9/held', events: ['ingest.held'] });
    try {
      await Promise.all([1, 2, 3, 4, 5].map((n) => upload(p, 'Racer', [{ key: PLAY_TIME, value: n * 100 * H }])));
      const open = (await items()).filter((i) => i.player.uuid === p);
      expect(open).toHaveLength(1);
      expect(open[0]!.uploads).toBe(5);
      expect(open[0]!.items).toHaveLength(1);
      const announced = await w.db.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_messages WHERE type = 'ingest.held' AND data->'player'->>'uuid' = $1`,
        [p],
      );
      expect(announced[0]!.n).toBe(1);
    } finally {
      await w.db.db.query('DELETE FROM webhooks');
    }
  });

  it('erasing the player removes their review item: it is no longer listed, counted or decided', async () => {
    const p = randomUUID();
    await upload(p, 'Erased', [{ key: PLAY_TIME, value: 1 }]);
    await upload(p, 'Erased', [{ key: PLAY_TIME, value: 100 * H }]);
    const item = (await itemOf(p))!;
    const me = async () => (await t.browsers.admin.app('GET', '/api/v1/admin/me')).json().open_reviews as number;
    const before = await me();
    const erased = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${p}`);
    expect(erased.statusCode, erased.body).toBe(204);
    expect(await itemOf(p)).toBeUndefined();
    expect(await me()).toBe(before - 1);
    expectError(await t.browsers.admin.app('POST', `/api/v1/admin/review/${item.id}/approve`), 404, 'NOT_FOUND');
    expect(await stored(p, PLAY_TIME)).toBeUndefined();
  });

  it('refuses a bad status or page with 422', async () => {
    expect((await t.browsers.admin.app('GET', '/api/v1/admin/review?status=maybe')).statusCode).toBe(422);
    expect((await t.browsers.admin.app('GET', '/api/v1/admin/review?per_page=0')).statusCode).toBe(422);
  });
});

describe('verified uploads', () => {
  it('are never held: the agent may raise any value at once and rename a player freely', async () => {
    const agent = (
      await w.services.keys.create(ACTOR, t.workspaceId, {
        name: 'agent',
        type: 'integration',
        scopes: ['ingest:server'],
        server_restrictions: [t.serverId],
      })
    ).secret;
    const p = randomUUID();
    const send = async (username: string, value: number) => {
      const res = await w.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/server',
        headers: bearer(agent),
        payload: { observed_at: observed(), players: [{ uuid: p, username, stats: [{ key: PLAY_TIME, value }] }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await send('Agent1', 1);
    await send('Agent2', 500 * H);
    await send('Agent3', 900 * H);
    expect(await stored(p, PLAY_TIME)).toBe(900 * H);
    const player = await w.app.inject({ method: 'GET', url: `/api/v1/players/${p}`, headers: bearer(reader) });
    expect(player.json().username).toBe('Agent3');
    expect(await itemOf(p)).toBeUndefined();
  });
});

describe('announcements', () => {
  it('sends ingest.held to a real receiver when an item opens, and no leader_changed for a held value', async () => {
    // A statistic the workspace has (the day's new ones are used up above); the held value would lead its board.
    const key = PLAY_TIME;
    const p = randomUUID();
    await upload(p, 'Fisher', [{ key, value: 1 }]);
    const r = new Receiver();
    await r.start();
    const { secret } = await w.services.webhooks.create(ACTOR, t.workspaceId, {
      url: r.url,
      events: ['ingest.held', 'leaderboard.leader_changed', 'player.first_seen'],
    });
    const d = new WebhookDispatcher(w.db.db, w.services.outbox, {
      timeoutMs: 1_000,
      allowPrivate: true,
      retryDelaysMs: [50],
      pollMs: 25,
      log: { info: () => undefined, warn: () => undefined },
    });
    d.start();
    try {
      await upload(p, 'Fisher', [{ key, value: 1e12 }]);
      await upload(p, 'Fisher', [{ key, value: 2e12 }]);
      await r.until(() => r.accepted.length >= 1);
      await new Promise((done) => setTimeout(done, 300));
      const events = r.accepted.map(
        (x) =>
          new StandardWebhook(secret).verify(x.body, x.headers) as {
            type: string;
            data: { player: { uuid: string }; values: { stat: string; rule: string }[] };
          },
      );
      expect(events.map((e) => e.type)).toEqual(['ingest.held']);
      expect(events[0]!.data).toMatchObject({ player: { uuid: p }, values: [{ stat: key, rule: 'rate' }] });
    } finally {
      await d.stop();
      await r.stop();
      await w.db.db.query('DELETE FROM webhooks');
    }
  });

  it('counts held values by rule in statboard_ingest_held_values_total', async () => {
    const metrics = new Metrics();
    const stage = new ScreeningStage(w.db.db, null, metrics, 0);
    const p = randomUUID();
    await upload(p, 'Counted', [{ key: PLAY_TIME, value: 1 }]);
    const input = {
      workspaceId: t.workspaceId,
      seasonId: t.seasonId,
      serverId: t.serverId,
      keyId: t.clientKeyId,
      uuid: p,
      username: 'Counted',
      observedAt: new Date(),
      stats: [{ key: PLAY_TIME, value: 1e9 }],
    };
    const screened = await stage.screen(input);
    expect(screened.held.map((h) => h.rule)).toEqual(['rate']);
    await stage.record(input, screened.held);
    const text = await metrics.registry.getSingleMetricAsString('statboard_ingest_held_values_total');

    expect(text).toContain('statboard_ingest_held_values_total{rule="rate"} 1');
    expect(text).toContain('statboard_ingest_held_values_total{rule="first_sight"} 0');
  });

  it('warns when one client key sends values for more than 100 players in an hour', async () => {
    const k = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'leaked',
      type: 'client',
      scopes: ['ingest:write'],
    });
    for (let i = 0; i < 101; i++)
      await upload(randomUUID(), `Shared${i}`, [{ key: 'minecraft.custom:minecraft.jump', value: 1 }], k.secret);
    await w.services.flush();
    const res = await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections?per_page=100');
    const shared = (
      res.json() as { data: { code: string; key: { name: string } | null; message: string }[] }
    ).data.filter((g) => g.code === 'SHARED_KEY');
    expect(shared).toEqual([expect.objectContaining({ key: expect.objectContaining({ name: 'leaked' }) })]);
    expect(shared[0]!.message).toMatch(/more than 100 players/);
  });

  it("counts a key's hour from its first player, so a burst across the clock's turn of the hour is one hour", async () => {
    let clock = Date.UTC(2026, 10, 30, 17, 59, 30);
    const stage = new ScreeningStage(w.db.db, null, null, 0, () => clock);
    const keyId = randomUUID();
    const screen = (i: number) =>
      stage.screen({
        workspaceId: t.workspaceId,
        seasonId: t.seasonId,
        serverId: t.serverId,
        keyId,
        uuid: randomUUID(),
        username: `Burst${i}`,
        observedAt: new Date(clock),
        stats: [{ key: 'minecraft.custom:minecraft.jump', value: 1 }],
      });
    const warned: boolean[] = [];
    for (let i = 0; i < 101; i++) {
      if (i === 60) clock += 60_000; // 18:00:30
      warned.push((await screen(i)).sharedKey);
    }
    expect(warned.indexOf(true)).toBe(100);
    // An hour after the first player, the count starts again.
    clock = Date.UTC(2026, 10, 30, 18, 59, 30);
    expect((await screen(101)).sharedKey).toBe(false);
  });
});
