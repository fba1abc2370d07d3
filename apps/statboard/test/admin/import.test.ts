import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as cli } from '#src/cli.ts';
import { createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk, sql, uuid } from '../http/support.ts';

/** `npx statboard import`: a server's vanilla world/stats files, as Minecraft writes them. */

let ctx: TestContext;
let fx: Fixture;
let server: string;
let world: string;

const A = '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b';
const B = '6a0f1e2d-3c4b-4a59-8877-665544332211';
const C = 'c0ffee00-1234-4abc-8def-0123456789ab';
const MTIME = new Date('2026-09-01T08:00:00Z');

/** A stats file as Minecraft 1.13+ writes it, modified at `mtime`. */
async function statsFile(name: string, content: string, mtime = MTIME): Promise<void> {
  const path = join(world, 'stats', name);
  await writeFile(path, content);
  await utimes(path, mtime, mtime);
}

function vanilla(stats: Record<string, Record<string, number>>): string {
  return JSON.stringify({ stats, DataVersion: 3955 });
}

async function run(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; err: string }> {
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
    const code = await cli(args, ctx.services);
    return { code, json: args.includes('--json') && out.trim() ? JSON.parse(out) : {}, err: err + out };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

const importArgs = () => ['import', '--workspace', fx.workspaceId, '--season', 's1', '--world', world, '--json'];

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Imports');
  server = await mkdtemp(join(tmpdir(), 'statboard-import-'));
  world = join(server, 'world');
  await mkdir(join(world, 'stats'), { recursive: true });
  await writeFile(
    join(server, 'usercache.json'),
    JSON.stringify([
      { name: 'Alex', uuid: A, expiresOn: '2026-12-01 10:00:00 +0000' },
      { name: 'Notch', uuid: C.toUpperCase(), expiresOn: '2026-12-01 10:00:00 +0000' },
    ]),
  );
  await statsFile(
    `${A}.json`,
    vanilla({
      'minecraft:custom': { 'minecraft:play_time': 72000, 'minecraft:jump': 12 },
      'minecraft:mined': { 'minecraft:stone': 640 },
    }),
  );
  await statsFile(`${B}.json`, vanilla({ 'minecraft:custom': { 'minecraft:jump': 30 } }));
  await statsFile(`${C.toUpperCase()}.json`, vanilla({ 'minecraft:custom': { 'minecraft:jump': 5 } }));
  await statsFile('11111111-1111-4111-8111-111111111111.json', '{"stat.playOneMinute": 1200, "stat.jump": 4}');
  await statsFile('22222222-2222-4222-8222-222222222222.json', '');
  await statsFile('33333333-3333-4333-8333-333333333333.json', '{"stats": {"minecraft:custom": {"minecraft:jump": ');
  await statsFile('Steve.json', vanilla({ 'minecraft:custom': { 'minecraft:jump': 1 } }));
  await mkdir(join(world, 'stats', '44444444-4444-4444-8444-444444444444.json'));
  await writeFile(join(world, 'stats', 'notes.txt'), 'not a stats file');
});
afterAll(async () => {
  await ctx?.close();
  if (server) await rm(server, { recursive: true, force: true });
});

