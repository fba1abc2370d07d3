import type { Static } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import { playerFilter, restrictsPlayers, restrictsServers } from '#src/access/restrictions.ts';
import type { Change } from '#src/cache/bus.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { isoRequired } from '#src/lib/time.ts';
import { permittedPlayer, toPlayer } from '#src/modules/players/service.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import { type BoardCache, type BoardRef, boardEntry, type HeldBoard, NO_STATS } from './boards.ts';
import type { CompactBoard } from './compact-board.ts';
import { type BoardEntry, entryTail, RankBoard } from './rank-board.ts';
import { clampLimit, competitionRanks } from './ranking.ts';
import * as repo from './repo.ts';
import type {
  LeaderboardEntry,
  LeaderboardQuery as LeaderboardQuerySchema,
  Leaderboard as LeaderboardSchema,
  RankQuery as RankQuerySchema,
} from './schemas.ts';

export type RankedEntry = Static<typeof LeaderboardEntry>;
export type Leaderboard = Static<typeof LeaderboardSchema>;
export type LeaderboardQuery = Static<typeof LeaderboardQuerySchema>;
export type RankQuery = Static<typeof RankQuerySchema>;

/** Bytes of cached leaderboard tops (a top 100 is ~12 KB, a top 10 ~1.3 KB). */
const TOP_CACHE_BYTES = 16 * 1024 * 1024;

/** How long an answer waits for its board being read before it queries the board instead. */
const LOAD_WAIT_MS = 1_000;
/** Rounds of `seekPage` past hidden players' values before a page falls back to skipping row by row. */
const SEEK_ROUNDS = 4;

/** Bytes of cached ranks and pages past the top (a rank with `around=5` is ~2.5 KB, a page of 100 ~12 KB). */
const RANK_ANSWER_CACHE_BYTES = 16 * 1024 * 1024;
/**
 * Boards summed over some servers (`server=`, keys restricted to servers), kept whole until one of their values
 * changes: about 200 bytes an entry, so a board of 100,000 players on a server is ~20 MB and one of more than
 * ~160,000 is read for every request instead (see docs/scaling.md).
 */
const SERVER_BOARD_CACHE_BYTES = 32 * 1024 * 1024;
const SERVER_BOARD_ENTRY_BYTES = 200;
/** Players of a workspace `networkRanks` counts at most (a larger network is never ranked that way). */
const NETWORK_RANK_PLAYERS = 10_000;
/**
 * Values a statistic counts as in PUBLIC_RANK_VALUES at least, however few its players: each costs two index
 * lookups (~10–20 µs, as much as ~100 values read; bench/site/counted-ranks.ts).
 */
const MIN_RANK_VALUES = 100;
/** How long a workspace's count of players holds for `networkRanks`. */
const PLAYER_COUNT_MS = 60_000;

/** A player's value of a statistic (by id) to rank, with its board's order (`networkRanks`). */
export interface RankedValue {
  statId: string;
  value: number;
  order: 'asc' | 'desc';
}

/** Ranks and their boards' sizes, by statistic id. */
export type NetworkRanks = Map<string, { rank: number; total: number }>;

/** Ranked values of one statistic in one season. */
export class LeaderboardService {
  /** Definitions by `workspace|key` (hits only: a key seen later by ingest must not stay unknown). */
  private readonly definitions: Cache<string, repo.DefinitionRow | null> | null;
  /** The serialized answer (UTF-8 bytes, sent as they are) by `workspace|season|stat|limit`, for unrestricted keys. */
  private readonly tops: Cache<string, Buffer> | null;
  /**
   * Ranks by `workspace|season|stat|r:player:around` and pages past the top by `workspace|season|stat|o:offset:limit`
   * (the serialized answers, for unrestricted keys): dropped with their board's values, as the tops are.
   */
  private readonly answers: Cache<string, Buffer> | null;
  private readonly serverBoards: Cache<string, RankBoard> | null;
  /** Each workspace's players counted up to NETWORK_RANK_PLAYERS + 1 (or the count in progress), until when. */
  private readonly playerCounts = new Map<string, { n: Maybe<number>; until: number }>();

