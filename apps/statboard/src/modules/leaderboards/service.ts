import type { Change } from '#src/cache/bus.ts';
import { type Cache, cacheFor } from '#src/cache/cache.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import { type Player, toPlayer } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import { clampLimit, competitionRanks } from './ranking.ts';
import * as repo from './repo.ts';

export interface Leaderboard {
  season: Season;
  stat: string;
  entries: { rank: number; player: Player; value: number; updated_at: string }[];
}

/** Ranked values of one statistic in one season. */
export class LeaderboardService {
  /** Definitions by `workspace|key` (hits only: a key seen later by ingest must not stay unknown). */
  private readonly definitions: Cache<string, repo.DefinitionRow | null> | null;
  /** The serialized answer (UTF-8 bytes, sent as they are) by `workspace|season|stat|limit`, for unrestricted keys. */
  private readonly tops: Cache<string, Buffer> | null;

  constructor(
    private readonly db: Db,
    private readonly seasons: SeasonService,
  ) {
    const definitions = cacheFor<string, repo.DefinitionRow | null>(db, 60_000, 20_000);
    const tops = cacheFor<string, Buffer>(db, 30_000, 2_000);
    this.definitions = definitions;
    this.tops = tops;
    if (definitions && tops) db.changes?.subscribe((c) => invalidate(c, definitions, tops));
  }

  private async definition(workspaceId: string, statKey: string): Promise<repo.DefinitionRow | null> {
    const load = () => repo.findDefinition(this.db, workspaceId, statKey);
    return this.definitions ? this.definitions.get(`${workspaceId}|${statKey}`, load, (d) => d !== null) : load();
  }

  /**
   * `GET /leaderboards` as the answer's JSON in UTF-8, built once per change and then served from the cache:
   * at once when every part of it is cached (the hot path, no promise), else built, or refused.
   */
  json(key: AuthKey, q: { season: string; stat: string; limit?: number }): Buffer | Promise<Buffer> {
    return this.cachedJson(key, q) ?? this.buildJson(key, q);
  }

  /**
   * The answer when season, statistic and board are all cached and readable by the key; else undefined (then
   * `json` has the error or loads it). Never throws, counts or answers nothing (a cache may start refreshing an
   * aging entry).
   */
  cachedJson(key: AuthKey, q: { season: string; stat: string; limit?: number }): Buffer | undefined {
    if (!this.tops || !this.definitions || key.players.length > 0) return undefined;
    const season = this.seasons.peekReadable(key, q.season);
    const def = season && this.definitions.peek(`${key.workspaceId}|${q.stat}`);
    if (!season || !def?.public) return undefined;
    return this.tops.peek(`${key.workspaceId}|${season.id}|${def.id}|${clampLimit(q.limit)}`);
  }

  /** The full path of `json`: every check with its error, then the cached board or one query. */
  private async buildJson(key: AuthKey, q: { season: string; stat: string; limit?: number }): Promise<Buffer> {
    const season = await this.seasons.readable(key, q.season);
    const def = q.stat.length <= 255 ? await this.definition(key.workspaceId, q.stat) : null;
    if (!def?.public) throw new AppError('NOT_FOUND', `Statistic '${q.stat}' not found.`);
    const limit = clampLimit(q.limit);
    const build = async () => {
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
    };
    return this.tops && key.players.length === 0
      ? this.tops.get(`${key.workspaceId}|${season.id}|${def.id}|${limit}`, build)
      : build();
  }

  async get(key: AuthKey, q: { season: string; stat: string; limit?: number }): Promise<Leaderboard> {
    return JSON.parse((await this.json(key, q)).toString('utf8'));
  }
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
