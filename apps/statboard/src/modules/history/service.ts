import type { Static } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { bucketRange, DAY_MS, type Interval } from '#src/lib/time-buckets.ts';
import type { DefinitionRow } from '#src/modules/leaderboards/repo.ts';
import { columnOf, type LeaderboardService } from '#src/modules/leaderboards/service.ts';
import type { PlayerValuesRow } from '#src/modules/players/repo.ts';
import { type PlayerService, permittedPlayer, toPlayer, visible } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import * as repo from './repo.ts';
import type { HistoryQuery as HistoryQuerySchema, History as HistorySchema } from './schemas.ts';

export type HistoryQuery = Static<typeof HistoryQuerySchema>;
export type History = Static<typeof HistorySchema>;

/** Default spans of a history query without `from`: 30 days by day, 7 days by hour. */
const DEFAULT_SPAN: Record<Interval, number> = { day: 30 * DAY_MS, hour: 7 * DAY_MS };

/** Bytes of cached history answers (30 days by day: ~1.5 KB, so ~10,000 answers). */
const HISTORY_CACHE_BYTES = 16 * 1024 * 1024;
const HISTORY_CACHE_MS = 30_000;
/**
 * Players whose history changed since the cache was last emptied (see `epochs`); past this the cache is emptied,
 * which bounds that map (a few MB) at the price of losing the cached answers once per so many uploaders.
 */
const MAX_EPOCHS = 20_000;

/** A built answer, and whether it may be kept (see `HistoryService.load`). */
interface Answer {
  json: Buffer;
  lasting: boolean;
}

/** How values grew: reads of the points ingest records, and the fold that keeps their storage bounded. */
export class HistoryService {
  /**
   * Serialized answers by `workspace|uuid|epoch|season id|[stat, interval, from, to]` (`to` null: up to now).
   * The key's restrictions are checked before the cache; the rest (the player shown, the statistic public) is
   * the workspace's and part of the answer, dropped when it changes.
   */
  private readonly answers: Cache<string, Answer> | null;
  /**
   * The last change of each player's history or name (`workspace|uuid` → a sequence number), part of the keys:
   * an upload, which names its players, makes their answers unreachable without a walk over the whole cache on
   * every write (they leave as newer answers need the room, or the cache is emptied).
   */
  private readonly epochs = new Map<string, number>();
  private sequence = 0;

  constructor(
    private readonly db: Db,
    changes: Changes,
    private readonly players: PlayerService,
    private readonly seasons: SeasonService,
    private readonly leaderboards: LeaderboardService,
    private readonly servers: ServerService,
    /** HISTORY_RETENTION_DAYS: hourly points older than this are folded (0: never). */
    private readonly retentionDays: number,
    private readonly now: () => number = Date.now,
  ) {
    const answers = changes.cache<string, Answer>('history', HISTORY_CACHE_MS, 100_000, {
      max: HISTORY_CACHE_BYTES,
      sizeOf: (a) => a.json.length + 200,
    });
    this.answers = answers;
    changes.onChange((c) => {
      if (!answers) return;
      if (c === null) {
        answers.clear();
        this.epochs.clear();
        return;
      }
      if (c.topic === 'key' || c.topic === 'server' || c.topic === 'roster' || c.topic === 'session') return;
      if ((c.topic === 'values' || c.topic === 'player') && c.players) {
        if (this.epochs.size + c.players.length > MAX_EPOCHS) {
          // Emptied together: a cleared epoch would otherwise make an old key current again.
          answers.clear();
          this.epochs.clear();
        }
        for (const p of c.players) this.epochs.set(`${c.workspaceId}|${p}`, ++this.sequence);
        return;
      }
      // A season's name, dates or activation, a statistic hidden, or values or players not named.
      answers.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
    });
  }

  /**
   * `GET /players/{player}/stats/history`: for each bucket in which the value changed, its value at the end of
   * that bucket, oldest first. The rules of `/players/{player}/stats` (player restriction 403, then the
   * season's rules, a hidden or unknown player 404) and of `/leaderboards` (an unknown or hidden statistic 404).
   */
  async history(key: AuthKey, playerParam: string, q: HistoryQuery): Promise<History> {
    permittedPlayer(key, playerParam);
    const range = bucketRange(q, this.now(), { interval: 'day', span: DEFAULT_SPAN }, 'history');
    const servers = await this.servers.readScope(key, q.server);
    const season = await this.seasons.readable(key, q.season);
    return this.read(key, playerParam, season, q.stat, range, servers);
  }