  constructor(
    private readonly db: Db,
    changes: Changes,
    private readonly seasons: SeasonService,
    /** The rank boards held in memory (read by tests to know which kind answers). */
    readonly boards: BoardCache,
    private readonly servers: ServerService,
    /** PUBLIC_RANK_VALUES: the players times statistics `networkRanks` counts at most (0: it never counts). */
    private readonly networkRankValues = 0,
  ) {
    const definitions = changes.cache<string, repo.DefinitionRow | null>('stat_definition', 60_000, 20_000);
    const tops = changes.cache<string, Buffer>('leaderboard_top', 30_000, 2_000, {
      max: TOP_CACHE_BYTES,
      sizeOf: (b) => b.length + 100,
    });
    const answers = changes.cache<string, Buffer>('rank_answer', 30_000, 10_000, {
      max: RANK_ANSWER_CACHE_BYTES,
      sizeOf: (b) => b.length + 150,
    });
    const serverBoards = changes.cache<string, RankBoard>('server_board', 30_000, 500, {
      max: SERVER_BOARD_CACHE_BYTES,
      sizeOf: (b) => b.size * SERVER_BOARD_ENTRY_BYTES + 200,
    });
    this.definitions = definitions;
    this.tops = tops;
    this.answers = answers;
    this.serverBoards = serverBoards;
    if (definitions && tops && answers && serverBoards) {
      changes.onChange((c) => invalidate(c, definitions, [tops, answers, serverBoards]));
    }
  }

  /**
   * A public statistic definition by key; unknown or not public is 404 (the rule of every key read of one). At
   * once when cached (a public page looks up one per value it shows).
   */
  definition(workspaceId: string, statKey: string): Maybe<repo.DefinitionRow> {
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
    const scope = this.servers.readScope(key, q.server);
    if (scope === null) return this.networkJson(key, q);
    return Promise.resolve(scope).then((servers) =>
      servers === null ? this.networkJson(key, q) : this.serversJson(key, q, servers),
    );
  }

  /** `json` of the network totals (the stored sums over every server). */
  private networkJson(key: AuthKey, q: LeaderboardQuery): Maybe<Buffer> {
    const season = this.seasons.readable(key, q.season);
    return season instanceof Promise ? season.then((s) => this.jsonIn(key, q, s)) : this.jsonIn(key, q, season);
  }

  private jsonIn(key: AuthKey, q: LeaderboardQuery, season: Season): Maybe<Buffer> {
    const def = this.publicDefinition(key.workspaceId, q.stat);
    return def instanceof Promise ? def.then((d) => this.top(key, q, season, d)) : this.top(key, q, season, def);
  }

  /**
   * `json` of some servers (`server=`, or a key restricted to servers): one server's board is answered as the
   * network's (held in memory, else read from `server_stats`); several servers' (or a key's few players') is
   * summed at read time (`serverBoard`).
   */
  private async serversJson(key: AuthKey, q: LeaderboardQuery, servers: readonly string[]): Promise<Buffer> {
    const season = await this.seasons.readable(key, q.season);
    const def = await this.publicDefinition(key.workspaceId, q.stat);
    const server = indexedServer(key, servers);
    // One server's board is answered as the network's are (held in memory, else from its index).
    if (server !== null) return this.top(key, q, season, def, server);
    const board = await this.serverBoard(key, season, def, servers);
    return page(board, season, def, q.offset ?? 0, clampLimit(q.limit));
  }

  /**
   * The board summed over `servers`, read whole (one statement over the board's values on those servers), and kept
   * until one of its values changes, for every key reading the same servers (a key restricted to players reads
   * its own).
   */
  private async serverBoard(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    servers: readonly string[],
  ): Promise<RankBoard> {
    const column = columnOf(season);
    const read = async () => {
      const rows = await repo.serverBoardEntries(this.db, {
        seasonId: season.id,
        statId: def.id,
        servers,
        onlyUuids: playerFilter(key),
        column,
      });
      return new RankBoard(def.sort_order, rows.map(boardEntry));
    };
    if (!this.serverBoards || restrictsPlayers(key)) return read();
    const cacheKey = `${key.workspaceId}|${season.id}|${def.id}|s:${column}:${[...servers].sort().join(',')}`;
    return this.serverBoards.peek(cacheKey) ?? this.serverBoards.get(cacheKey, read);
  }

