import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Screened, ScreeningStage } from '#src/modules/screening/stage.ts';
import { ACTOR, bearer, DB_KIND, modBatch } from '../helpers.ts';
import { buildTeam, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

// The screening stage keeps what it read of known players in memory (modules/screening/memory.ts), so that their
// next uploads read nothing. Its decisions are the ones a read of the database would make: after values stored
// through it, corrections, erasures, the agent's verified values, imports, approved reviews, and writes by
// another instance. Each case compares the stage from memory with the same stage reading the database, at the
// same instant, and shows the upload through the route.

const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
const H = 72_000; // the default max_per_hour of a time in ticks

let w: World;
let t: Team;
let client: string;
let agent: string;
let tool: string;

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  const key = (name: string, type: 'client' | 'integration', scopes: string[], servers?: string[]) =>
    w.services.keys
      .create(ACTOR, t.workspaceId, { name, type, scopes, ...(servers ? { server_restrictions: servers } : {}) })
      .then((k) => k.secret);
  client = await key('mod', 'client', ['ingest:write']);
  agent = await key('agent', 'integration', ['ingest:server'], [t.serverId]);
  tool = await key('tool', 'integration', ['ingest:write']);
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

async function upload(uuid: string, value: number, token = client, app = w.app): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(token),
    payload: modBatch({
      uuid,
      username: `P${uuid.slice(0, 4)}`,
      stats: [{ key: PLAY_TIME, value }],
      observedAt: observed(),
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function stored(uuid: string): Promise<number | undefined> {
  const rows = await w.db.db.query<{ value: number }>(
    `SELECT s.value FROM server_stats s JOIN players p ON p.id = s.player_id
     JOIN stat_definitions d ON d.id = s.stat_id WHERE p.uuid = $1 AND d.key = $2`,
    [uuid, PLAY_TIME],
  );
  return rows[0]?.value;
}

const memory = () => w.services.screening.memory!;
const held = (uuid: string) => memory().holds(t.workspaceId, t.seasonId, t.serverId, uuid);

/** A known player: two uploads, the second read (and kept) by screening. */
async function known(value: number): Promise<string> {
  const p = randomUUID();
  await upload(p, value);
  await upload(p, value + 1);
  expect(held(p)).toBe(true);
  return p;
}

/**
 * Screens `value` as the player's next upload from memory (which must hold every fact of it: no read) and by a
 * stage that reads the database, at the same instant: the decisions must be the same. Returns them.
 */
async function judgedAlike(uuid: string, value: number): Promise<Screened> {
  const at = Date.now();
  const input = {
    workspaceId: t.workspaceId,
    seasonId: t.seasonId,
    serverId: t.serverId,
    keyId: 'k',
    uuid,
    username: `P${uuid.slice(0, 4)}`,
    observedAt: new Date(at),
    stats: [{ key: PLAY_TIME, value }],
  };
  expect(memory().recall(t.workspaceId, t.seasonId, t.serverId, uuid, [PLAY_TIME]), 'held in memory').toBeDefined();
  const fromMemory = await new ScreeningStage(w.db.db, null, null, 50, () => at, memory()).screen(input);
  const fromDatabase = await new ScreeningStage(w.db.db, null, null, 50, () => at).screen(input);
  expect(fromMemory).toEqual(fromDatabase);
  return fromMemory;
}

describe(`screening from memory (${DB_KIND})`, () => {
  it('judges as the database after values stored through it: a rate hold counts from the stored value and time', async () => {
    const p = await known(1_000);
    expect((await judgedAlike(p, 1_001 + 0.05 * H)).held).toEqual([]);
    await upload(p, 1_001 + 0.05 * H);
    expect(await stored(p)).toBe(1_001 + 0.05 * H);
    const rate = await judgedAlike(p, 1_001 + 5 * H);
    expect(rate.held).toMatchObject([{ rule: 'rate', previous_value: 1_001 + 0.05 * H }]);
    // The time of arrival is the database's own, to the millisecond.
    const [row] = await w.db.db.query<{ at: string }>(
      `SELECT to_json(s.updated_at) #>> '{}' AS at FROM server_stats s JOIN players p ON p.id = s.player_id
       WHERE p.uuid = $1`,
      [p],
    );
    expect(rate.held[0]!.previous_at).toBe(new Date(row!.at).toISOString());
    await upload(p, 1_001 + 5 * H);
    expect(await stored(p)).toBe(1_001 + 0.05 * H);
    // A late observation is refused by the writer, and by the memory.
    const late = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: bearer(tool),
      payload: modBatch({
        uuid: p,
        username: `P${p.slice(0, 4)}`,
        stats: [{ key: PLAY_TIME, value: 5 }],
        observedAt: late,
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(await stored(p)).toBe(1_001 + 0.05 * H);
    expect((await judgedAlike(p, 1_001 + 0.1 * H)).held).toEqual([]);
  });

  it('judges an upload after a correction (a removed value) against the corrected values', async () => {
    const p = await known(1_000);
    const res = await t.browsers.admin.app(
      'DELETE',
      `/api/v1/admin/players/${p}/stats?season=s1&stat=${encodeURIComponent(PLAY_TIME)}`,
    );
    expect(res.json()).toEqual({ data: { values_removed: 1 } });
    expect(held(p)).toBe(false);
    // Nothing to rise from: stored (from memory, it would have been held by `rate`).
    await upload(p, 1_000 + 40 * H);
    expect(await stored(p)).toBe(1_000 + 40 * H);
  });

  it('judges an upload after an erasure as a newcomer', async () => {
    const p = await known(1_000);
    const res = await t.browsers.owner.app('DELETE', `/api/v1/admin/players/${p}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(held(p)).toBe(false);
    await upload(p, 1_000 + 40 * H);
    expect(await stored(p)).toBe(1_000 + 40 * H);
  });

  it("sees the agent's verified values (POST /ingest/server) at the next client upload", async () => {
    const p = await known(1_000);
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/server',
      headers: bearer(agent),
      payload: { observed_at: observed(), players: [{ uuid: p, stats: [{ key: PLAY_TIME, value: 500 }] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Followed, not dropped: from memory, and judged as the database does.
    const screened = await judgedAlike(p, 8_100);
    expect(screened.held).toMatchObject([{ rule: 'above_verified', previous_value: 500 }]);
  });

  it('sees the verified values of an import at the next client upload', async () => {
    const p = await known(1_000);
    const server = await mkdtemp(join(tmpdir(), 'statboard-memory-'));
    try {
      const world = join(server, 'world');
      await mkdir(join(world, 'stats'), { recursive: true });
      const file = join(world, 'stats', `${p}.json`);
      await writeFile(file, JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:play_time': 500 } } }));
      const now = new Date();
      await utimes(file, now, now);
      const result = await w.services.imports.importWorld(ACTOR, t.workspaceId, {
        season: 's1',
        world,
        server: t.serverId,
      });
      expect(result.values).toBe(1);
    } finally {
      await rm(server, { recursive: true, force: true });
    }
    expect(held(p)).toBe(false);
    await upload(p, 5);
    expect(held(p)).toBe(true);
    expect((await judgedAlike(p, 8_100)).held).toMatchObject([{ rule: 'above_verified', previous_value: 500 }]);
  });

  it('follows a held value approved in review', async () => {
    const p = await known(1_000);
    await upload(p, 1_000 + 40 * H);
    const items = (await t.browsers.admin.app('GET', '/api/v1/admin/review?status=open&per_page=100')).json() as {
      data: { id: string; player: { uuid: string } }[];
    };
    const item = items.data.find((i) => i.player.uuid === p)!;
    const approved = await t.browsers.admin.app('POST', `/api/v1/admin/review/${item.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await stored(p)).toBe(1_000 + 40 * H);
    expect((await judgedAlike(p, 1_000 + 40 * H + 100)).held).toEqual([]);
    expect((await judgedAlike(p, 1_000 + 80 * H)).held).toMatchObject([{ previous_value: 1_000 + 40 * H }]);
  });

  it('sees a value written through another instance', async () => {
    const other = await w.instance();
    const p = await known(1_000);
    await upload(p, 1_000 + 40 * H, tool, other.app);
    expect(await stored(p)).toBe(1_000 + 40 * H);
    expect((await judgedAlike(p, 1_000 + 40 * H + 100)).held).toEqual([]);
    await upload(p, 1_000 + 40 * H + 100);
    expect(await stored(p)).toBe(1_000 + 40 * H + 100);
  });

  it('forgets what it read when the season changes or its scoring switches', async () => {
    const p = await known(1_000);
    const res = await t.browsers.owner.app('PUT', `/api/v1/admin/seasons/${t.seasonId}`, {
      body: { scoring: 'gains' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(held(p)).toBe(false);
    const back = await t.browsers.owner.app('PUT', `/api/v1/admin/seasons/${t.seasonId}`, {
      body: { scoring: 'absolute' },
    });
    expect(back.statusCode, back.body).toBe(200);
  });
});