  /**
   * `history` as the answer's JSON in UTF-8: at once when cached (the key's player and season restrictions are
   * checked first), else built. Kept until the player's values, name or visibility, the statistic or a season of
   * the workspace change. An answer up to now (no `to`) is kept only while no observation lies ahead of the
   * clock; an hourly one only when the fold cannot reach its range while it lives.
   */
  historyJson(key: AuthKey, playerParam: string, q: HistoryQuery): Maybe<Buffer> {
    const uuid = permittedPlayer(key, playerParam);
    const range = bucketRange(q, this.now(), { interval: 'day', span: DEFAULT_SPAN }, 'history');
    // Some servers' values (`server=`, or a key restricted to servers): read each time, never cached.
    const scope = this.servers.readScope(key, q.server);
    if (scope !== null) {
      return Promise.resolve(scope).then(async (servers) => {
        const season = await this.seasons.readable(key, q.season);
        return toJson(await this.read(key, uuid, season, q.stat, range, servers));
      });
    }
    const season = this.seasons.readable(key, q.season);
    const upToNow = q.to === undefined;
    return season instanceof Promise
      ? season.then((s) => this.cachedJson(key, uuid, s, q.stat, range, upToNow))
      : this.cachedJson(key, uuid, season, q.stat, range, upToNow);
  }

  private cachedJson(
    key: AuthKey,
    uuid: string,
    season: Season,
    stat: string,
    range: { from: Date; to: Date; interval: Interval },
    upToNow: boolean,
  ): Maybe<Buffer> {
    if (!this.answers) return this.read(key, uuid, season, stat, range).then(toJson);
    const player = `${key.workspaceId}|${uuid}`;
    const terms = JSON.stringify([stat, range.interval, range.from.getTime(), upToNow ? null : range.to.getTime()]);
    const cacheKey = `${player}|${this.epochs.get(player) ?? 0}|${season.id}|${terms}`;
    const hit = this.answers.peek(cacheKey);
    if (hit !== undefined) return hit.json;
    // A reload (refresh-ahead) reads up to its own now.
    const load = () =>
      this.load(key, uuid, season, stat, upToNow ? { ...range, to: new Date(this.now()) } : range, upToNow);
    const answer = this.answers.get(cacheKey, load, (a) => a.lasting);
    return answer instanceof Promise ? answer.then((a) => a.json) : answer.json;
  }

  /**
   * The answer, and whether it may be kept: nothing in it may change before a write says so. An answer up to now
   * would take in an observation ahead of the clock (a client's clock running ahead) as now passes it, with no
   * write to drop it; the fold keeps only a day's last point, which changes hourly answers over the days it
   * reaches (daily answers keep their values).
   */
  private async load(
    key: AuthKey,
    uuid: string,
    season: Season,
    stat: string,
    range: { from: Date; to: Date; interval: Interval },
    upToNow: boolean,
  ): Promise<Answer> {
    const { history, next } = await this.resolve(key, uuid, season, stat, range);
    let lasting = true;
    if (range.interval === 'hour' && this.retentionDays > 0) {
      // Not kept if the fold may reach the range before the answer expires.
      const cutoff = Math.floor((this.now() + HISTORY_CACHE_MS - this.retentionDays * DAY_MS) / DAY_MS) * DAY_MS;
      if (range.from.getTime() < cutoff) lasting = false;
    }
    if (upToNow && next !== null) lasting = false;
    return { json: toJson(history), lasting };
  }

  private async read(
    key: AuthKey,
    playerParam: string,
    season: Season,
    stat: string,
    range: { from: Date; to: Date; interval: Interval },
    servers: readonly string[] | null = null,
  ): Promise<History> {
    return (await this.resolve(key, playerParam, season, stat, range, servers)).history;
  }