  /** `json` of one board: the network totals, or `server`'s values alone. */
  private top(
    key: AuthKey,
    q: LeaderboardQuery,
    season: Season,
    def: repo.DefinitionRow,
    server: string | null = null,
  ): Maybe<Buffer> {
    const limit = clampLimit(q.limit);
    const offset = q.offset ?? 0;
    if (restrictsPlayers(key)) return this.build(key, season, def, limit, offset);
    // A server's answers are cached beside the network's, under the same board (dropped with its values).
    const srv = server ? `${server}:` : '';
    // A page further down is a slice of the rank board (its ranks are global without counting the entries before
    // it), at once when the board is current; only the tops are cached as answers (thousands of pages would push
    // them out).
    if (offset > 0) {
      const answer = () =>
        this.withBoard(
          key,
          season,
          def,
          (board) => page(board, season, def, offset, limit),
          (board, ref) => this.countedPage(board, ref, season, def, offset, limit),
          () => this.queriedPage(key.workspaceId, season, def, offset, limit, server),
          server,
        );
      return this.cachedAnswer(`${key.workspaceId}|${season.id}|${def.id}|o:${srv}${offset}:${limit}`, answer);
    }
    if (!this.tops) return this.build(key, season, def, limit, 0, server);
    const cacheKey = `${key.workspaceId}|${season.id}|${def.id}|${srv}${limit}`;
    return this.tops.peek(cacheKey) ?? this.tops.get(cacheKey, () => this.build(key, season, def, limit, 0, server));
  }

  /** An answer (of an unrestricted key) from the answers' cache, at once when it is there, else `answer`'s. */
  private cachedAnswer(cacheKey: string, answer: () => Maybe<Buffer>): Maybe<Buffer> {
    if (!this.answers) return answer();
    return this.answers.peek(cacheKey) ?? this.answers.get(cacheKey, async () => answer());
  }

  /**
   * `answer` of the current board: at once when it is current, else once it is read; `counted` when only its
   * counts are held (a compact board); `query` when the board is not held in memory (larger than RANK_CACHE_MB,
   * or no cache).
   */
  private withBoard(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    answer: (board: RankBoard) => Buffer,
    counted: (board: CompactBoard, ref: BoardRef) => Promise<Buffer>,
    query: () => Promise<Buffer>,
    /** One server's board instead of the network's. */
    serverId: string | null = null,
  ): Maybe<Buffer> {
    // A season that counts gains ranks its gains: boards of them are held apart from boards of values.
    const ref = boardRefOf(key.workspaceId, season, def, serverId);
    const use = (board: HeldBoard | null | undefined): Maybe<Buffer> =>
      board instanceof RankBoard ? answer(board) : board ? counted(board, ref) : query();
    const ready = this.boards.ready(ref);
    return ready ? use(ready) : this.boards.board(ref).then((board) => (board ? use(board) : this.afterLoad(ref, use)));
  }

  /**
   * A board not in memory yet: when it is being read, the answer waits for it (up to LOAD_WAIT_MS) rather than
   * query the board meanwhile (on a large board, a query costs the database more than reading the board, and many
   * of them slow its reading down); else, or if it is not current then, `use(null)` (the query).
   */
  private async afterLoad(ref: BoardRef, use: (board: HeldBoard | null) => Maybe<Buffer>): Promise<Buffer> {
    if (await this.boards.loadedWithin(ref, LOAD_WAIT_MS)) return use(await this.boards.board(ref));
    return use(null);
  }

  /** The answer of `json` with one query: the top of a board, or a player-restricted key's board (its players'). */
  private async build(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    limit: number,
    offset: number,
    /** One server's board instead of the network's. */
    serverId: string | null = null,
  ): Promise<Buffer> {
    const rows = await repo.topValues(this.db, {
      seasonId: season.id,
      statId: def.id,
      order: def.sort_order,
      onlyUuids: playerFilter(key),
      limit: offset + limit,
      column: columnOf(season),
      serverId,
    });
    const ranks = competitionRanks(rows.map((r) => r.value));
    const board: Leaderboard = {
      season,
      stat: def.key,
      entries: rows.slice(offset).map((r, i) => ({
        rank: ranks[offset + i]!,
        player: toPlayer(r),
        value: r.value,
        updated_at: isoRequired(r.updated_at),
      })),
    };
    return Buffer.from(JSON.stringify(board));
  }

