import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { Actor, AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './admin-repo.ts';
import { type AdminPlayer, UpdatePlayerRequest } from './schemas.ts';

/** The admin player list holds at most this many records. */
export const ADMIN_PLAYER_LIMIT = 500;

/** A search term, or null for none (absent or blank). */
function searchTerm(search: string | undefined): string | null {
  return search === undefined || search.trim() === '' ? null : search.trim();
}

/** Administrators' view of players: every player of the workspace, and their visibility. */
export class PlayerAdminService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {}

  /** The records are the rows as read (times as ISO text, fields in the schema's order): nothing to map. */
  list(workspaceId: string, search: string | undefined): Promise<AdminPlayer[]> {
    return repo.listAllPlayers(this.db, workspaceId, searchTerm(search), ADMIN_PLAYER_LIMIT);
  }

  /** `{data: list(…)}` as JSON text, rendered by the database (the same bytes as `JSON.stringify`). */
  listJson(workspaceId: string, search: string | undefined): Promise<string> {
    return repo.listAllPlayersJson(this.db, workspaceId, searchTerm(search), ADMIN_PLAYER_LIMIT);
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
