import type { Static } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import type { Actor } from '#src/access/principal.ts';
import { requireSeason, seasonFilter } from '#src/access/restrictions.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Season as SeasonSchema } from '#src/http/schemas.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { iso } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody, Problems } from '#src/lib/validation.ts';
import { type AuditService, SYSTEM_ACTOR } from '#src/modules/audit-log/service.ts';
import type { Outbox } from '#src/modules/webhooks/outbox.ts';
import * as repo from './repo.ts';
import { CreateSeasonRequest, UpdateSeasonRequest } from './schemas.ts';

/** The spec's Season resource. */
export type Season = Static<typeof SeasonSchema>;

function toSeason(row: repo.SeasonRow): Season {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    active: row.active,
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    scoring: row.scoring,
  };
}

/** What a season's schedule did: one transition of one workspace. */
export type ScheduleTransition =
  | { type: 'activated'; workspaceId: string; season: Season; previous: Season | null }
  | { type: 'ended'; workspaceId: string; season: Season };

function timeOf(value: string | null | undefined): Date | null {
  return value == null ? null : new Date(value);
}

/** The start and end of a season, checked together. */
function checkTimes(startedAt: Date | null, endedAt: Date | null, p: Problems): void {
  if (startedAt && endedAt && endedAt < startedAt) p.add('ended_at', 'must not be before started_at');
}

/** Whether writing `w` would leave the season as it is. */
function unchanged(row: repo.SeasonRow, w: repo.SeasonWrite): boolean {
  return (
    row.name === w.name &&
    row.slug === w.slug &&
    row.scoring === w.scoring &&
    row.start_pending === w.startPending &&
    row.started_at?.getTime() === w.startedAt?.getTime() &&
    row.ended_at?.getTime() === w.endedAt?.getTime()
  );
}

function conflict(slug: string, err: unknown): AppError {
  return new AppError('CONFLICT', `A season with slug '${slug}' exists.`, undefined, { cause: err });
}

/**
 * The season rule of every key read: a key reads the season it names (by id or slug), or the active one when it
 * names none. Unknown, or no active season: 404; outside the key's season restriction: 403.
 */
function permittedSeason(key: AuthKey, season: Season | null, ref: string | undefined): Season {
  if (!season) {
    throw new AppError(
      'NOT_FOUND',
      ref === undefined || ref === '' ? 'There is no active season.' : `Season '${ref}' not found.`,
    );
  }
  requireSeason(key, season.id, 'read');
  return season;
}

/** Bytes of cached `/seasons` answers (a season is ~200 bytes of JSON). */
const SEASON_LIST_CACHE_BYTES = 4 * 1024 * 1024;

function isFound(season: Season | null): boolean {
  return season !== null;
}

