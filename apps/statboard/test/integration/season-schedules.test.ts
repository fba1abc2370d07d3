import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeBus } from '#src/cache/bus.ts';
import { openPg } from '#src/db/pg.ts';
import { SeasonScheduler } from '#src/modules/seasons/scheduler.ts';
import type { Season } from '#src/modules/seasons/service.ts';
import { buildServices, type Services } from '#src/services.ts';
import { ACTOR, createTestContext, DB_KIND, seedWorkspace, type TestContext } from '../helpers.ts';
import { countRows } from '../http/support.ts';

// Seasons start and end by themselves at their times. The schedule is driven here with explicit times
// (`runSchedules(at)`, or the scheduler's injected clock) instead of waiting for them.

const HOUR = 3_600_000;
const SILENT = { info: () => undefined, warn: () => undefined };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

/** A workspace with an active season `s1` and a webhook for both season events (deliveries are counted). */
async function workspace(name: string) {
  const fx = await seedWorkspace(ctx.services, name);
  await ctx.services.webhooks.create(ACTOR, fx.workspaceId, {
    url: 'https://93.184.216.34/hook',
    events: ['season.activated', 'season.ended'],
  });
  return fx;
}

function at(ms: number): string {
  return new Date(ms).toISOString();
}

async function seasonsOf(services: Services, workspaceId: string): Promise<Record<string, Season>> {
  return Object.fromEntries((await services.seasons.list(workspaceId)).map((s) => [s.slug, s]));
}

async function activeSlug(workspaceId: string): Promise<string | null> {
  return (await ctx.services.seasons.list(workspaceId)).find((s) => s.active)?.slug ?? null;
}

async function messages(workspaceId: string, type: string): Promise<{ data: Record<string, Season | null> }[]> {
  return ctx.db.query('SELECT data FROM webhook_messages WHERE workspace_id = $1 AND type = $2 ORDER BY created_at', [
    workspaceId,
    type,
  ]);
}

async function auditOf(workspaceId: string, action: string) {
  return (await ctx.services.audit.list(workspaceId, { page: 1, perPage: 100, filter: { action } })).data;
}

