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
  constructor(
    private readonly db: Db,
    private readonly seasons: SeasonService,
  ) {}

  async get(key: AuthKey, q: { season: string; stat: string; limit?: number }): Promise<Leaderboard> {
    const season = await this.seasons.readable(key, q.season);
    const def = q.stat.length <= 255 ? await repo.findDefinition(this.db, key.workspaceId, q.stat) : null;
    if (!def?.public) throw new AppError('NOT_FOUND', `Statistic '${q.stat}' not found.`);
    const rows = await repo.topValues(this.db, {
      seasonId: season.id,
      statId: def.id,
      order: def.sort_order,
      onlyUuids: key.players.length > 0 ? key.players : null,
      limit: clampLimit(q.limit),
    });
    const ranks = competitionRanks(rows.map((r) => r.value));
    return {
      season,
      stat: def.key,
      entries: rows.map((r, i) => ({
        rank: ranks[i]!,
        player: toPlayer(r),
        value: r.value,
        updated_at: isoRequired(r.updated_at),
      })),
    };
  }
}
