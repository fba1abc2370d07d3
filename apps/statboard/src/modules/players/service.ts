import { type Cache, cacheFor } from '#src/cache/cache.ts';
import { DEFAULT_PLAYER_CACHE_MB } from '#src/config.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { AuthKey } from '#src/modules/keys/types.ts';
import type { Season, SeasonService } from '#src/modules/seasons/service.ts';
import * as repo from './repo.ts';

/** The spec's Player resource. */
export interface Player {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
}

export interface Page<T> {
  data: T[];
  meta: { current_page: number; per_page: number; total: number };
}

export function toPlayer(row: repo.PlayerRow): Player {
  return { id: row.id, uuid: row.uuid, username: row.username, public: row.public };
}

/** Key-scoped reads of players and their statistics. */
export class PlayerService {
  /** Players by `workspace|uuid` (hits only: ingest creates players without telling anyone). */
  private readonly rows: Cache<string, repo.PlayerRow | null> | null;
  /** The serialized `/players/{uuid}/stats` answer by `workspace|game uuid|season id`. */
  private readonly values: Cache<string, Buffer> | null;

  /**
   * `valueBytes` bounds the cached answers by their size (0: none cached, every read is a query). At about
   * 11 KB for a player with 100 values, the default (128 MiB) holds ~11,500 players' answers.
   */
  constructor(
    private readonly db: Db,
    private readonly seasons: SeasonService,
    valueBytes: number = DEFAULT_PLAYER_CACHE_MB * 1024 * 1024,
  ) {
    const rows = cacheFor<string, repo.PlayerRow | null>(db, 30_000, 20_000);
    const values =
      valueBytes > 0
        ? cacheFor<string, Buffer>(db, 30_000, 1_000_000, { max: valueBytes, sizeOf: (b) => b.length + 100 })
        : null;
    this.rows = rows;
    this.values = values;
    // Services built on a transaction have no caches, and nothing to subscribe.
    if (rows || values)
      db.changes?.subscribe((c) => {
        if (c === null) {
          rows?.clear();
          values?.clear();
          return;
        }
        if (c.topic === 'key' || c.topic === 'server') return;
        const ws = `${c.workspaceId}|`;
        if (c.topic === 'player') rows?.deleteWhere((k) => k.startsWith(ws));
        if (!values) return;
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

  async list(key: AuthKey, q: { search?: string; page: number; perPage: number }): Promise<Page<Player>> {
    const offset = (q.page - 1) * q.perPage;
    const { rows, total } = await repo.listPublicPlayers(this.db, {
      workspaceId: key.workspaceId,
      search: q.search === undefined || q.search === '' ? null : q.search,
      onlyUuids: key.players.length > 0 ? key.players : null,
      limit: q.perPage,
      // A page far past the end is empty without asking the database for an impossible offset.
      offset: Number.isSafeInteger(offset) && offset < 2 ** 31 ? offset : null,
    });
    return { data: rows.map(toPlayer), meta: { current_page: q.page, per_page: q.perPage, total } };
  }

  /**
   * A player the key may read: outside the key's player restriction 403 (checked first, so it tells nothing
   * about existence); unknown in the workspace or not public 404.
   */
  /** The lower-cased UUID, if the key may read that player at all (403 before any lookup). */
  private permitted(key: AuthKey, uuidParam: string): string {
    const uuid = uuidParam.toLowerCase();
    if (!isUuid(uuid)) throw new AppError('NOT_FOUND', 'Player not found.');
    if (key.players.length > 0 && !key.players.includes(uuid)) {
      throw new AppError('FORBIDDEN', 'This API key may not read that player.');
    }
    return uuid;
  }

  async visible(key: AuthKey, uuidParam: string): Promise<repo.PlayerRow> {
    const uuid = this.permitted(key, uuidParam);
    const load = () => repo.findPlayerByUuid(this.db, key.workspaceId, uuid);
    const row = this.rows ? await this.rows.get(`${key.workspaceId}|${uuid}`, load, (r) => r !== null) : await load();
    if (!row?.public) throw new AppError('NOT_FOUND', 'Player not found.');
    return row;
  }

  async get(key: AuthKey, uuid: string): Promise<Player> {
    return toPlayer(await this.visible(key, uuid));
  }

  /**
   * `GET /players/{uuid}/stats` as the answer's JSON in UTF-8: built with one query on a miss, then served from
   * the cache (keyed by game UUID) until a write touches the player, its visibility or a definition. At once
   * when cached (the hot path, no promise), else built, or refused.
   */
  statsJson(key: AuthKey, uuidParam: string, seasonRef: string | undefined): Buffer | Promise<Buffer> {
    return this.cachedStatsJson(key, uuidParam, seasonRef) ?? this.buildStatsJson(key, uuidParam, seasonRef);
  }

  /**
   * The answer when it and the season are cached and readable by the key; else undefined (then `statsJson` has
   * the error or loads it). Never throws, counts or answers nothing (a cache may start refreshing an aging entry).
   */
  cachedStatsJson(key: AuthKey, uuidParam: string, seasonRef: string | undefined): Buffer | undefined {
    if (!this.values) return undefined;
    const uuid = uuidParam.toLowerCase();
    if (key.players.length > 0 && !key.players.includes(uuid)) return undefined;
    const season = this.seasons.peekReadable(key, seasonRef);
    return season && this.values.peek(`${key.workspaceId}|${uuid}|${season.id}`);
  }

  /** The full path of `statsJson`: every check with its error, then the cached answer or one query. */
  private async buildStatsJson(key: AuthKey, uuidParam: string, seasonRef: string | undefined): Promise<Buffer> {
    const uuid = this.permitted(key, uuidParam);
    const season = await this.seasons.readable(key, seasonRef);
    const build = async () => {
      const row = await repo.playerWithStatsJson(this.db, key.workspaceId, uuid, season.id);
      if (!row?.public) throw new AppError('NOT_FOUND', 'Player not found.');
      return Buffer.from(
        `{"player":${JSON.stringify(toPlayer(row))},"season":${JSON.stringify(season)},"stats":${row.stats}}`,
      );
    };
    return this.values ? this.values.get(`${key.workspaceId}|${uuid}|${season.id}`, build) : build();
  }

  async stats(
    key: AuthKey,
    uuid: string,
    seasonRef: string | undefined,
  ): Promise<{ player: Player; season: Season; stats: { key: string; value: number; updated_at: string }[] }> {
    return JSON.parse((await this.statsJson(key, uuid, seasonRef)).toString('utf8'));
  }
}
