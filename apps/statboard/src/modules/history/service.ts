import type { Db } from '#src/db/types.ts';
import { bucketRange, DAY_MS, type Interval } from '#src/lib/time-buckets.ts';
import type { AuthKey } from '#src/modules/api-keys/types.ts';
import type { LeaderboardService } from '#src/modules/leaderboards/service.ts';
import { type Player, type PlayerService, permittedPlayer } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import * as repo from './repo.ts';

export interface HistoryQuery {
  stat: string;
  season?: string;
  from?: string;
  to?: string;
  interval?: Interval;
}

export interface History {
  player: Player;
  season: Season;
  stat: string;
  interval: Interval;
  points: { at: string; value: number }[];
}

/** Default spans of a history query without `from`: 30 days by day, 7 days by hour. */
const DEFAULT_SPAN: Record<Interval, number> = { day: 30 * DAY_MS, hour: 7 * DAY_MS };

/** How values grew: reads of the points ingest records, and the fold that keeps their storage bounded. */
export class HistoryService {
  constructor(
    private readonly db: Db,
    private readonly players: PlayerService,
    private readonly seasons: SeasonService,
    private readonly leaderboards: LeaderboardService,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `GET /players/{player}/stats/history`: for each bucket in which the value changed, its value at the end of
   * that bucket, oldest first. The rules of `/players/{player}/stats` (player restriction 403, then the
   * season's rules, a hidden or unknown player 404) and of `/leaderboards` (an unknown or hidden statistic 404).
   */
  async history(key: AuthKey, playerParam: string, q: HistoryQuery): Promise<History> {
    permittedPlayer(key, playerParam);
    const range = bucketRange(q, this.now(), { interval: 'day', span: DEFAULT_SPAN }, 'history');
    const season = await this.seasons.readable(key, q.season);
    const player = await this.players.get(key, playerParam);
    const def = await this.leaderboards.definition(key.workspaceId, q.stat);
    const { before, buckets } = await repo.bucketValues(this.db, {
      playerId: player.id,
      seasonId: season.id,
      statId: def.id,
      ...range,
    });
    const points: History['points'] = [];
    let last = before;
    for (const b of buckets) {
      if (b.value !== last) points.push({ at: new Date(b.at).toISOString(), value: b.value });
      last = b.value;
    }
    return { player, season, stat: def.key, interval: range.interval, points };
  }
}