describe('npx statboard import', () => {
  it('imports every readable file, lists the others with a reason, and names players from usercache.json', async () => {
    const r = await run(...importArgs());
    expect(r.code, r.err).toBe(0);
    const data = r.json.data as {
      files: number;
      players: number;
      values: number;
      skipped: { file: string; reason: string }[];
    };
    expect(data).toMatchObject({ files: 3, players: 3, values: 5 });
    const reasons = Object.fromEntries(data.skipped.map((s) => [s.file.replace('stats/', ''), s.reason]));
    expect(Object.keys(reasons).sort()).toEqual([
      '11111111-1111-4111-8111-111111111111.json',
      '22222222-2222-4222-8222-222222222222.json',
      '33333333-3333-4333-8333-333333333333.json',
      '44444444-4444-4444-8444-444444444444.json',
      'Steve.json',
    ]);
    expect(reasons['11111111-1111-4111-8111-111111111111.json']).toMatch(/before 1\.13/);
    expect(reasons['22222222-2222-4222-8222-222222222222.json']).toBe('empty file');
    expect(reasons['33333333-3333-4333-8333-333333333333.json']).toMatch(/not JSON/);
    expect(reasons['Steve.json']).toMatch(/not a player UUID/);

    const web = fx.keys.website!;
    const stats = (await getJson(ctx, web, `/api/v1/players/${A}/stats`)).json() as {
      player: { username: string };
      stats: { key: string; value: number; updated_at: string }[];
    };
    expect(stats.player.username).toBe('Alex');
    expect(stats.stats).toEqual([
      { key: 'minecraft.custom:minecraft.jump', value: 12, updated_at: MTIME.toISOString() },
      { key: 'minecraft.custom:minecraft.play_time', value: 72000, updated_at: MTIME.toISOString() },
      { key: 'minecraft.mined:minecraft.stone', value: 640, updated_at: MTIME.toISOString() },
    ]);
    // Not in usercache.json: a new player is called `unknown`; the upper-case file name is the same player.
    expect(((await getJson(ctx, web, `/api/v1/players/${B}`)).json() as { username: string }).username).toBe('unknown');
    expect(((await getJson(ctx, web, `/api/v1/players/${C}`)).json() as { username: string }).username).toBe('Notch');
    const board = (
      await getJson(ctx, web, '/api/v1/leaderboards?season=s1&stat=minecraft.custom:minecraft.jump')
    ).json() as {
      entries: { player: { uuid: string }; value: number }[];
    };
    expect(board.entries.map((e) => [e.player.uuid, e.value])).toEqual([
      [B, 30],
      [A, 12],
      [C, 5],
    ]);
    // Audited, with the CLI as the actor.
    const audit = await sql(ctx, "SELECT actor_label, action FROM audit_log WHERE action = 'STATS_IMPORTED'");
    expect(audit).toEqual([{ actor_label: 'cli', action: 'STATS_IMPORTED' }]);
  });

  it('changes nothing when run again', async () => {
    const before = await sql(
      ctx,
      'SELECT player_id, stat_id, value, observed_at, updated_at FROM player_stats ORDER BY 1, 2',
    );
    const r = await run(...importArgs());
    expect(r.code, r.err).toBe(0);
    expect((r.json.data as { values: number }).values).toBe(0);
    expect(
      await sql(ctx, 'SELECT player_id, stat_id, value, observed_at, updated_at FROM player_stats ORDER BY 1, 2'),
    ).toEqual(before);
  });

  it('never overwrites a value the mod observed later, and keeps a name the mod sent', async () => {
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: B,
        username: 'Bee',
        stats: [{ key: 'minecraft.custom:minecraft.jump', value: 31 }],
        observedAt: '2026-09-02T00:00:00Z',
      }),
    );
    // A newer file for A, an older one for B.
    await statsFile(
      `${A}.json`,
      vanilla({ 'minecraft:custom': { 'minecraft:jump': 50 } }),
      new Date('2026-09-03T00:00:00Z'),
    );
    await statsFile(
      `${B}.json`,
      vanilla({ 'minecraft:custom': { 'minecraft:jump': 35 } }),
      new Date('2026-09-01T12:00:00Z'),
    );
    const r = await run(...importArgs());
    expect(r.code, r.err).toBe(0);
    expect((r.json.data as { values: number }).values).toBe(1);
    const web = fx.keys.website!;
    const value = async (player: string) =>
      (
        (await getJson(ctx, web, `/api/v1/players/${player}/stats`)).json() as {
          stats: { key: string; value: number }[];
        }
      ).stats.find((s) => s.key === 'minecraft.custom:minecraft.jump')!.value;
    expect(await value(A)).toBe(50);
    expect(await value(B)).toBe(31);
    expect(((await getJson(ctx, web, `/api/v1/players/${B}`)).json() as { username: string }).username).toBe('Bee');
    // The newer file closed A's earlier hour: its history holds both values.
    const h = (
      await getJson(
        ctx,
        web,
        `/api/v1/players/${A}/stats/history?stat=minecraft.custom:minecraft.jump&interval=day&from=2026-08-30T00:00:00Z&to=2026-09-05T00:00:00Z`,
      )
    ).json() as { points: { at: string; value: number }[] };
    expect(h.points).toEqual([
      { at: '2026-09-01T00:00:00.000Z', value: 12 },
      { at: '2026-09-03T00:00:00.000Z', value: 50 },
    ]);
  });

  it('refuses clearly: an unknown season (exit 4), a folder without stats/ or an unreadable usercache (exit 2)', async () => {
    const season = await run('import', '--workspace', fx.workspaceId, '--season', 'nope', '--world', world, '--json');
    expect(season.code).toBe(4);
    const noStats = await run('import', '--workspace', fx.workspaceId, '--season', 's1', '--world', server, '--json');
    expect(noStats.code).toBe(2);
    expect(noStats.json).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    const cache = await run(...importArgs(), '--usercache', join(server, 'missing.json'));
    expect(cache.code).toBe(2);
    const missing = await run('import', '--workspace', fx.workspaceId, '--season', 's1', '--json');
    expect(missing.code).toBe(2);
    expect(missing.json).toMatchObject({ error: { code: 'USAGE', message: '--world is required' } });
  });

  it('explains itself in --help', async () => {
    const help = await run('import', '--help');
    expect(help.code).toBe(0);
    expect(help.err).toMatch(/--world DIR/);
    expect(help.err).toMatch(/usercache/);
  });

  it('reads a thousand files in one run, in transactions of a few hundred', async () => {
    const many = join(server, 'many');
    await mkdir(join(many, 'stats'), { recursive: true });
    const uuids = Array.from({ length: 1_200 }, () => uuid());
    await Promise.all(
      uuids.map((u, i) =>
        writeFile(
          join(many, 'stats', `${u}.json`),
          vanilla({ 'minecraft:custom': { 'minecraft:jump': i, 'minecraft:walk_one_cm': i * 10 } }),
        ),
      ),
    );
    const r = await run('import', '--workspace', fx.workspaceId, '--season', 's1', '--world', many, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.json.data).toMatchObject({ files: 1_200, players: 1_200, values: 2_400, skipped: [] });
    const n = await sql(ctx, 'SELECT count(*)::int AS n FROM players WHERE uuid = ANY($1::uuid[])', [uuids]);
    expect(n).toEqual([{ n: 1_200 }]);
  });
});

void uuid;