  /**
   * `GET /leaderboards/rank` as the answer's JSON in UTF-8: the player's entry and up to `around` entries on each
   * side, with the ranks and order of `/leaderboards` (for a player-restricted key, the board of its players). A
   * player outside the key's restriction is 403 before anything is looked up; one without a public value 404.
   * At once when the season, the definition and the board are at hand (a binary search in the board).
   */
  rankJson(key: AuthKey, q: RankQuery): Maybe<Buffer> {
    const uuid = permittedPlayer(key, q.player);
    const scope = this.servers.readScope(key, q.server);
    if (scope === null) return this.networkRankJson(key, q, uuid);
    return Promise.resolve(scope).then((servers) =>
      servers === null ? this.networkRankJson(key, q, uuid) : this.serversRankJson(key, q, uuid, servers),
    );
  }

  /**
   * A public player's competition rank and the board's size, from a board held in memory, without a query: for
   * pages that show a player's ranks beside values they have already read (`value`, the player's network total in
   * `season`, or its gain in a season that counts gains). Null when the board is not in memory (not loaded yet, a
   * key restricted to players or servers): then `rankJson`. It never asks for a board to be loaded.
   */
  rankInMemory(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    uuid: string,
    value: number,
  ): { rank: number; total: number } | null {
    if (restrictsPlayers(key) || restrictsServers(key)) return null;
    const ref = boardRefOf(key.workspaceId, season, def);
    const board = this.boards.ready(ref);
    return board ? heldRank(board, uuid, value) : null;
  }

  /**
   * The statistics (ids) whose boards of `season` `rankInMemory` may find in memory for `key`: it finds none of any
   * other (nor any for a key restricted to players or servers).
   */
  mayRankInMemory(key: AuthKey, season: Season): ReadonlySet<string> {
    if (restrictsPlayers(key) || restrictsServers(key)) return NO_STATS;
    return this.boards.slotted(key.workspaceId, season.id, columnOf(season));
  }

  /**
   * The statistics (ids) whose boards of `season` were counted large lately, each with until when (epoch ms): a page
   * need not ask `smallBoard` of them before then.
   */
  largeBoards(key: AuthKey, season: Season): ReadonlyMap<string, number> {
    return this.boards.countedLarge(key.workspaceId, season.id, columnOf(season));
  }

  /**
   * Whether a page may rank a value of `def` in `season` that is not featured and whose board is not in memory
   * (`pageRank(…, false)`): its board is small (`BoardCache.isSmall`: one held with its full entries), so that it
   * is read once and held, and a page of many values never costs a rank query each. False for a key restricted to
   * players or servers.
   */
  smallBoard(key: AuthKey, season: Season, def: repo.DefinitionRow): Maybe<boolean> {
    if (restrictsPlayers(key) || restrictsServers(key)) return false;
    return this.boards.isSmall(boardRefOf(key.workspaceId, season, def));
  }

  /**
   * A public player's rank for a page beside the value it has read, when `rankInMemory` had none (the board not ready
   * at once): the board refreshed or, while it is being read, once it is (up to LOAD_WAIT_MS); 'later' when it is
   * still being read then (the page shows no rank yet and is not kept). A page never counts a board that is to be
   * held with a query: at 1,000,000 players a rank window costs PostgreSQL 0.4–1.9 s, and pages read while a board
   * loaded after a start asked more of them than it could answer, slowing uploads down. A board that is not to be
   * held (no budget, too large, no room, the change bus unhealthy, a restricted key) is asked as `rankJson` does,
   * for a featured statistic (`featured`); any other's is then null (no rank on the page).
   */
  async pageRank(
    key: AuthKey,
    season: Season,
    def: repo.DefinitionRow,
    uuid: string,
    value: number,
    featured = true,
  ): Promise<{ rank: number; total: number } | 'later' | null> {
    const ref = boardRefOf(key.workspaceId, season, def);
    if (!restrictsPlayers(key) && !restrictsServers(key) && this.boards.mayHold(ref)) {
      const board =
        (await this.boards.board(ref)) ??
        ((await this.boards.loadedWithin(ref, LOAD_WAIT_MS, true)) ? await this.boards.board(ref) : null);
      if (board) return heldRank(board, uuid, value);
      if (this.boards.mayHold(ref)) return 'later';
    }
    if (!featured) return null;
    const answer = JSON.parse(
      (await this.rankJson(key, { season: season.id, stat: def.key, player: uuid, around: 0 })).toString(),
    ) as { entry: { rank: number }; total: number };
    return { rank: answer.entry.rank, total: answer.total };
  }

