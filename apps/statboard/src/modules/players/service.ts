import type { Static } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import { playerFilter, requirePlayer, restrictsPlayers } from '#src/access/restrictions.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Player as PlayerSchema } from '#src/http/schemas.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { pageOffset } from '#src/lib/page.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import type { StatDefinitionService, StatKeys } from '#src/modules/stats/service.ts';
import * as repo from './repo.ts';
import type { PlayerListResponse } from './schemas.ts';
import { publicValues, statsAnswer, type ValueUse } from './stats-answer.ts';

export type { ValueUse };

/** The spec's Player resource. */
export type Player = Static<typeof PlayerSchema>;
/** A page of `GET /players`. */
export type PlayerPage = Static<typeof PlayerListResponse>;

export function toPlayer(row: repo.PlayerRow): Player {
  return { id: row.id, uuid: row.uuid, username: row.username, public: row.public };
}

/**
 * The player rule of every key read of one player: the lower-cased UUID, when the key may read that player.
 * Outside the key's player restriction 403, checked before any lookup so that it tells nothing about existence.
 */
export function permittedPlayer(key: AuthKey, uuidParam: string): string {
  const uuid = uuidParam.toLowerCase();
  if (!isUuid(uuid)) throw new AppError('NOT_FOUND', 'Player not found.');
  requirePlayer(key, uuid, 'read');
  return uuid;
}

/** The visibility rule: a player unknown in the workspace or not public is 404. */
export function visible<T extends { public: boolean }>(row: T | null): T {
  if (!row?.public) throw new AppError('NOT_FOUND', 'Player not found.');
  return row;
}

/** Bytes of cached `/players` pages (a page of 50 is ~5 KB). */
const PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/** Key-scoped reads of players and their statistics. */
export class PlayerService {
  /** Players by `workspace|uuid` (hits only: ingest creates players without telling anyone). */
  private readonly rows: Cache<string, repo.PlayerRow | null> | null;
  /** The serialized `/players/{uuid}/stats` answer by `workspace|game uuid|season id`. */
  private readonly values: Cache<string, Buffer> | null;
  /**
   * Serialized `/players` pages by `workspace|[page, per_page, search, username]`, for keys without a player
   * restriction: dropped whole when a player of the workspace is added, renamed, shown or hidden.
   */
  private readonly pages: Cache<string, Buffer> | null;

  /**
   * `valueBytes` bounds the cached answers by their size (0: none cached, every read is a query). At about
   * 11 KB for a player with 100 values, 128 MiB holds ~11,500 players' answers.
   */
  constructor(
    private readonly db: Db,
    changes: Changes,
    private readonly seasons: SeasonService,
    valueBytes: number,
    private readonly servers: ServerService,
    private readonly stats: StatDefinitionService,
  ) {
    const rows = changes.cache<string, repo.PlayerRow | null>('player', 30_000, 20_000);
    const values = changes.cache<string, Buffer>('player_stats', 30_000, 1_000_000, {
      max: valueBytes,
      sizeOf: (b) => b.length + 100,
    });
    const pages = changes.cache<string, Buffer>('player_list', 30_000, 2_000, {
      max: PAGE_CACHE_BYTES,
      sizeOf: (b) => b.length + 100,
    });
    this.rows = rows;
    this.values = values;
    this.pages = pages;
    changes.onChange((c) => {
      if (c === null) {
        rows?.clear();
        values?.clear();
        pages?.clear();
        return;
      }
      if (c.topic === 'key' || c.topic === 'server' || c.topic === 'session') return;
      const ws = `${c.workspaceId}|`;
      if (c.topic === 'player' || c.topic === 'roster') pages?.deleteWhere((k) => k.startsWith(ws));
      if (c.topic === 'roster') return;
      if (c.topic === 'player') {
        if (c.players) for (const p of c.players) rows?.delete(`${ws}${p}`);
        else rows?.deleteWhere((k) => k.startsWith(ws));
      }
      if (!values) return;
      if (c.topic === 'player' && c.players) {
        // A name or a visibility is in those players' answers only.
        const prefixes = c.players.map((p) => `${ws}${p}|`);
        values.deleteWhere((k) => prefixes.some((prefix) => k.startsWith(prefix)));
        return;
      }
      // A season's name or dates are part of every answer of that workspace: those go with the rest below.
      if (c.topic === 'values' && c.players && c.pairs) {
        // Exactly the answers of the players and seasons written (not a walk over every cached answer).
        const seasons = new Set(c.pairs.map(([season]) => season));
        for (const p of c.players) for (const season of seasons) values.delete(`${ws}${p}|${season}`);
      } else {
        values.deleteWhere((k) => k.startsWith(ws));
      }
    });
  }

  /**
   * `GET /players` as the answer's JSON in UTF-8: for a key without a player restriction, served from the cache
   * until a player of the workspace is added, renamed, shown or hidden (at once when cached).
   */
  listJson(key: AuthKey, q: { search?: string; username?: string; page: number; perPage: number }): Maybe<Buffer> {
    const build = () => this.list(key, q).then((page) => Buffer.from(JSON.stringify(page)));
    if (!this.pages || restrictsPlayers(key)) return build();
    // The terms in JSON: a `|` in a search cannot make two queries share a key.
    const cacheKey = `${key.workspaceId}|${JSON.stringify([q.page, q.perPage, q.search ?? '', q.username ?? ''])}`;
    return this.pages.peek(cacheKey) ?? this.pages.get(cacheKey, build);
  }

