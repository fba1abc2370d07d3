import { type Cache, cacheFor } from '#src/cache/cache.ts';
import { type Db, publishChange } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { iso } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { optionalDate, Problems, text } from '#src/lib/validate.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import * as repo from './repo.ts';

/** The spec's Season resource. */
export interface Season {
  id: string;
  name: string;
  slug: string;
  active: boolean;
  started_at: string | null;
  ended_at: string | null;
}

export interface SeasonInput {
  name?: unknown;
  slug?: unknown;
  started_at?: unknown;
  ended_at?: unknown;
  active?: unknown;
}

export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function toSeason(row: repo.SeasonRow): Season {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    active: row.active,
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
  };
}

/** Seasons: statistics are kept per season; ingest writes into the one active season. */
export class SeasonService {
  /** Seasons by `workspace|ref` and the active one by `workspace|` (null: none), for hot paths. */
  private readonly cache: Cache<string, Season | null> | null;

  constructor(private readonly db: Db) {
    const cache = cacheFor<string, Season | null>(db, 60_000, 10_000);
    this.cache = cache;
    if (cache) {
      db.changes?.subscribe((c) => {
        if (c === null) cache.clear();
        else if (c.topic === 'season') cache.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      });
    }
  }

  async create(workspaceId: string, input: SeasonInput): Promise<Season> {
    const p = new Problems();
    const name = text(p, 'name', input.name, 1, 120);
    const slug = typeof input.slug === 'string' ? input.slug : '';
    if (slug.length < 1 || slug.length > 120 || !SLUG_RE.test(slug)) {
      p.add('slug', 'must be 1 to 120 lower-case letters, digits and single hyphens');
    }
    const startedAt = optionalDate(p, 'started_at', input.started_at);
    const endedAt = optionalDate(p, 'ended_at', input.ended_at);
    if (startedAt && endedAt && endedAt < startedAt) p.add('ended_at', 'must not be before started_at');
    if (input.active !== undefined && typeof input.active !== 'boolean') p.add('active', 'must be a boolean');
    p.throwIfAny('The season is invalid.');
    try {
      return await this.db.transaction(async (tx) => {
        let row = await repo.insertSeason(tx, workspaceId, { name, slug, startedAt, endedAt });
        if (input.active === true) {
          await repo.lockWorkspaceSeasons(tx, workspaceId);
          row = await repo.activateSeason(tx, workspaceId, row.id);
        }
        await publishChange(tx, { topic: 'season', workspaceId });
        return toSeason(row);
      });
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) {
        throw new AppError('CONFLICT', `A season with slug '${slug}' exists.`, undefined, { cause: err });
      }
      throw err;
    }
  }

  /** Activates a season by id or slug and returns it with the one it replaced (if any). */
  async activate(workspaceId: string, ref: string): Promise<{ season: Season; previous: Season | null }> {
    return this.db.transaction(async (tx) => {
      await repo.lockWorkspaceSeasons(tx, workspaceId);
      const target = await repo.findSeason(tx, workspaceId, ref, isUuid(ref));
      if (!target) throw new AppError('NOT_FOUND', `Season '${ref}' not found.`);
      const previous = await repo.findActiveSeason(tx, workspaceId);
      const row = await repo.activateSeason(tx, workspaceId, target.id);
      await publishChange(tx, { topic: 'season', workspaceId });
      return { season: toSeason(row), previous: previous && previous.id !== row.id ? toSeason(previous) : null };
    });
  }

  /** By id or slug, or null. */
  async find(workspaceId: string, ref: string): Promise<Season | null> {
    if (ref.length === 0 || ref.length > 255) return null;
    const load = async () => {
      const row = await repo.findSeason(this.db, workspaceId, ref, isUuid(ref));
      return row ? toSeason(row) : null;
    };
    // Misses are not kept: every distinct unknown reference would take a place.
    return this.cache ? this.cache.get(`${workspaceId}|${ref}`, load, (s) => s !== null) : load();
  }

  async active(workspaceId: string): Promise<Season | null> {
    const load = async () => {
      const row = await repo.findActiveSeason(this.db, workspaceId);
      return row ? toSeason(row) : null;
    };
    return this.cache ? this.cache.get(`${workspaceId}|`, load) : load();
  }

  /** All seasons of the workspace, or only `onlyIds` when given (a key's season restriction). */
  async list(workspaceId: string, onlyIds: readonly string[] | null = null): Promise<Season[]> {
    return (await repo.listSeasons(this.db, workspaceId, onlyIds)).map(toSeason);
  }

  /**
   * `readable` without waiting, for the hot path: the season when it is cached and the key may read it, else
   * undefined (then call `readable`, which also raises the errors).
   */
  peekReadable(key: AuthKey, ref: string | undefined): Season | undefined {
    const season = this.cache?.peek(
      ref === undefined || ref === '' ? `${key.workspaceId}|` : `${key.workspaceId}|${ref}`,
    );
    if (!season) return undefined;
    return key.seasons.length === 0 || key.seasons.includes(season.id) ? season : undefined;
  }

  /**
   * The season a key reads: by id or slug, or the active one when no reference is given. Unknown, or no
   * active season, 404; outside the key's season restriction 403.
   */
  async readable(key: AuthKey, ref: string | undefined): Promise<Season> {
    const none = ref === undefined || ref === '';
    const season = none ? await this.active(key.workspaceId) : await this.find(key.workspaceId, ref);
    if (!season) throw new AppError('NOT_FOUND', none ? 'There is no active season.' : `Season '${ref}' not found.`);
    if (key.seasons.length > 0 && !key.seasons.includes(season.id)) {
      throw new AppError('FORBIDDEN', 'This API key may not read that season.');
    }
    return season;
  }
}