  /**
   * The ranks (and their boards' sizes) of a public player's `values` (as read: statistics by id, with their
   * boards' order) on the season's network boards, counted in one statement: only on a small network, where the
   * workspace's players (at least MIN_RANK_VALUES) times the statistics are at most PUBLIC_RANK_VALUES (what the
   * counts read at most), so that a page of a small server ranks every value it shows. Null on a larger one, or for
   * a key restricted to players or servers: at once (no promise) when the network's size, known, rules it out.
   */
  networkRanks(key: AuthKey, season: Season, values: readonly RankedValue[]): Maybe<NetworkRanks | null> {
    if (values.length === 0 || restrictsPlayers(key) || restrictsServers(key)) return null;
    // Each statistic counted as MIN_RANK_VALUES values at least: its two lookups' fixed cost.
    const cap = Math.min(NETWORK_RANK_PLAYERS, Math.floor(this.networkRankValues / values.length));
    if (cap < MIN_RANK_VALUES) return null;
    const players = this.playersUpTo(key.workspaceId);
    if (players instanceof Promise) {
      return players.then((n) => (n > cap ? null : this.countRanks(key, season, values)));
    }
    return players > cap ? null : this.countRanks(key, season, values);
  }

  /** `networkRanks` of a network small enough: one statement. */
  private async countRanks(key: AuthKey, season: Season, values: readonly RankedValue[]): Promise<NetworkRanks> {
    const rows = await repo.valueRanks(this.db, {
      seasonId: season.id,
      workspaceId: key.workspaceId,
      column: columnOf(season),
      values,
    });
    return new Map(rows.map((r) => [r.stat_id, { rank: r.rank, total: r.total }]));
  }

  /** The workspace's players, counted up to NETWORK_RANK_PLAYERS + 1 at most once a minute (at once when known). */
  private playersUpTo(workspaceId: string): Maybe<number> {
    const now = Date.now();
    const known = this.playerCounts.get(workspaceId);
    if (known !== undefined && known.until > now) return known.n;
    if (this.playerCounts.size >= 10_000) this.playerCounts.clear();
    const entry: { n: Maybe<number>; until: number } = {
      n: repo.workspacePlayersUpTo(this.db, workspaceId, NETWORK_RANK_PLAYERS + 1).then(
        (n) => (entry.n = n),
        (err: unknown) => {
          this.playerCounts.delete(workspaceId);
          throw err;
        },
      ),
      until: now + PLAYER_COUNT_MS,
    };
    this.playerCounts.set(workspaceId, entry);
    return entry.n;
  }

  /** `rankJson` on one server's board, or summed over some servers (see `serversJson`). */
  private async serversRankJson(key: AuthKey, q: RankQuery, uuid: string, servers: readonly string[]): Promise<Buffer> {
    const season = await this.seasons.readable(key, q.season);
    const def = await this.publicDefinition(key.workspaceId, q.stat);
    const server = indexedServer(key, servers);
    if (server !== null) return this.rankOn(key, uuid, season, def, q.around ?? 5, server);
    return rankAnswer(await this.serverBoard(key, season, def, servers), season, def, uuid, q.around ?? 5);
  }

  /** `rankJson` of the network totals. */
  private networkRankJson(key: AuthKey, q: RankQuery, uuid: string): Maybe<Buffer> {
    const season = this.seasons.readable(key, q.season);
    return season instanceof Promise
      ? season.then((s) => this.rankIn(key, q, uuid, s))
      : this.rankIn(key, q, uuid, season);
  }

  private rankIn(key: AuthKey, q: RankQuery, uuid: string, season: Season): Maybe<Buffer> {
    const def = this.publicDefinition(key.workspaceId, q.stat);
    const around = q.around ?? 5;
    const answer = (d: repo.DefinitionRow): Maybe<Buffer> =>
      restrictsPlayers(key)
        ? this.restrictedRank(key, uuid, season, d, around)
        : this.rankOn(key, uuid, season, d, around);
    return def instanceof Promise ? def.then(answer) : answer(def);
  }

