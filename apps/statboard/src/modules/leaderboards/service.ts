import type { Change } from '#src/cache/bus.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { AuthKey } from '#src/modules/api-keys/types.ts';
import { type Player, permittedPlayer, toPlayer } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import type { BoardCache, BoardRef } from './boards.ts';
import type { BoardEntry } from './rank-board.ts';
import { clampLimit, competitionRanks } from './ranking.ts';
import * as repo from './repo.ts';

export interface RankedEntry {
  rank: number;
  player: Player;
  value: number;
  updated_at: string;
}

export interface Leaderboard {
  season: Season;
  stat: string;
  entries: RankedEntry[];
}

export interface LeaderboardQuery {
  season: string;
  stat: string;
  limit?: number;
  /** Entries skipped (0–10000); ranks stay those of the whole board. */
  offset?: number;
}

export interface RankQuery {
  season: string;
  stat: string;
  player: string;
  /** Entries shown above and below the player (0–50, default 5). */
  around?: number;
}

/** `GET /leaderboards/rank`: a player's entry and its neighbourhood. */
export interface PlayerRank {
  season: Season;
  stat: string;
  /** Public players with a value. */
  total: number;
  entry: RankedEntry;
  entries: RankedEntry[];
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
    private readonly boards: BoardCache,
  ) {
    const definitions = changes.cache<string, repo.DefinitionRow | null>(60_000, 20_000);
    const tops = changes.cache<string, Buffer>(30_000, 2_000);
    this.definitions = definitions;
    this.tops = tops;
    if (definitions && tops) changes.onChange((c) => invalidate(c, definitions, tops));
  }

  /** A public statistic definition by key; unknown or not public is 404 (the rule of every key read of one). */
  async definition(workspaceId: string, statKey: string): Promise<repo.DefinitionRow> {
    return this.publicDefinition(workspaceId, statKey);
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
    const offset = q.offset ?? 0;
    // Only the tops are cached as answers: pages further down are slices of the rank board (kept in memory), and
    // thousands of them would push the tops out.
    if (!this.tops || key.players.length > 0 || offset > 0) return this.build(key, season, def, limit, offset);
    const cacheKey = `${key.workspaceId}|${season.id}|${def.id}|${limit}`;
    return this.tops.peek(cacheKey) ?? this.tops.get(cacheKey, () => this.build(key, season, def, limit, 0));
  }

  /**
   * The answer of `json`. The top of a board is one query; a page further down comes from the rank board (its
   * ranks are global without counting the entries before it); a player-restricted key's board is its players'.
   */
  private async build(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    limit: number,
    offset: number,
  ): Promise<Buffer> {
    let entries: RankedEntry[];
    if (offset > 0 && key.players.length === 0) {
      const board = await this.boards.board(this.boardRef(key, season, def));
      entries = await this.withPlayers(key.workspaceId, board.slice(offset, offset + limit));
    } else {
      const rows = await repo.topValues(this.db, {
        seasonId: season.id,
        statId: def.id,
        order: def.sort_order,
        onlyUuids: key.players.length > 0 ? key.players : null,
        limit: offset + limit,
      });
      const ranks = competitionRanks(rows.map((r) => r.value));
      entries = rows.slice(offset).map((r, i) => ({
        rank: ranks[offset + i]!,
        player: toPlayer(r),
        value: r.value,
        updated_at: isoRequired(r.updated_at),
      }));
    }
    const board: Leaderboard = { season, stat: def.key, entries };
    return Buffer.from(JSON.stringify(board));
  }

  /**
   * `GET /leaderboards/rank`: the player's entry and up to `around` entries on each side, with the ranks and
   * order of `/leaderboards` (the same board for a player-restricted key: its own players'). A player outside
   * the key's restriction is 403 before anything is looked up; one without a public value 404.
   */
  async rank(key: AuthKey, q: RankQuery): Promise<PlayerRank> {
    const uuid = permittedPlayer(key, q.player);
    const season = await this.seasons.readable(key, q.season);
    const def = await this.publicDefinition(key.workspaceId, q.stat);
    const around = q.around ?? 5;
    let total: number;
    let window: { entry: BoardEntry; rank: number }[];
    if (key.players.length === 0) {
      const board = await this.boards.board(this.boardRef(key, season, def));
      const index = board.indexOf(uuid);
      if (index < 0) throw noValue(def.key);
      total = board.size;
      window = board.slice(index - around, index + around + 1);
    } else {
      const rows = await repo.topValues(this.db, {
        seasonId: season.id,
        statId: def.id,
        order: def.sort_order,
        onlyUuids: key.players,
        limit: key.players.length,
      });
      const index = rows.findIndex((r) => r.uuid === uuid);
      if (index < 0) throw noValue(def.key);
      const ranks = competitionRanks(rows.map((r) => r.value));
      total = rows.length;
      const from = Math.max(0, index - around);
      window = rows.slice(from, index + around + 1).map((r, i) => ({
        entry: { uuid: r.uuid, value: r.value, at: r.updated_at.getTime() * 1000 },
        rank: ranks[from + i]!,
      }));
    }
    const entries = await this.withPlayers(key.workspaceId, window);
    const entry = entries.find((e) => e.player.uuid === uuid);
    // Hidden between the board's read and the players': no public value any more.
    if (!entry) throw noValue(def.key);
    return { season, stat: def.key, total, entry, entries };
  }

  private boardRef(key: AuthKey, season: Season, def: repo.DefinitionRow): BoardRef {
    return { workspaceId: key.workspaceId, seasonId: season.id, statId: def.id, order: def.sort_order };
  }

  /** Board entries as the answer's entries: the players read with one query (their names may change). */
  private async withPlayers(
    workspaceId: string,
    window: { entry: BoardEntry; rank: number }[],
  ): Promise<RankedEntry[]> {
    if (window.length === 0) return [];
    // The board's own players first (loaded with it, kept current); one query for any it does not know.
    const players = new Map<string, { id: string; uuid: string; username: string; public: boolean }>();
    const missing: string[] = [];
    for (const { entry } of window) {
      const known = this.boards.player(workspaceId, entry.uuid);
      if (known) players.set(entry.uuid, { ...known, public: true });
      else missing.push(entry.uuid);
    }
    if (missing.length > 0) {
      for (const p of await repo.playersByUuid(this.db, workspaceId, missing)) players.set(p.uuid, p);
    }
    const out: RankedEntry[] = [];
    for (const { entry, rank } of window) {
      const p = players.get(entry.uuid);
      // Gone or hidden since the board was read: left out, as the next read of the board will.
      if (!p?.public) continue;
      out.push({
        rank,
        player: toPlayer(p),
        value: entry.value,
        updated_at: new Date(Math.floor(entry.at / 1000)).toISOString(),
      });
    }
    return out;
  }
}

function noValue(statKey: string): AppError {
  return new AppError('NOT_FOUND', `That player has no public value of '${statKey}' in this season.`);
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