describe('a season with a start ahead', () => {
  it('activates at its start, not before; the season active before ends at that start', async () => {
    const fx = await workspace('Sched start');
    const start = Date.now() + HOUR;
    const next = await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Next',
      slug: 'next',
      started_at: at(start),
      scoring: 'gains',
    });
    expect(next.active).toBe(false);
    expect(await ctx.services.seasons.runSchedules(new Date())).toEqual([]);
    expect(await ctx.services.seasons.runSchedules(new Date(start - 1))).toEqual([]);
    expect(await activeSlug(fx.workspaceId)).toBe('s1');

    const done = await ctx.services.seasons.runSchedules(new Date(start + 5_000));
    expect(done).toEqual([
      {
        type: 'activated',
        workspaceId: fx.workspaceId,
        season: { ...next, active: true },
        previous: expect.objectContaining({ slug: 's1', active: false, ended_at: at(start) }),
      },
    ]);
    const all = await seasonsOf(ctx.services, fx.workspaceId);
    expect(all.next).toEqual({ ...next, active: true, started_at: at(start), scoring: 'gains' });
    expect(all.s1).toMatchObject({ active: false, ended_at: at(start) });
    // Read at once by the key routes' season (the active one is cached until a change drops it).
    expect(await ctx.services.seasons.active(fx.workspaceId)).toMatchObject({ slug: 'next' });
    // Once: it does not happen again.
    expect(await ctx.services.seasons.runSchedules(new Date(start + 60_000))).toEqual([]);
  });

  it('is audited as system (SEASON_ACTIVATED) and announces season.activated and season.ended', async () => {
    const fx = await workspace('Sched audit');
    const start = Date.now() + HOUR;
    const next = await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Next',
      slug: 'next',
      started_at: at(start),
    });
    await ctx.services.seasons.runSchedules(new Date(start));
    const [record] = (await auditOf(fx.workspaceId, 'SEASON_ACTIVATED')).filter((r) => r.target_id === next.id);
    expect(record).toMatchObject({
      actor: { user_id: null, label: 'system' },
      ip: null,
      request_id: null,
      before: { season: { ...next }, active_season: { id: fx.seasonId, active: true } },
      after: { ...next, active: true },
    });
    const activated = await messages(fx.workspaceId, 'season.activated');
    expect(activated.map((m) => m.data.season?.slug)).toEqual(['next']);
    expect(activated[0]!.data.previous).toMatchObject({ id: fx.seasonId, active: false, ended_at: at(start) });
    const ended = await messages(fx.workspaceId, 'season.ended');
    expect(ended).toEqual([{ data: { season: activated[0]!.data.previous, next: { ...next, active: true } } }]);
  });

  it('among several starts come while nothing looked, only the latest activates; the others never do', async () => {
    const fx = await workspace('Sched several');
    const now = Date.now();
    for (const [slug, offset] of [
      ['first', HOUR],
      ['second', 2 * HOUR],
    ] as const) {
      await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: slug, slug, started_at: at(now + offset) });
    }
    const done = await ctx.services.seasons.runSchedules(new Date(now + 3 * HOUR));
    expect(done.map((t) => t.season.slug)).toEqual(['second']);
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'By hand', slug: 'by-hand', active: true });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 4 * HOUR))).toEqual([]);
    expect(await activeSlug(fx.workspaceId)).toBe('by-hand');
  });

  it('does not start when its whole run passed while nothing looked', async () => {
    const fx = await workspace('Sched passed');
    const now = Date.now();
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Short',
      slug: 'short',
      started_at: at(now + HOUR),
      ended_at: at(now + 2 * HOUR),
    });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 3 * HOUR))).toEqual([]);
    expect(await activeSlug(fx.workspaceId)).toBe('s1');
  });

  it('leaves seasons created with a start already past, and a season activated by hand before its start, alone', async () => {
    const fx = await workspace('Sched manual');
    const now = Date.now();
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Past',
      slug: 'past',
      started_at: '2025-01-01T00:00:00Z',
    });
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Soon',
      slug: 'soon',
      started_at: at(now + HOUR),
    });
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 'soon');
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 's1');
    expect(await ctx.services.seasons.runSchedules(new Date(now + 2 * HOUR))).toEqual([]);
    expect(await activeSlug(fx.workspaceId)).toBe('s1');
  });

  it('follows a start moved or cleared by a change, and a new start given to a season that ended', async () => {
    const fx = await workspace('Sched moved');
    const now = Date.now();
    const s = await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
      name: 'Moved',
      slug: 'moved',
      started_at: at(now + HOUR),
    });
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, s.id, { started_at: at(now + 3 * HOUR) });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 2 * HOUR))).toEqual([]);
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, s.id, { started_at: null });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 4 * HOUR))).toEqual([]);
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, s.id, { started_at: at(now + 5 * HOUR) });
    const done = await ctx.services.seasons.runSchedules(new Date(now + 5 * HOUR));
    expect(done.map((t) => [t.type, t.season.slug])).toEqual([['activated', 'moved']]);
    // Replaced by hand, it has ended; given a new run ahead, it starts again then.
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'By hand', slug: 'by-hand', active: true });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 6 * HOUR))).toEqual([]);
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, 'moved', {
      started_at: at(now + 7 * HOUR),
      ended_at: null,
    });
    expect(await ctx.services.seasons.runSchedules(new Date(now + 6 * HOUR))).toEqual([]);
    expect(await activeSlug(fx.workspaceId)).toBe('by-hand');
    const again = await ctx.services.seasons.runSchedules(new Date(now + 7 * HOUR));
    expect(again.map((t) => [t.type, t.season.slug])).toEqual([['activated', 'moved']]);
  });
});

describe('an active season with an end', () => {
  it('ends at its end (none active after), audited as system, announcing season.ended', async () => {
    const fx = await workspace('Sched end');
    const end = Date.now() + HOUR;
    const s1 = await ctx.services.seasons.update(ACTOR, fx.workspaceId, 's1', { ended_at: at(end) });
    expect(await ctx.services.seasons.runSchedules(new Date(end - 1))).toEqual([]);
    const done = await ctx.services.seasons.runSchedules(new Date(end + 1));
    expect(done).toEqual([{ type: 'ended', workspaceId: fx.workspaceId, season: { ...s1, active: false } }]);
    expect(await activeSlug(fx.workspaceId)).toBeNull();
    expect(await ctx.services.seasons.active(fx.workspaceId)).toBeNull();
    const [record] = await auditOf(fx.workspaceId, 'SEASON_ENDED');
    expect(record).toMatchObject({
      actor: { user_id: null, label: 'system' },
      target_id: fx.seasonId,
      before: { ...s1, active: true },
      after: { ...s1, active: false },
    });
    expect(await messages(fx.workspaceId, 'season.ended')).toEqual([
      { data: { season: { ...s1, active: false }, next: null } },
    ]);
    expect(await ctx.services.seasons.runSchedules(new Date(end + HOUR))).toEqual([]);
  });

  it('hands over in one transition when the next season starts as it ends', async () => {
    const fx = await workspace('Sched handover');
    const t = Date.now() + HOUR;
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, 's1', { ended_at: at(t) });
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Two', slug: 's2', started_at: at(t) });
    const done = await ctx.services.seasons.runSchedules(new Date(t + 1_000));
    expect(done.map((x) => [x.type, x.season.slug])).toEqual([['activated', 's2']]);
    const all = await seasonsOf(ctx.services, fx.workspaceId);
    expect(all.s1).toMatchObject({ active: false, ended_at: at(t) });
    expect(all.s2).toMatchObject({ active: true, started_at: at(t), ended_at: null });
    expect(await auditOf(fx.workspaceId, 'SEASON_ENDED')).toEqual([]);
    expect((await messages(fx.workspaceId, 'season.ended')).map((m) => m.data.season?.slug)).toEqual(['s1']);
  });
});