  /** A rank on one board (the network totals, or `server`'s values alone), for a key not restricted to players. */
  private rankOn(
    key: AuthKey,
    uuid: string,
    season: Season,
    def: repo.DefinitionRow,
    around: number,
    server: string | null = null,
  ): Maybe<Buffer> {
    const srv = server ? `${server}:` : '';
    return this.cachedAnswer(`${key.workspaceId}|${season.id}|${def.id}|r:${srv}${uuid}:${around}`, () =>
      this.withBoard(
        key,
        season,
        def,
        (board) => rankAnswer(board, season, def, uuid, around),
        (board, ref) => this.countedRank(board, ref, uuid, season, def, around),
        () => this.queriedRank(key.workspaceId, uuid, season, def, around, server),
        server,
      ),
    );
  }

  /**
   * A rank on a board not held in memory, with one query: the window in board order, its first entry's
   * competition rank (one more than the values strictly better) and position; each later entry's rank follows
   * from the one before it, as on a board in memory.
   */
  private async queriedRank(
    workspaceId: string,
    uuid: string,
    season: Season,
    def: repo.DefinitionRow,
    around: number,
    /** One server's board instead of the network's. */
    serverId: string | null = null,
  ): Promise<Buffer> {
    const rows = await repo.rankWindow(this.db, {
      workspaceId,
      seasonId: season.id,
      statId: def.id,
      order: def.sort_order,
      uuid,
      around,
      column: columnOf(season),
      serverId,
    });
    const first = rows[0];
    if (!first) throw noValue(def.key);
    return rankedRankJson(season, def, first.total, uuid, withRanks(rows, first.better, first.position));
  }

  /**
   * A rank on a compact board: the window from index ranges next to the player's value (no counting), each
   * entry's competition rank one more than the public values the board holds strictly better than its value,
   * the total the board's size. Should the board change while the window is read (the counts would not be of the
   * window's values), the answer is `queriedRank`'s.
   */
  private async countedRank(
    board: CompactBoard,
    ref: BoardRef,
    uuid: string,
    season: Season,
    def: repo.DefinitionRow,
    around: number,
  ): Promise<Buffer> {
    const version = board.version;
    const rows = await repo.rankNeighbours(this.db, { ...ref, uuid, around });
    if (!this.boards.current(ref, board, version)) {
      return this.queriedRank(ref.workspaceId, uuid, season, def, around, ref.serverId);
    }
    if (rows.length === 0) throw noValue(def.key);
    const ranked = rows.map((r) => ({ entry: boardEntry(r), rank: board.better(r.value) + 1 }));
    return rankedRankJson(season, def, board.size, uuid, ranked);
  }

  /**
   * A page on a compact board: the value at `offset` and the public values strictly better than it come from the
   * board; the page is read from the index at that value, past the ties that come before `offset` (at most
   * `offset` rows, never a count of the board). Should the board change meanwhile, or the rows not be those the
   * board expects, the answer is `queriedPage`'s.
   */
  private async countedPage(
    board: CompactBoard,
    ref: BoardRef,
    season: Season,
    def: repo.DefinitionRow,
    offset: number,
    limit: number,
  ): Promise<Buffer> {
    const version = board.version;
    const value = board.valueAt(offset);
    let rows: repo.BoardRow[] = [];
    let better = 0;
    if (value !== undefined) {
      better = board.better(value);
      rows = await repo.pageFrom(this.db, {
        ...ref,
        value,
        skip: offset - better,
        limit,
        hiddenAt: board.hiddenAt(value),
      });
    }
    const expected = Math.max(0, Math.min(limit, board.size - offset));
    if (
      !this.boards.current(ref, board, version) ||
      rows.length !== expected ||
      (value !== undefined && rows[0]!.value !== value)
    ) {
      return this.queriedPage(ref.workspaceId, season, def, offset, limit, ref.serverId);
    }
    const ranked = withRanks(rows, better, offset);
    return rankedPageJson(season, def, ranked);
  }

