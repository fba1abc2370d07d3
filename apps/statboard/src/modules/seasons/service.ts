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
import type { AuditService } from '#src/modules/audit-log/service.ts';
import type { Outbox } from '#src/modules/webhooks/outbox.ts';
import * as repo from './repo.ts';
import { CreateSeasonRequest } from './schemas.ts';

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
  };
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
   * change only by a creation or an activation (which announce it); nothing in the answer follows the date.
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
    const startedAt = body.started_at == null ? null : new Date(body.started_at);
    const endedAt = body.ended_at == null ? null : new Date(body.ended_at);
    const p = new Problems();
    if (startedAt && endedAt && endedAt < startedAt) p.add('ended_at', 'must not be before started_at');
    p.throwIfAny('The season is invalid.');
    try {
      return await this.db.transaction(async (tx) => {
        let row = await repo.insertSeason(tx, workspaceId, {
          name: body.name.trim(),
          slug: body.slug,
          startedAt,
          endedAt,
        });
        let replaced: Season | null = null;
        if (body.active === true) {
          await repo.lockWorkspaceSeasons(tx, workspaceId);
          const previous = await repo.findActiveSeason(tx, workspaceId);
          replaced = previous ? toSeason(previous) : null;
          row = await repo.activateSeason(tx, workspaceId, row.id);
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
      if (sqlState(err) === UNIQUE_VIOLATION) {
        throw new AppError('CONFLICT', `A season with slug '${body.slug}' exists.`, undefined, { cause: err });
      }
      throw err;
    }
  }

  /**
   * Activates a season by id or slug: the active one is deactivated in the same transaction (its `ended_at` set
   * when null), and the target's `started_at` set when null.
   */
  async activate(actor: Actor, workspaceId: string, ref: string): Promise<Season> {
    return this.db.transaction(async (tx) => {
      await repo.lockWorkspaceSeasons(tx, workspaceId);
      const target = await repo.findSeason(tx, workspaceId, ref, isUuid(ref));
      if (!target) throw new AppError('NOT_FOUND', `Season '${ref}' not found.`);
      const previous = await repo.findActiveSeason(tx, workspaceId);
      const season = toSeason(await repo.activateSeason(tx, workspaceId, target.id));
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
      if (!previous || previous.id !== target.id) {
        const ended = previous ? await repo.findSeason(tx, workspaceId, previous.id, true) : null;
        await this.announceActivation(tx, workspaceId, season, ended ? toSeason(ended) : null);
      }
      return season;
    });
  }

  /** `season.activated` for the workspace's webhooks, in the transaction of the activation. */
  private async announceActivation(tx: Queryable, workspaceId: string, season: Season, previous: Season | null) {
    await this.outbox?.add(tx, workspaceId, 'season.activated', { season, previous });
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
