import type { Change } from '#src/cache/bus.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { AuthKey } from '#src/modules/api-keys/types.ts';
import { type Player, toPlayer } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import { clampLimit, competitionRanks } from './ranking.ts';
import * as repo from './repo.ts';

export interface Leaderboard {
  season: Season;
  stat: string;
  entries: { rank: number; player: Player; value: number; updated_at: string }[];
}

export interface LeaderboardQuery {
  season: string;
  stat: string;
  limit?: number;
}

/** Ranked values of one statistic in one season. */
export class LeaderboardService {
  /** Definitions by `workspace|key` (hits only: a key seen later by ingest must not stay unknown). */
  private readonly definitions: Cache<string, repo.DefinitionRow | null> | null;
  /** The serialized answer (UTF-8 bytes, sent as they are) by `workspace|season|stat|limit`, for unrestricted keys. */
  private readonly tops: Cache<string, Buffer> | null;

  constructor(
    private readonly db: Db,
    changes: Changes,
    private readonly seasons: SeasonService,
  ) {
    const definitions = changes.cache<string, repo.DefinitionRow | null>(60_000, 20_000);
    const tops = changes.cache<string, Buffer>(30_000, 2_000);
    this.definitions = definitions;
    this.tops = tops;
    if (definitions && tops) changes.onChange((c) => invalidate(c, definitions, tops));
  }

  /** A public statistic definition by key; unknown or not public is 404. At once when cached. */
  private publicDefinition(workspaceId: string, statKey: string): Maybe<repo.DefinitionRow> {
    if (statKey.length > 255) return publicOnly(null, statKey);
    const key = `${workspaceId}|${statKey}`;
    const def = this.definitions
      ? (this.definitions.peek(key) ??
        this.definitions.get(key, () => repo.findDefinition(this.db, workspaceId, statKey), isFound))
      : repo.findDefinition(this.db, workspaceId, statKey);
    return def instanceof Promise ? def.then((d) => publicOnly(d, statKey)) : publicOnly(def, statKey);
  }

  /**
   * `GET /leaderboards` as the answer's JSON in UTF-8, built once per change and then served from the cache (for
   * keys without a player restriction, whose boards are their own): at once when every part of it is cached,
   * else built, or refused. (No closure is made on that path: each step is a method, called at once or later.)
   */
  json(key: AuthKey, q: LeaderboardQuery): Maybe<Buffer> {
    const season = this.seasons.readable(key, q.season);
    return season instanceof Promise ? season.then((s) => this.jsonIn(key, q, s)) : this.jsonIn(key, q, season);
  }

  private jsonIn(key: AuthKey, q: LeaderboardQuery, season: Season): Maybe<Buffer> {
    const def = this.publicDefinition(key.workspaceId, q.stat);
    return def instanceof Promise ? def.then((d) => this.top(key, q, season, d)) : this.top(key, q, season, def);
  }

  private top(key: AuthKey, q: LeaderboardQuery, season: Season, def: repo.DefinitionRow): Maybe<Buffer> {
    const limit = clampLimit(q.limit);
    if (!this.tops || key.players.length > 0) return this.build(key, season, def, limit);
    const cacheKey = `${key.workspaceId}|${season.id}|${def.id}|${limit}`;
    return this.tops.peek(cacheKey) ?? this.tops.get(cacheKey, () => this.build(key, season, def, limit));
  }

  /** The answer of `json`, with one query. */
  private async build(key: AuthKey, season: Season, def: repo.DefinitionRow, limit: number): Promise<Buffer> {
    const rows = await repo.topValues(this.db, {
      seasonId: season.id,
      statId: def.id,
      order: def.sort_order,
      onlyUuids: key.players.length > 0 ? key.players : null,
      limit,
    });
    const ranks = competitionRanks(rows.map((r) => r.value));
    const board: Leaderboard = {
      season,
      stat: def.key,
      entries: rows.map((r, i) => ({
        rank: ranks[i]!,
        player: toPlayer(r),
        value: r.value,
        updated_at: isoRequired(r.updated_at),
      })),
    };
    return Buffer.from(JSON.stringify(board));
  }
}

function isFound(def: repo.DefinitionRow | null): boolean {
  return def !== null;
}

/** The definition when it is public; unknown or not public is 404. */
function publicOnly(def: repo.DefinitionRow | null, statKey: string): repo.DefinitionRow {
  if (!def?.public) throw new AppError('NOT_FOUND', `Statistic '${statKey}' not found.`);
  return def;
}

/** Drops what a change may have made stale. */
function invalidate(
  c: Change | null,
  definitions: Cache<string, repo.DefinitionRow | null>,
  tops: Cache<string, Buffer>,
): void {
  if (c === null) {
    definitions.clear();
    tops.clear();
    return;
  }
  if (c.topic === 'key' || c.topic === 'server') return;
  const ws = `${c.workspaceId}|`;
  if (c.topic === 'definition') definitions.deleteWhere((k) => k.startsWith(ws));
  if (c.topic === 'values' && c.pairs) {
    const touched = new Set(c.pairs.map(([season, stat]) => `${ws}${season}|${stat}|`));
    tops.deleteWhere((k) => touched.has(k.slice(0, k.lastIndexOf('|') + 1)));
  } else {
    // Visibility or names of players, definitions, seasons, or values without detail: the whole workspace.
    tops.deleteWhere((k) => k.startsWith(ws));
  }
}