/** Seasons: statistics are kept per season; ingest writes into the one active season. */
export class SeasonService {
  /** Seasons by `workspace|ref` and the active one by `workspace|` (null: none), for hot paths. */
  private readonly cache: Cache<string, Season | null> | null;
  /**
   * `GET /seasons` answers by `workspace|restriction` (the key's season ids, in its order; empty: all). Seasons
   * change only by a creation, a change, an activation or their schedule (each announces it); nothing in the
   * answer follows the date.
   */
  private readonly lists: Cache<string, Buffer> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly outbox: Outbox | null = null,
  ) {
    const cache = changes.cache<string, Season | null>('season', 60_000, 10_000);
    const lists = changes.cache<string, Buffer>('season_list', 60_000, 2_000, {
      max: SEASON_LIST_CACHE_BYTES,
      sizeOf: (b) => b.length + 100,
    });
    this.cache = cache;
    this.lists = lists;
    changes.onChange((c) => {
      if (c === null) {
        cache?.clear();
        lists?.clear();
      } else if (c.topic === 'season') {
        cache?.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
        lists?.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      }
    });
  }

  /** Creates a season; with `active: true` it also replaces the active one (one transaction). */
  async create(actor: Actor, workspaceId: string, input: unknown): Promise<Season> {
    const body = checkBody(CreateSeasonRequest, input, 'The season is invalid.');
    const startedAt = timeOf(body.started_at);
    const endedAt = timeOf(body.ended_at);
    const p = new Problems();
    checkTimes(startedAt, endedAt, p);
    p.throwIfAny('The season is invalid.');
    try {
      return await this.db.transaction(async (tx) => {
        let row = await repo.insertSeason(tx, workspaceId, {
          name: body.name.trim(),
          slug: body.slug,
          startedAt,
          endedAt,
          scoring: body.scoring ?? 'absolute',
          // A start still ahead is a schedule: the season activates by itself then (unless activated now).
          startPending: body.active !== true && startedAt !== null && startedAt.getTime() > Date.now(),
        });
        let replaced: Season | null = null;
        if (body.active === true) {
          await repo.lockWorkspaceSeasons(tx, workspaceId);
          const previous = await repo.findActiveSeason(tx, workspaceId);
          replaced = previous ? toSeason(previous) : null;
          row = await repo.activateSeason(tx, workspaceId, row.id, null);
        }
        const season = toSeason(row);
        await this.changes.publish(tx, { topic: 'season', workspaceId });
        await this.audit.record(tx, actor, {
          workspaceId,
          action: 'SEASON_CREATED',
          targetType: 'season',
          targetId: season.id,
          before: null,
          after: replaced ? { ...season, replaced_active_season: replaced } : season,
        });
        if (season.active) {
          const ended = replaced ? await repo.findSeason(tx, workspaceId, replaced.id, true) : null;
          await this.announceActivation(tx, workspaceId, season, ended ? toSeason(ended) : null);
        }
        return season;
      });
    } catch (err) {
      throw sqlState(err) === UNIQUE_VIOLATION ? conflict(body.slug, err) : err;
    }
  }

  /**
   * Changes a season's name, slug, times or scoring (the fields given; a null time clears it), at any time: reads
   * follow at once (the change drops every cached season and value of the workspace). A season that is not active
   * and is given a start still ahead waits for it and activates by itself then; the active season's start cannot
   * be moved ahead (it has started), and its end, once passed, ends it (within seconds, by the schedule).
   */
  async update(actor: Actor, workspaceId: string, ref: string, input: unknown): Promise<Season> {
    const body = checkBody(UpdateSeasonRequest, input, 'The season is invalid.');
    try {
      return await this.db.transaction(async (tx) => {
        await repo.lockWorkspaceSeasons(tx, workspaceId);
        const row = await repo.findSeason(tx, workspaceId, ref, isUuid(ref));
        if (!row) throw new AppError('NOT_FOUND', `Season '${ref}' not found.`);
        const startedAt = body.started_at === undefined ? row.started_at : timeOf(body.started_at);
        const endedAt = body.ended_at === undefined ? row.ended_at : timeOf(body.ended_at);
        const now = Date.now();
        const p = new Problems();
        checkTimes(startedAt, endedAt, p);
        if (row.active && body.started_at !== undefined && (startedAt === null || startedAt.getTime() > now)) {
          p.add('started_at', 'must be set and not in the future: the season is active (it has started)');
        }
        p.throwIfAny('The season is invalid.');
        const write: repo.SeasonWrite = {
          name: body.name?.trim() ?? row.name,
          slug: body.slug ?? row.slug,
          startedAt,
          endedAt,
          scoring: body.scoring ?? row.scoring,
          // A season waiting to start keeps waiting when its start moves (to a time already come: it starts now).
          startPending: !row.active && startedAt !== null && (startedAt.getTime() > now || row.start_pending),
        };
        const before = toSeason(row);
        if (unchanged(row, write)) return before;
        const after = toSeason(await repo.updateSeason(tx, workspaceId, row.id, write));
        await this.changes.publish(tx, { topic: 'season', workspaceId });
        // Every read of the season's values (boards, ranks, a player's stats, history) follows its scoring.
        if (after.scoring !== before.scoring) await this.changes.publish(tx, { topic: 'values', workspaceId });
        await this.audit.record(tx, actor, {
          workspaceId,
          action: 'SEASON_UPDATED',
          targetType: 'season',
          targetId: after.id,
          before,
          after,
        });
        return after;
      });
    } catch (err) {
      throw sqlState(err) === UNIQUE_VIOLATION ? conflict(body.slug ?? ref, err) : err;
    }
  }

  /**
   * Activates a season by id or slug: the active one is deactivated in the same transaction (it has ended now:
   * its `ended_at` set when null or still ahead). The target runs from now on: its `started_at` set when null or
   * still ahead, and an `ended_at` already past (that of an earlier run) cleared; one still ahead is kept, and
   * ends it then.
   */
  async activate(actor: Actor, workspaceId: string, ref: string): Promise<Season> {
    return this.db.transaction(async (tx) => {
      await repo.lockWorkspaceSeasons(tx, workspaceId);
      const target = await repo.findSeason(tx, workspaceId, ref, isUuid(ref));
      if (!target) throw new AppError('NOT_FOUND', `Season '${ref}' not found.`);
      return (await this.switchTo(tx, actor, workspaceId, target, null)).season;
    });
  }

  /**
   * Makes `target` the active season at `at` (null: now), with its audit record, the change for caches, and
   * `season.activated` (and `season.ended` for the season it replaces) for webhooks. Under the workspace's lock.
   */
  private async switchTo(
    tx: Queryable,
    actor: Actor,
    workspaceId: string,
    target: repo.SeasonRow,
    at: Date | null,
  ): Promise<{ season: Season; previous: Season | null }> {
    const previous = await repo.findActiveSeason(tx, workspaceId);
    const season = toSeason(await repo.activateSeason(tx, workspaceId, target.id, at));
    await this.changes.publish(tx, { topic: 'season', workspaceId });
    await this.audit.record(tx, actor, {
      workspaceId,
      action: 'SEASON_ACTIVATED',
      targetType: 'season',
      targetId: season.id,
      before: {
        season: toSeason(target),
        active_season: previous && previous.id !== target.id ? toSeason(previous) : null,
      },
      after: season,
    });
    if (previous?.id === target.id) return { season, previous: null };
    const ended = previous ? await repo.findSeason(tx, workspaceId, previous.id, true) : null;
    const replaced = ended ? toSeason(ended) : null;
    await this.announceActivation(tx, workspaceId, season, replaced);
    return { season, previous: replaced };
  }

  /**
   * `season.activated` for the workspace's webhooks, in the transaction of the activation, and `season.ended` for
   * the season it replaced.
   */
  private async announceActivation(tx: Queryable, workspaceId: string, season: Season, previous: Season | null) {
    await this.outbox?.add(tx, workspaceId, 'season.activated', { season, previous });
    if (previous) await this.outbox?.add(tx, workspaceId, 'season.ended', { season: previous, next: season });
  }

  /**
   * Acts on the seasons' schedules as of `now`, in every workspace: a season waiting for its start activates
   * when it has come (the latest start, when several have; the season active before ends at that start), and
   * the active season ends when its `ended_at` has passed (then none is active). One short transaction per
   * workspace under the workspace's lock, which re-reads what is due: instances running this at once make each
   * transition exactly once. Audited with the actor `system`.
   */
  async runSchedules(now: Date): Promise<ScheduleTransition[]> {
    const done: ScheduleTransition[] = [];
    for (const workspaceId of await repo.workspacesWithDueSchedules(this.db, now)) {
      const t = await this.db.transaction((tx) => this.runSchedule(tx, workspaceId, now));
      if (t) done.push(t);
    }
    return done;
  }

  private async runSchedule(tx: Queryable, workspaceId: string, now: Date): Promise<ScheduleTransition | null> {
    await repo.lockWorkspaceSeasons(tx, workspaceId);
    const due = await repo.dueStarts(tx, workspaceId, now);
    // A season whose whole run passed while nothing looked (the service was stopped) does not start any more.
    const next = due.find((s) => s.ended_at === null || s.ended_at > now);
    const passed = due.filter((s) => s !== next).map((s) => s.id);
    if (passed.length > 0) await repo.clearStartPending(tx, workspaceId, passed);
    if (next) {
      const { season, previous } = await this.switchTo(tx, SYSTEM_ACTOR, workspaceId, next, next.started_at);
      return { type: 'activated', workspaceId, season, previous };
    }
    const active = await repo.findActiveSeason(tx, workspaceId);
    if (!active || active.ended_at === null || active.ended_at > now) return null;
    const season = toSeason(await repo.endSeason(tx, workspaceId, active.id));
    await this.changes.publish(tx, { topic: 'season', workspaceId });
    await this.audit.record(tx, SYSTEM_ACTOR, {
      workspaceId,
      action: 'SEASON_ENDED',
      targetType: 'season',
      targetId: season.id,
      before: toSeason(active),
      after: season,
    });
    await this.outbox?.add(tx, workspaceId, 'season.ended', { season, next: null });
    return { type: 'ended', workspaceId, season };
  }

  /** By id or slug, or null; at once when cached. */
  find(workspaceId: string, ref: string): Maybe<Season | null> {
    if (ref.length === 0 || ref.length > 255) return null;
    if (!this.cache) return this.load(workspaceId, ref);
    const key = `${workspaceId}|${ref}`;
    // Misses are not kept: every distinct unknown reference would take a place.
    return this.cache.peek(key) ?? this.cache.get(key, () => this.load(workspaceId, ref), isFound);
  }

  /** The active season, or null; at once when cached. */
  active(workspaceId: string): Maybe<Season | null> {
    if (!this.cache) return this.load(workspaceId, null);
    const key = `${workspaceId}|`;
    return this.cache.peek(key) ?? this.cache.get(key, () => this.load(workspaceId, null));
  }

  /** A season by id or slug, or the active one (`ref` null), from the database. */
  private async load(workspaceId: string, ref: string | null): Promise<Season | null> {
    const row =
      ref === null
        ? await repo.findActiveSeason(this.db, workspaceId)
        : await repo.findSeason(this.db, workspaceId, ref, isUuid(ref));
    return row ? toSeason(row) : null;
  }

  /** All seasons of the workspace, or only `onlyIds` when given (a key's season restriction). */
  async list(workspaceId: string, onlyIds: readonly string[] | null = null): Promise<Season[]> {
    return (await repo.listSeasons(this.db, workspaceId, onlyIds)).map(toSeason);
  }

  /**
   * `GET /seasons` as the answer's JSON in UTF-8 (`{data}`): the workspace's seasons, or only those of the key's
   * season restriction; at once when cached.
   */
  listJson(key: AuthKey): Maybe<Buffer> {
    const only = seasonFilter(key);
    const build = () => this.list(key.workspaceId, only).then((data) => Buffer.from(JSON.stringify({ data })));
    if (!this.lists) return build();
    const cacheKey = `${key.workspaceId}|${key.seasons.join(',')}`;
    return this.lists.peek(cacheKey) ?? this.lists.get(cacheKey, build);
  }

  /** The season a key reads (see `permittedSeason`); at once when cached. */
  readable(key: AuthKey, ref: string | undefined): Maybe<Season> {
    const season = ref === undefined || ref === '' ? this.active(key.workspaceId) : this.find(key.workspaceId, ref);
    return season instanceof Promise
      ? season.then((s) => permittedSeason(key, s, ref))
      : permittedSeason(key, season, ref);
  }
}