  /**
   * A page of a board not held in memory, started from the board's index: the value at the offset counting every
   * player (`repo.pageStart`), moved past the hidden players' values before it (each round starts after the
   * previous value's ties, by the public values still to skip; one round when no hidden player comes before the
   * page), then read as a compact board's page is (`repo.pageFrom`). Null where it does not apply (one server's
   * gains, which have no index) or the rows are not those expected (a write in between): `queriedPage` answers.
   */
  private async seekPage(
    workspaceId: string,
    season: Season,
    def: repo.DefinitionRow,
    offset: number,
    limit: number,
    serverId: string | null,
  ): Promise<Buffer | null> {
    const column = columnOf(season);
    if (serverId && column === 'gain') return null;
    const ref = { workspaceId, seasonId: season.id, statId: def.id, order: def.sort_order, column, serverId };
    let at = offset;
    for (let round = 0; round < SEEK_ROUNDS; round++) {
      const start = await repo.pageStart(this.db, { ...ref, at });
      if (!start) return rankedPageJson(season, def, []);
      const better = start.all_better - start.hidden_better;
      const tied = start.all_at - start.hidden_at.length;
      if (offset < better) return null;
      if (offset < better + tied) {
        const rows = await repo.pageFrom(this.db, {
          ...ref,
          value: start.value,
          skip: offset - better,
          limit,
          hiddenAt: start.hidden_at,
        });
        if (rows[0]?.value !== start.value) return null;
        return rankedPageJson(season, def, withRanks(rows, better, offset));
      }
      at = start.all_better + start.all_at + (offset - better - tied);
    }
    return null;
  }

  /** A page past the top of a board not held in memory, with one query (ranks as `queriedRank` gives them). */
  private async queriedPage(
    workspaceId: string,
    season: Season,
    def: repo.DefinitionRow,
    offset: number,
    limit: number,
    /** One server's board instead of the network's. */
    serverId: string | null = null,
  ): Promise<Buffer> {
    const sought = await this.seekPage(workspaceId, season, def, offset, limit, serverId);
    if (sought) return sought;
    const rows = await repo.boardPage(this.db, {
      workspaceId,
      seasonId: season.id,
      statId: def.id,
      order: def.sort_order,
      offset,
      limit,
      column: columnOf(season),
      serverId,
    });
    const ranked = withRanks(rows, rows[0]?.better ?? 0, offset);
    return rankedPageJson(season, def, ranked);
  }

  /** A rank among a player-restricted key's players: their board is small, read with one query. */
  private async restrictedRank(
    key: AuthKey,
    uuid: string,
    season: Season,
    def: repo.DefinitionRow,
    around: number,
  ): Promise<Buffer> {
    const rows = await repo.boardEntries(this.db, {
      seasonId: season.id,
      statId: def.id,
      onlyUuids: key.players,
      column: columnOf(season),
    });
    return rankAnswer(new RankBoard(def.sort_order, rows.map(boardEntry)), season, def, uuid, around);
  }
}

/**
 * Consecutive entries of a board with their competition ranks, from the number of values strictly better than
 * the first one's and its position: the first ranks one after those better values, each later one shares the
 * rank of the one before when tied, else ranks by its position.
 */
function withRanks(
  rows: readonly repo.BoardRow[],
  better: number,
  position: number,
): { entry: BoardEntry; rank: number }[] {
  const ranked: { entry: BoardEntry; rank: number }[] = [];
  for (const [i, r] of rows.entries()) {
    const prev = ranked.at(-1);
    const rank = !prev ? better + 1 : prev.entry.value === r.value ? prev.rank : position + i + 1;
    ranked.push({ entry: boardEntry(r), rank });
  }
  return ranked;
}

/** Entries in board order with their ranks as the JSON array of an answer. */
/** A rank answer (`/leaderboards/rank`) from its ranked window, `uuid`'s entry among them. */
function rankedRankJson(
  season: Season,
  def: repo.DefinitionRow,
  total: number,
  uuid: string,
  ranked: readonly { entry: BoardEntry; rank: number }[],
): Buffer {
  const own = ranked.find((r) => r.entry.uuid === uuid)!;
  return Buffer.from(
    `{"season":${JSON.stringify(season)},"stat":${JSON.stringify(def.key)},"total":${total},` +
      `"entry":{"rank":${own.rank},${entryTail(own.entry)},"entries":${rankedJson(ranked)}}`,
  );
}

/** A page answer (`/leaderboards` with `offset`) from its ranked rows. */
function rankedPageJson(
  season: Season,
  def: repo.DefinitionRow,
  ranked: readonly { entry: BoardEntry; rank: number }[],
): Buffer {
  return Buffer.from(
    `{"season":${JSON.stringify(season)},"stat":${JSON.stringify(def.key)},"entries":${rankedJson(ranked)}}`,
  );
}

