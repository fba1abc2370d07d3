import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as cli, EXIT } from '#src/cli.ts';
import type { Season } from '#src/modules/seasons/service.ts';
import { createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

/** Seasons from the CLI: `season create --scoring …`, `season update`, and their one-line errors. */
let ctx: TestContext;
let fx: Fixture;
beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'CLI seasons');
});
afterAll(() => ctx?.close());

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
    return { code: await cli(args, ctx.services), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

async function json(...args: string[]): Promise<Season> {
  const r = await run(...args, '--json');
  expect(r.code, r.out + r.err).toBe(EXIT.ok);
  return (JSON.parse(r.out) as { data: Season }).data;
}

const W = ['--workspace', 'cli-seasons'];

describe('season create', () => {
  it('takes --scoring gains and a start ahead (the season waits for it)', async () => {
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const season = await json(
      'season',
      'create',
      ...W,
      '--name',
      'Summer',
      '--slug',
      'summer',
      '--scoring',
      'gains',
      '--started-at',
      start,
    );
    expect(season).toMatchObject({ slug: 'summer', scoring: 'gains', active: false, started_at: start });
    const text = await run('season', 'create', ...W, '--name', 'Plain', '--slug', 'plain');
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toMatch(/^Created season plain [0-9a-f-]{36}\n$/);
    const list = await run('season', 'list', ...W);
    expect(list.out).toContain('summer  Summer (gains)');
  });

  it('refuses an unknown scoring in one line naming --scoring (exit 2)', async () => {
    const r = await run('season', 'create', ...W, '--name', 'Bad', '--slug', 'bad', '--scoring', 'best');
    expect(r.code).toBe(EXIT.usage);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^error: --scoring: /);
    expect(await ctx.services.seasons.find(fx.workspaceId, 'bad')).toBeNull();
  });
});

describe('season update', () => {
  it('changes only the options given, by slug or id', async () => {
    const before = await json(
      'season',
      'create',
      ...W,
      '--name',
      'Autumn',
      '--slug',
      'autumn',
      '--started-at',
      '2025-09-01T00:00:00Z',
    );
    const updated = await json('season', 'update', ...W, '--season', 'autumn', '--scoring', 'gains');
    expect(updated).toEqual({ ...before, scoring: 'gains' });
    const renamed = await json(
      'season',
      'update',
      ...W,
      '--season',
      before.id,
      '--name',
      'Fall',
      '--slug',
      'fall',
      '--ended-at',
      '2025-12-01T00:00:00Z',
    );
    expect(renamed).toEqual({ ...updated, name: 'Fall', slug: 'fall', ended_at: '2025-12-01T00:00:00.000Z' });
    const cleared = await run('season', 'update', ...W, '--season', 'fall', '--ended-at', 'none');
    expect(cleared.code).toBe(EXIT.ok);
    expect(cleared.out).toBe(`Updated season fall ${before.id} (gains)\n`);
    expect((await ctx.services.seasons.list(fx.workspaceId)).find((s) => s.id === before.id)?.ended_at).toBeNull();
  });

  it('is audited as the CLI (SEASON_UPDATED)', async () => {
    const s = await json('season', 'create', ...W, '--name', 'Audited', '--slug', 'audited');
    await json('season', 'update', ...W, '--season', 'audited', '--scoring', 'gains');
    const { data } = await ctx.services.audit.list(fx.workspaceId, {
      page: 1,
      perPage: 10,
      filter: { action: 'SEASON_UPDATED', actor: 'cli' },
    });
    expect(data.find((r) => r.target_id === s.id)).toMatchObject({
      before: { ...s },
      after: { ...s, scoring: 'gains' },
    });
  });

  it('answers mistakes in one line: bad scoring or time (2), end before start (2), unknown season (4), slug taken (5)', async () => {
    await json(
      'season',
      'create',
      ...W,
      '--name',
      'Checked',
      '--slug',
      'checked',
      '--started-at',
      '2025-09-01T00:00:00Z',
    );
    const cases: [string[], number, RegExp][] = [
      [['--season', 'checked', '--scoring', 'sum'], EXIT.usage, /^error: --scoring: /],
      [['--season', 'checked', '--started-at', 'yesterday'], EXIT.usage, /^error: --started-at: /],
      [['--season', 'checked', '--ended-at', '2025-08-01T00:00:00Z'], EXIT.usage, /^error: --ended-at: .*before/],
      [['--season', 'nope', '--scoring', 'gains'], EXIT.notFound, /^error: Season 'nope' not found/],
      [['--season', 'checked', '--slug', 's1'], EXIT.conflict, /^error: A season with slug 's1' exists/],
      [['--scoring', 'gains'], EXIT.usage, /^error: --season is required/],
    ];
    for (const [args, code, line] of cases) {
      const r = await run('season', 'update', ...W, ...args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
      expect(r.err, args.join(' ')).toMatch(line);
    }
    expect((await ctx.services.seasons.list(fx.workspaceId)).find((s) => s.slug === 'checked')).toMatchObject({
      scoring: 'absolute',
      ended_at: null,
    });
  });

  it('is listed in the usage text', async () => {
    const r = await run('season', 'update', '--help');
    expect(r.out + r.err).toContain('season update --workspace W --season ID|SLUG');
  });
});