describe('several instances', () => {
  it('make each transition exactly once when they run the schedules at the same moment', async () => {
    // PGlite: a second service layer on the same database handle; PostgreSQL: another pool of connections.
    const otherDb = DB_KIND === 'postgresql' ? openPg(await databaseUrl(), { poolSize: 3 }) : ctx.db;
    const other = buildServices(otherDb, ctx.config, { bus: ChangeBus.local() });
    try {
      for (let round = 0; round < 5; round++) {
        const fx = await workspace(`Sched race ${round}`);
        const start = Date.now() + HOUR;
        await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'N', slug: 'n', started_at: at(start) });
        await ctx.services.seasons.update(ACTOR, fx.workspaceId, 'n', { ended_at: at(start + HOUR) });
        const when = new Date(start + 1_000);
        const runs = await Promise.all([
          ctx.services.seasons.runSchedules(when),
          other.seasons.runSchedules(when),
          other.seasons.runSchedules(when),
        ]);
        expect(runs.flat().map((t) => [t.type, t.season.slug])).toEqual([['activated', 'n']]);
        const later = new Date(start + HOUR + 1_000);
        const ends = await Promise.all([ctx.services.seasons.runSchedules(later), other.seasons.runSchedules(later)]);
        expect(ends.flat().map((t) => [t.type, t.season.slug])).toEqual([['ended', 'n']]);
        expect(await auditOf(fx.workspaceId, 'SEASON_ENDED')).toHaveLength(1);
        expect(
          (await auditOf(fx.workspaceId, 'SEASON_ACTIVATED')).filter((r) => r.actor.label === 'system'),
        ).toHaveLength(1);
        // season.activated and season.ended (of s1), then season.ended (of n).
        expect(await countRows(ctx.db, 'webhook_messages', 'workspace_id = $1', [fx.workspaceId])).toBe(3);
      }
    } finally {
      if (otherDb !== ctx.db) await otherDb.close();
    }
  });
});

describe('the scheduler', () => {
  it('runs the schedules at start and then every period, by its clock, and stops when asked', async () => {
    const fx = await workspace('Sched loop');
    const start = Date.now() + HOUR;
    await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'L', slug: 'l', started_at: at(start) });
    let now = start - HOUR;
    const lines: string[] = [];
    const scheduler = new SeasonScheduler(ctx.services.seasons, {
      now: () => now,
      periodMs: 20,
      log: { info: (_o, msg) => lines.push(msg), warn: (_o, msg) => lines.push(msg) },
    });
    scheduler.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(await activeSlug(fx.workspaceId)).toBe('s1');
    now = start + 1;
    await until(async () => (await activeSlug(fx.workspaceId)) === 'l');
    expect(lines).toContain('seasons: season l started (scheduled)');
    await scheduler.stop();
    await ctx.services.seasons.update(ACTOR, fx.workspaceId, 'l', { ended_at: at(start + 2) });
    now = start + 10;
    await new Promise((r) => setTimeout(r, 100));
    expect(await activeSlug(fx.workspaceId)).toBe('l');
    expect(await scheduler.runOnce()).toEqual([expect.objectContaining({ type: 'ended' })]);
  });

  it('logs a failure once and carries on', async () => {
    const lines: string[] = [];
    let calls = 0;
    const scheduler = new SeasonScheduler(
      {
        runSchedules: async () => {
          calls++;
          if (calls <= 2) throw new Error('boom');
          return [];
        },
      },
      { periodMs: 10, log: { info: (_o, msg) => lines.push(msg), warn: (_o, msg) => lines.push(msg) } },
    );
    scheduler.start();
    await until(async () => calls >= 4);
    await scheduler.stop();
    expect(lines).toEqual(['seasons: running the schedules failed; retrying', 'seasons: schedules run again']);
  });

  it('stops at once, also when stopped twice', async () => {
    const scheduler = new SeasonScheduler(ctx.services.seasons, { log: SILENT });
    scheduler.start();
    await scheduler.stop();
    await scheduler.stop();
  });
});

async function until(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const begin = Date.now();
  while (!(await check())) {
    if (Date.now() - begin > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The URL of this test file's PostgreSQL database (the one `ctx.db` is connected to). */
async function databaseUrl(): Promise<string> {
  const [row] = await ctx.db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}
