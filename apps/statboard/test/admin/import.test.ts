import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
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

describe('npx statboard import of files it must not trust', () => {
  /** A server folder someone else handed over: world/stats/ and usercache.json. */
  let dir: string;
  let stats: string;
  const SECRET = 'root:x:0:0:SECRET-CONTENT:/root:/bin/bash';
  const p = {
    fifo: uuid(),
    link: uuid(),
    linkToStats: uuid(),
    big: uuid(),
    huge: uuid(),
    future: uuid(),
    named: uuid(),
    keeps: uuid(),
  };
  /** One player per bad name of usercache.json, each with a statistics file. */
  const BAD_NAMES = [
    'evil\u202eexe',
    'Ste\u0007ve',
    'line\nbreak',
    'a\tb',
    'esc\u001b[2J',
    'zero\u200bwidth',
    'a\u2028b',
    '\u3164',
    '\u2800',
    '   ',
    'a\u00a0b',
    `a${'\u0301'.repeat(15)}`,
    'nul\u0000',
  ];
  const badNamed = BAD_NAMES.map(() => uuid());
  const JUMP = 'minecraft.custom:minecraft.jump';

  const args = (...more: string[]) => [
    'import',
    '--workspace',
    fx.workspaceId,
    '--season',
    's1',
    '--world',
    join(dir, 'world'),
    '--json',
    ...more,
  ];
  const jump = (n: number) => vanilla({ 'minecraft:custom': { 'minecraft:jump': n } });
  const username = async (player: string) => {
    const res = await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}`);
    return res.statusCode === 200 ? (res.json() as { username: string }).username : res.statusCode;
  };

  beforeAll(async () => {
    dir = join(server, 'untrusted');
    stats = join(dir, 'world', 'stats');
    await mkdir(stats, { recursive: true });
    const file = async (player: string, content: string, mtime = MTIME) => {
      await writeFile(join(stats, `${player}.json`), content);
      await utimes(join(stats, `${player}.json`), mtime, mtime);
    };
    execFileSync('mkfifo', [join(stats, `${p.fifo}.json`)]);
    await writeFile(join(dir, 'secret'), SECRET);
    await symlink(join(dir, 'secret'), join(stats, `${p.link}.json`));
    await writeFile(join(dir, 'elsewhere.json'), jump(99));
    await symlink(join(dir, 'elsewhere.json'), join(stats, `${p.linkToStats}.json`));
    // 9 MB of zeros: were it read, it would be skipped as "not JSON".
    await writeFile(join(stats, `${p.big}.json`), '');
    await truncate(join(stats, `${p.big}.json`), 9 * 1024 * 1024);
    await file(p.huge, vanilla({ 'minecraft:custom': { 'minecraft:jump': 1, 'minecraft:play_time': 1e300 } }));
    await file(p.future, jump(7), new Date('2100-01-01T00:00:00Z'));
    await file(p.named, jump(1));
    await file(p.keeps, jump(1));
    for (const player of badNamed) await file(player, jump(2));
    await writeFile(
      join(dir, 'usercache.json'),
      JSON.stringify([
        { name: '.Steve', uuid: p.named, expiresOn: '2026-12-01 10:00:00 +0000' },
        { name: 'bad\u202eName', uuid: p.keeps, expiresOn: '2026-12-01 10:00:00 +0000' },
        ...BAD_NAMES.map((name, i) => ({ name, uuid: badNamed[i], expiresOn: '2026-12-01 10:00:00 +0000' })),
      ]),
    );
    // A player the mod named before: a bad name in usercache.json must not replace its name.
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({ uuid: p.keeps, username: 'Keeper', observedAt: '2026-08-01T00:00:00Z' }),
    );
  });

  it('finishes, skipping links, FIFOs and files over 8 MB unread, with reasons that quote nothing of them', async () => {
    const started = Date.now();
    const r = await run(...args());
    const finished = Date.now();
    expect(r.code, r.err).toBe(0);
    const data = r.json.data as { files: number; skipped: { file: string; reason: string }[] };
    const reasons = Object.fromEntries(data.skipped.map((s) => [s.file, s.reason]));
    expect(reasons[`stats/${p.fifo}.json`]).toBe('not a regular file (a named pipe)');
    expect(reasons[`stats/${p.link}.json`]).toBe('a symbolic link: not followed');
    expect(reasons[`stats/${p.linkToStats}.json`]).toBe('a symbolic link: not followed');
    expect(reasons[`stats/${p.big}.json`]).toBe('larger than 8 MB: not read');
    expect(JSON.stringify(r.json)).not.toMatch(/SECRET|root:x/);
    for (const player of [p.fifo, p.link, p.linkToStats, p.big]) expect(await username(player)).toBe(404);

    // A value outside ±(2^53 − 1): the whole file is skipped, as ingest refuses the whole batch.
    expect(reasons[`stats/${p.huge}.json`]).toBe(
      '"stats.minecraft:custom.minecraft:play_time" is outside ±9007199254740991 (2^53 - 1)',
    );
    expect(await username(p.huge)).toBe(404);

    // A file dated 2100 counts as observed when the import ran, so the mod's next upload replaces its value.
    const [future] = await sql(
      ctx,
      `SELECT s.observed_at, s.updated_at FROM player_stats s JOIN players pl ON pl.id = s.player_id
       WHERE pl.uuid = $1`,
      [p.future],
    );
    const observed = (future as { observed_at: Date }).observed_at.getTime();
    expect(observed).toBeGreaterThanOrEqual(started - 1);
    expect(observed).toBeLessThanOrEqual(finished);
    await ingestOk(
      ctx,
      fx.keys.client!,
      modBatch({
        uuid: p.future,
        stats: [{ key: JUMP, value: 8 }],
        observedAt: new Date(finished + 1000).toISOString(),
      }),
    );
    const values = (await getJson(ctx, fx.keys.website!, `/api/v1/players/${p.future}/stats`)).json() as {
      stats: { key: string; value: number }[];
    };
    expect(values.stats.find((s) => s.key === JUMP)?.value).toBe(8);
    expect(data.files).toBe(3 + BAD_NAMES.length);
  });

  it('ignores usercache.json names that break the rule of player names; a NUL in one is not fatal', async () => {
    expect(await username(p.named)).toBe('.Steve');
    expect(await username(p.keeps)).toBe('Keeper');
    for (const [i, player] of badNamed.entries())
      expect(await username(player), JSON.stringify(BAD_NAMES[i])).toBe('unknown');
  });

  it('lists a usercache.json it cannot use (raw NULs, a link, a FIFO, over 8 MB) and imports without names', async () => {
    const world = join(server, 'cacheless');
    await mkdir(join(world, 'world', 'stats'), { recursive: true });
    const player = uuid();
    await writeFile(join(world, 'world', 'stats', `${player}.json`), jump(3));
    const cache = join(world, 'usercache.json');
    const cases: [string, () => Promise<void>, RegExp][] = [
      ['raw NUL bytes', () => writeFile(cache, `[{"name": "Alex\u0000", "uuid": "${player}"}]`), /^not JSON/],
      ['a link', () => symlink(join(dir, 'secret'), cache), /^a symbolic link: not followed/],
      [
        'a FIFO',
        async () => {
          execFileSync('mkfifo', [cache]);
        },
        /^not a regular file \(a named pipe\)/,
      ],
      [
        'over 8 MB',
        async () => {
          await writeFile(cache, '');
          await truncate(cache, 9 * 1024 * 1024);
        },
        /^larger than 8 MB/,
      ],
    ];
    for (const [what, make, reason] of cases) {
      await rm(cache, { force: true });
      await make();
      const r = await run(...args().slice(0, 5), '--world', join(world, 'world'), '--json');
      expect(r.code, `${what}: ${r.err}`).toBe(0);
      const data = r.json.data as { skipped: { file: string; reason: string }[] };
      expect(data.skipped, what).toEqual([
        { file: join('..', 'usercache.json'), reason: expect.stringMatching(reason) },
      ]);
      expect(data.skipped[0]!.reason, what).toMatch(/no player named from it$/);
      expect(JSON.stringify(r.json), what).not.toMatch(/SECRET|Alex/);
    }
    expect(await username(player)).toBe('unknown');
    // Given explicitly, a usercache.json that does not exist is an error: the operator named the wrong file.
    const missing = await run(...args(), '--usercache', join(world, 'nope.json'));
    expect(missing.code).toBe(2);
  });

  it('imports a file of more values than a statement holds (60,000), in several statements of one transaction', async () => {
    const world = join(server, 'dense');
    await mkdir(join(world, 'world', 'stats'), { recursive: true });
    const player = uuid();
    const many: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) many[`minecraft:dense_${i}`] = i;
    await writeFile(join(world, 'world', 'stats', `${player}.json`), vanilla({ 'minecraft:custom': many }));
    const r = await run(...args().slice(0, 5), '--world', join(world, 'world'), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.json.data).toMatchObject({ files: 1, players: 1, values: 60_000, skipped: [] });
    const [stored] = await sql(
      ctx,
      `SELECT count(*)::int AS n, sum(s.value)::float8 AS total FROM player_stats s
       JOIN players pl ON pl.id = s.player_id WHERE pl.uuid = $1`,
      [player],
    );
    expect(stored).toEqual({ n: 60_000, total: (59_999 * 60_000) / 2 });
    const audit = await sql(
      ctx,
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'STATS_IMPORTED' AND after->>'first' = $1",
      [`${player}.json`],
    );
    expect(audit).toEqual([{ n: 1 }]);
  });

  it('refuses a --world that is not a folder with a stats/ folder clearly (exit 2)', async () => {
    for (const world of [join(dir, 'secret'), join(dir, 'nowhere')]) {
      const r = await run(...args().slice(0, 5), '--world', world, '--json');
      expect(r.code).toBe(2);
      expect(r.json).toMatchObject({
        error: { code: 'INVALID_PAYLOAD', details: { world: ['must be a world folder with a stats/ folder'] } },
      });
      expect(JSON.stringify(r.json)).not.toMatch(/SECRET/);
    }
  });
});
