import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { expectError, expectInvalid } from '../http/support.ts';
import { buildTeam, PLAYER_UUID, STAT_KEY, type Team } from './support/team.ts';
import { type AppInstance, createWorld, type World } from './support/world.ts';

// Statistics people can read: `unit` and `display_name` in `GET /stats` and the admin list, defaults from the
// game's own names, overrides by `PUT /admin/stats/{key or id}`, and the cached `GET /stats` following at once.

const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
const WALKED = 'minecraft.custom:minecraft.walk_one_cm';
const DAMAGE = 'minecraft.custom:minecraft.damage_taken';
const ZOMBIES = 'minecraft.killed:minecraft.zombie';
const MOD = 'mymod.custom:mymod.souls';

interface Definition {
  id: string;
  key: string;
  display_name: string;
  display_name_is_default: boolean;
  unit: string;
  unit_is_default: boolean;
}

let w: World;
let t: Team;
let other: AppInstance;
let reader = '';

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  // A second instance on the same database: its cached `GET /stats` must follow a change made on the first.
  other = await w.instance();
  const client = await w.services.keys.create(ACTOR, t.workspaceId, {
    name: 'mod 2',
    type: 'client',
    scopes: ['ingest:write'],
  });
  const stats = [PLAY_TIME, WALKED, DAMAGE, ZOMBIES, MOD].map((key) => ({ key, value: 144_000 }));
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(client.secret),
    payload: modBatch({ uuid: PLAYER_UUID, stats }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await w.services.flush();
  reader = (
    await w.services.keys.create(ACTOR, t.workspaceId, { name: 'site 2', type: 'website', scopes: ['stats:read'] })
  ).secret;
});
afterAll(async () => {
  await w?.close();
});

async function publicStats(on: AppInstance = w): Promise<Record<string, unknown>[]> {
  const res = await on.app.inject({ url: '/api/v1/stats', headers: bearer(reader) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Record<string, unknown>[] }).data;
}

async function adminList(): Promise<Definition[]> {
  const res = await t.browsers.readonly.app('GET', '/api/v1/admin/stats');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Definition[] }).data;
}

describe('GET /api/v1/stats', () => {
  it("shows the game's names and units by default, and other namespaces' keys as names", async () => {
    expect(await publicStats()).toEqual([
      { key: DAMAGE, display_name: 'Damage Taken', category: 'minecraft.custom', sort_order: 'desc', unit: 'damage' },
      { key: PLAY_TIME, display_name: 'Time Played', category: 'minecraft.custom', sort_order: 'desc', unit: 'ticks' },
      { key: WALKED, display_name: 'Distance Walked', category: 'minecraft.custom', sort_order: 'desc', unit: 'cm' },
      { key: ZOMBIES, display_name: 'Zombie Kills', category: 'minecraft.killed', sort_order: 'desc', unit: 'count' },
      { key: STAT_KEY, display_name: 'Stone Mined', category: 'minecraft.mined', sort_order: 'desc', unit: 'count' },
      { key: MOD, display_name: MOD, category: 'mymod.custom', sort_order: 'desc', unit: 'count' },
    ]);
  });
});

describe('GET /api/v1/admin/stats', () => {
  it('shows the effective name and unit, and that they are defaults', async () => {
    const play = (await adminList()).find((d) => d.key === PLAY_TIME);
    expect(play).toMatchObject({
      display_name: 'Time Played',
      display_name_is_default: true,
      unit: 'ticks',
      unit_is_default: true,
    });
  });
});

describe('PUT /api/v1/admin/stats/{key}', () => {
  it('sets a name and a unit; GET /stats on every instance shows them at once', async () => {
    // Both instances have cached the answer.
    await publicStats();
    await publicStats(other);
    const res = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(MOD)}`, {
      body: { display_name: 'Souls Collected', unit: 'ticks' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Definition }).data).toMatchObject({
      key: MOD,
      display_name: 'Souls Collected',
      display_name_is_default: false,
      unit: 'ticks',
      unit_is_default: false,
    });
    for (const on of [w, other]) {
      expect((await publicStats(on)).find((s) => s.key === MOD)).toMatchObject({
        display_name: 'Souls Collected',
        unit: 'ticks',
      });
    }
    expect((await adminList()).find((d) => d.key === MOD)).toMatchObject({
      display_name: 'Souls Collected',
      unit_is_default: false,
    });
  });

  it('takes the id in place of the key', async () => {
    const id = (await adminList()).find((d) => d.key === WALKED)!.id;
    const res = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${id}`, { body: { unit: 'count' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Definition }).data).toMatchObject({ key: WALKED, unit: 'count' });
    expect((await publicStats()).find((s) => s.key === WALKED)).toMatchObject({ unit: 'count' });
    expectError(
      await t.browsers.analyst.app('PUT', '/api/v1/admin/stats/7c9e6679-7425-40de-944b-e07fc1f90ae7', { body: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('goes back to the defaults with null (or a blank name), and keeps omitted fields', async () => {
    const keep = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(MOD)}`, {
      body: { sort_order: 'asc' },
    });
    expect((keep.json() as { data: Definition }).data).toMatchObject({
      display_name: 'Souls Collected',
      unit: 'ticks',
    });
    const res = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(MOD)}`, {
      body: { display_name: '  ', unit: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Definition }).data).toMatchObject({
      display_name: MOD,
      display_name_is_default: true,
      unit: 'count',
      unit_is_default: true,
    });
    const named = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(PLAY_TIME)}`, {
      body: { display_name: 'Play time' },
    });
    expect((named.json() as { data: Definition }).data.display_name).toBe('Play time');
    const reset = await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(PLAY_TIME)}`, {
      body: { display_name: null },
    });
    expect((reset.json() as { data: Definition }).data).toMatchObject({
      display_name: 'Time Played',
      display_name_is_default: true,
    });
    for (const on of [w, other]) {
      const stats = await publicStats(on);
      expect(stats.find((s) => s.key === PLAY_TIME)).toMatchObject({ display_name: 'Time Played', unit: 'ticks' });
      expect(stats.find((s) => s.key === MOD)).toMatchObject({ display_name: MOD, unit: 'count' });
    }
  });

  it('refuses a unit it does not know (422), and a read-only role (403)', async () => {
    expectInvalid(
      await t.browsers.analyst.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(PLAY_TIME)}`, {
        body: { unit: 'seconds' },
      }),
      'unit',
    );
    expectError(
      await t.browsers.readonly.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(PLAY_TIME)}`, {
        body: { unit: 'count' },
      }),
      403,
    );
    expect((await publicStats()).find((s) => s.key === PLAY_TIME)).toMatchObject({ unit: 'ticks' });
  });

  it('audits the change with the unit before and after', async () => {
    const res = await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?action=STAT_UPDATED&per_page=100');
    const records = (res.json() as { data: { target_id: string; before: Definition; after: Definition }[] }).data;
    const walked = records.find((r) => r.target_id === WALKED);
    expect(walked?.before).toMatchObject({ unit: 'cm', unit_is_default: true });
    expect(walked?.after).toMatchObject({ unit: 'count', unit_is_default: false });
  });
});