  async list(
    key: AuthKey,
    q: { search?: string; username?: string; page: number; perPage: number },
  ): Promise<PlayerPage> {
    const { rows, total } = await repo.listPublicPlayers(this.db, {
      workspaceId: key.workspaceId,
      search: q.search === undefined || q.search === '' ? null : q.search,
      username: q.username === undefined || q.username === '' ? null : q.username,
      onlyUuids: playerFilter(key),
      limit: q.perPage,
      offset: pageOffset(q.page, q.perPage),
    });
    return { data: rows.map(toPlayer), meta: { current_page: q.page, per_page: q.perPage, total } };
  }

  /** One player the key may read (see `permittedPlayer` and `visible`). */
  async get(key: AuthKey, uuidParam: string): Promise<Player> {
    const uuid = permittedPlayer(key, uuidParam);
    const row = this.rows
      ? await this.rows.get(
          `${key.workspaceId}|${uuid}`,
          () => repo.findPlayerByUuid(this.db, key.workspaceId, uuid),
          (r) => r !== null,
        )
      : await repo.findPlayerByUuid(this.db, key.workspaceId, uuid);
    return toPlayer(visible(row));
  }

  /**
   * `GET /players/{uuid}/stats` as the answer's JSON in UTF-8: built from one query on a miss, then served from
   * the cache until a write touches the player, its visibility, a definition or the season. At once when
   * cached, else built, or refused.
   */
  statsJson(key: AuthKey, uuidParam: string, seasonRef: string | undefined, server?: string): Maybe<Buffer> {
    const uuid = permittedPlayer(key, uuidParam);
    const scope = this.servers.readScope(key, server);
    if (scope !== null) {
      // Summed over some servers at read time (`server=`, or a key restricted to servers): never cached.
      return Promise.resolve(scope).then(async (servers) => {
        const season = await this.seasons.readable(key, seasonRef);
        return servers === null ? this.statsJsonIn(key, uuid, season) : this.buildStatsJson(key, uuid, season, servers);
      });
    }
    const season = this.seasons.readable(key, seasonRef);
    return season instanceof Promise
      ? season.then((s) => this.statsJsonIn(key, uuid, s))
      : this.statsJsonIn(key, uuid, season);
  }

  private statsJsonIn(key: AuthKey, uuid: string, season: Season): Maybe<Buffer> {
    if (!this.values) return this.buildStatsJson(key, uuid, season);
    const cacheKey = `${key.workspaceId}|${uuid}|${season.id}`;
    return this.values.peek(cacheKey) ?? this.values.get(cacheKey, () => this.buildStatsJson(key, uuid, season));
  }

  /**
   * The answer of `statsJson`, with one query (the player and its values, in parallel with the definitions when
   * they are not in memory), its bytes written by `statsAnswer`.
   */
  private async buildStatsJson(
    key: AuthKey,
    uuid: string,
    season: Season,
    servers: readonly string[] | null = null,
  ): Promise<Buffer> {
    const column = season.scoring === 'gains' ? 'gain' : 'value';
    const [found, known] = await Promise.all([
      repo.playerWithValues(this.db, key.workspaceId, uuid, season.id, column, servers),
      this.stats.keysById(key.workspaceId),
    ]);
    return this.answerOf(key, found, season, known);
  }

  /**
   * What `statsJson` answers (the network totals), from a player and its values read by another statement with
   * them (see `history/repo.readPageValues`), as the player and its public values' keys and numbers: what a
   * public page shows, with no JSON written and read back. The same refusal of a player that is not there or
   * hidden, the same values in the same order: those `use` lists (all without it), and how many it counted as
   * left out (`left`).
   */
  async publicValuesOf(
    key: AuthKey,
    found: repo.PlayerValuesRow | null,
    use?: ValueUse,
  ): Promise<{ player: Player; stats: { key: string; id: string; value: number }[]; left: number }> {
    const row = visible(found);
    const read = await this.withKeys(key, (known, skip) => publicValues(row.values, known, skip, use));
    return { player: toPlayer(row), stats: read.values, left: read.left };
  }

  private async answerOf(
    key: AuthKey,
    found: repo.PlayerValuesRow | null,
    season: Season,
    known: StatKeys,
  ): Promise<Buffer> {
    const row = visible(found);
    const player = JSON.stringify(toPlayer(row));
    const seasonBytes = seasonJson(season);
    return this.withKeys(key, (keys, skip) => statsAnswer(player, seasonBytes, row.values, keys, skip), known);
  }

  /**
   * `make` with the workspace's definitions (`known`, else those in memory); when a value's definition is not
   * among them (one added since they were read), with them read again (once), skipping any still unknown.
   */
  private async withKeys<T>(
    key: AuthKey,
    make: (keys: StatKeys, skipUnknown: boolean) => T | null,
    known?: StatKeys,
  ): Promise<T> {
    return (
      make(known ?? (await this.stats.keysById(key.workspaceId)), false) ??
      make(await this.stats.keysById(key.workspaceId, true), true)!
    );
  }
}

/** Seasons as JSON, by the cached season object they were written from. */
const seasonTexts = new WeakMap<Season, Buffer>();

function seasonJson(season: Season): Buffer {
  let bytes = seasonTexts.get(season);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(season));
    seasonTexts.set(season, bytes);
  }
  return bytes;
}