function rankedJson(ranked: readonly { entry: BoardEntry; rank: number }[]): string {
  let out = '[';
  for (const { entry, rank } of ranked) out += `${out.length > 1 ? ',' : ''}{"rank":${rank},${entryTail(entry)}`;
  return `${out}]`;
}

/** Entries `from`–`to` of a board as the JSON array of an answer. */
function entriesJson(board: RankBoard, from: number, to: number): string {
  let out = '[';
  for (const { entry, rank } of board.slice(from, to))
    out += `${out.length > 1 ? ',' : ''}{"rank":${rank},${entryTail(entry)}`;
  return `${out}]`;
}

/** `/leaderboards` past the top: `{season, stat, entries}`. */
function page(board: RankBoard, season: Season, def: repo.DefinitionRow, offset: number, limit: number): Buffer {
  return Buffer.from(
    `{"season":${JSON.stringify(season)},"stat":${JSON.stringify(def.key)},"entries":${entriesJson(board, offset, offset + limit)}}`,
  );
}

/** `/leaderboards/rank`: `{season, stat, total, entry, entries}`; 404 without a public value. */
function rankAnswer(board: RankBoard, season: Season, def: repo.DefinitionRow, uuid: string, around: number): Buffer {
  const index = board.indexOf(uuid);
  if (index < 0) throw noValue(def.key);
  const own = board.slice(index, index + 1)[0]!;
  return Buffer.from(
    `{"season":${JSON.stringify(season)},"stat":${JSON.stringify(def.key)},"total":${board.size},` +
      `"entry":{"rank":${own.rank},${entryTail(own.entry)},"entries":${entriesJson(board, index - around, index + around + 1)}}`,
  );
}

/**
 * The one server whose board a read takes as the network's is taken (held in memory as a rank board or a compact
 * one, else read from `server_stats_top_idx`; a season that counts gains sorts the server's gains, which have no
 * index): a read of one server's values by a key not restricted to players. Null: the board is summed over the
 * servers at read time (several servers, or a key's few players).
 */
function indexedServer(key: AuthKey, servers: readonly string[]): string | null {
  if (servers.length !== 1 || restrictsPlayers(key)) return null;
  return servers[0]!;
}

/** The board of `def`'s values (or gains, in a season that counts them) in `season`: the network's, or one server's. */
function boardRefOf(
  workspaceId: string,
  season: Season,
  def: repo.DefinitionRow,
  serverId: string | null = null,
): BoardRef {
  return {
    workspaceId,
    seasonId: season.id,
    statId: def.id,
    order: def.sort_order,
    serverId,
    column: columnOf(season),
  };
}

/** A player's competition rank and the board's size from a board held in memory (`value`, the player's on it). */
function heldRank(board: HeldBoard, uuid: string, value: number): { rank: number; total: number } | null {
  if (board instanceof RankBoard) {
    const index = board.indexOf(uuid);
    return index < 0 ? null : { rank: board.slice(index, index + 1)[0]!.rank, total: board.size };
  }
  return { rank: board.better(value) + 1, total: board.size };
}

/** The column a season's boards rank: its scoring's. */
export function columnOf(season: Season): repo.Column {
  return season.scoring === 'gains' ? 'gain' : 'value';
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
  /** Answers (and boards) by `workspace|season|stat|…` (no `|` in the last part). */
  answers: Pick<Cache<string, unknown>, 'clear' | 'deleteWhere'>[],
): void {
  if (c === null) {
    definitions.clear();
    for (const a of answers) a.clear();
    return;
  }
  if (c.topic === 'key' || c.topic === 'server' || c.topic === 'roster' || c.topic === 'session') return;
  const ws = `${c.workspaceId}|`;
  if (c.topic === 'definition') definitions.deleteWhere((k) => k.startsWith(ws));
  if (c.topic === 'values' && c.pairs) {
    const touched = new Set(c.pairs.map(([season, stat]) => `${ws}${season}|${stat}|`));
    for (const a of answers) a.deleteWhere((k) => touched.has(k.slice(0, k.lastIndexOf('|') + 1)));
  } else {
    // Visibility or names of players, definitions, seasons, or values without detail: the whole workspace.
    for (const a of answers) a.deleteWhere((k) => k.startsWith(ws));
  }
}