  /**
   * The answer, and when the next point after its range lies (see `repo.readHistory`): one statement, which
   * looks the player up too. An unknown statistic is checked first (its id is part of the statement), but a
   * player that is not there still answers first, as when the player was looked up before the statistic.
   */
  private async resolve(
    key: AuthKey,
    playerParam: string,
    season: Season,
    stat: string,
    range: { from: Date; to: Date; interval: Interval },
    servers: readonly string[] | null = null,
  ): Promise<{ history: History; next: Date | null }> {
    const uuid = permittedPlayer(key, playerParam);
    let def: DefinitionRow;
    try {
      def = await this.leaderboards.definition(key.workspaceId, stat);
    } catch (err) {
      await this.players.get(key, uuid);
      throw err;
    }
    const read = await repo.readHistory(this.db, { ...readOf(key, uuid, season, def.id, range), servers });
    const player = toPlayer(visible(read?.player ?? null));
    const history = { player, season, stat: def.key, interval: range.interval, points: pointsOf(read!) };
    return { history, next: read!.next };
  }

  /**
   * What a public player page reads, in one statement: the player's values in the season (as
   * `PlayerService.publicValuesOf` takes them) and the points of `stat` over the last 30 days by day, the network
   * totals (the page's chart; the same points as `historyJson` with no `from`, `to` nor `server`, their times in
   * milliseconds since the epoch). The player is not refused here: `publicValuesOf` does it, by the same rule.
   * Never cached (the page is).
   */
  async pageRead(
    key: AuthKey,
    playerParam: string,
    season: Season,
    stat: string,
  ): Promise<{ row: PlayerValuesRow | null; points: PagePoint[] }> {
    const uuid = permittedPlayer(key, playerParam);
    const range = bucketRange({ interval: 'day' }, this.now(), { interval: 'day', span: DEFAULT_SPAN }, 'history');
    const def = await this.leaderboards.definition(key.workspaceId, stat);
    const read = await repo.readPageValues(this.db, readOf(key, uuid, season, def.id, range));
    if (!read) return { row: null, points: [] };
    return {
      row: { ...read.player, values: read.playerValues },
      points: dayPoints(read, range.from.getTime(), range.to.getTime()),
    };
  }
}

/** A point of a page's chart: the start of its day (ms since the epoch, UTC) and the value at the end of it. */
export interface PagePoint {
  at: number;
  value: number;
}

/**
 * The points of a page's read by day, as `readHistory` makes them (see `networkHistorySql`) and `pointsOf` keeps
 * them: in each day of [from, to) that holds a point, the current value when it was observed that day, else the
 * day's last history point; the value before `from` likewise (the current value when observed before it); then
 * only the days whose value differs from the one before.
 */
function dayPoints(read: repo.PageValuesRead, from: number, to: number): PagePoint[] {
  const cur = read.current;
  const curIn = cur !== null && cur.at >= from && cur.at < to;
  const curDay = curIn ? dayOf(cur.at) : Number.NaN;
  let last = cur !== null && cur.at < from ? cur.value : read.before;
  const points: PagePoint[] = [];
  const emit = (at: number, value: number) => {
    if (value !== last) points.push({ at, value });
    last = value;
  };
  const { points: raw } = read;
  let curDone = !curIn;
  for (let i = 0; i < raw.length; i += 2) {
    const day = dayOf(raw[i]!);
    // Only the day's last point counts, and none of a day the current value was observed in.
    if (day === curDay || (i + 2 < raw.length && dayOf(raw[i + 2]!) === day)) continue;
    if (!curDone && curDay < day) {
      emit(curDay, cur!.value);
      curDone = true;
    }
    emit(day, raw[i + 1]!);
  }
  if (!curDone) emit(curDay, cur!.value);
  return points;
}

/** The start of the UTC day of `at` (ms since the epoch), as `date_trunc('day', at, 'UTC')`. */
function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** What a read of the player's points of one statistic names: whose, which season, statistic and range, what column. */
function readOf(
  key: AuthKey,
  uuid: string,
  season: Season,
  statId: string,
  range: { from: Date; to: Date; interval: Interval },
) {
  return { workspaceId: key.workspaceId, uuid, seasonId: season.id, statId, ...range, column: columnOf(season) };
}

/** The points of a read: the value at the end of each bucket, less those equal to the one before. */
function pointsOf(read: repo.HistoryRead): History['points'] {
  const points: History['points'] = [];
  let last = read.before;
  const { at, values } = read;
  for (let i = 0; i < at.length; i++) {
    const value = values[i]!;
    if (value !== last) points.push({ at: at[i]!, value });
    last = value;
  }
  return points;
}

/** The answer's JSON, as the route's schema writes it (the properties in the same order). */
function toJson(h: History): Buffer {
  return Buffer.from(JSON.stringify(h));
}
