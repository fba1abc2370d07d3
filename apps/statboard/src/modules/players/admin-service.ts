import type { Actor } from '#src/access/principal.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './admin-repo.ts';
import { type AdminPlayer, UpdatePlayerRequest } from './schemas.ts';

/** The admin player list holds at most this many records. */
export const ADMIN_PLAYER_LIMIT = 500;

/**
 * How long an admin player list is served before it is read again. Its records carry `last_seen_at`, which every
 * upload moves, so the list is not dropped on uploads: the times shown may be this much behind. Everything an
 * operator changes (a player hidden or shown, renamed, or new players) drops the workspace's lists at once.
 */
export const ADMIN_LIST_CACHE_MS = 2_000;
/** Bytes of kept admin player lists (a full list of 500 records is ~120 KB). */
const ADMIN_LIST_CACHE_BYTES = 4 * 1024 * 1024;

/** A search term, or null for none (absent or blank). */
function searchTerm(search: string | undefined): string | null {
  return search === undefined || search.trim() === '' ? null : search.trim();
}

/** Administrators' view of players: every player of the workspace, and their visibility. */
export class PlayerAdminService {
  /** `{data}` answers by `workspace|search` (see ADMIN_LIST_CACHE_MS). */
  private readonly lists: Cache<string, Buffer> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {
    const lists = changes.cache<string, Buffer>('admin_player_list', ADMIN_LIST_CACHE_MS, 1_000, {
      max: ADMIN_LIST_CACHE_BYTES,
      sizeOf: (b) => b.length + 100,
    });
    this.lists = lists;
    changes.onChange((c) => {
      if (!lists) return;
      if (c === null) lists.clear();
      else if (c.topic === 'player' || c.topic === 'roster') {
        lists.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      }
    });
  }

  /** The records are the rows as read (times as ISO text, fields in the schema's order): nothing to map. */
  list(workspaceId: string, search: string | undefined): Promise<AdminPlayer[]> {
    return repo.listAllPlayers(this.db, workspaceId, searchTerm(search), ADMIN_PLAYER_LIMIT);
  }

  /**
   * `{data: list(…)}` as JSON in UTF-8, rendered by the database (the same bytes as `JSON.stringify`), kept for
   * ADMIN_LIST_CACHE_MS.
   */
  async listJson(workspaceId: string, search: string | undefined): Promise<Buffer> {
    const term = searchTerm(search);
    const read = async () => Buffer.from(await repo.listAllPlayersJson(this.db, workspaceId, term, ADMIN_PLAYER_LIMIT));
    if (!this.lists) return read();
    const key = `${workspaceId}|${term ?? ''}`;
    return this.lists.peek(key) ?? this.lists.get(key, read);
  }

  /** Sets `public` (`{public: boolean}`); the player is addressed by game UUID or id. */
  async update(actor: Actor, workspaceId: string, ref: string, input: unknown): Promise<AdminPlayer> {
    const body = checkBody(UpdatePlayerRequest, input, 'The player is invalid.');
    return this.db.transaction(async (tx) => {
      const row = isUuid(ref) ? await repo.findPlayer(tx, workspaceId, ref.toLowerCase()) : null;
      if (!row) throw new AppError('NOT_FOUND', 'Player not found.');
      const after = await repo.setPublic(tx, row.id, body.public);
      await this.changes.publish(tx, { topic: 'player', workspaceId, players: [after.uuid] });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'PLAYER_UPDATED',
        targetType: 'player',
        targetId: after.id,
        before: row,
        after,
      });
      return after;
    });
  }
}
