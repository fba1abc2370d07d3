import { type Db, publishChange } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import * as repo from './admin-repo.ts';

/** DECISIONS: the admin player list holds at most 500 records. */
export const ADMIN_PLAYER_LIMIT = 500;

/** A player as administrators see it: the spec's Player plus when it was first and last seen. */
export interface AdminPlayer {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
  first_seen_at: string;
  last_seen_at: string;
}

function toAdminPlayer(row: repo.AdminPlayerRow): AdminPlayer {
  return {
    id: row.id,
    uuid: row.uuid,
    username: row.username,
    public: row.public,
    first_seen_at: isoRequired(row.first_seen_at),
    last_seen_at: isoRequired(row.last_seen_at),
  };
}

/** Administrators' view of players: every player of the workspace, and their visibility. */
export class PlayerAdminService {
  constructor(private readonly db: Db) {}

  async list(workspaceId: string, search: string | undefined): Promise<AdminPlayer[]> {
    const term = search === undefined || search.trim() === '' ? null : search.trim();
    return (await repo.listAllPlayers(this.db, workspaceId, term, ADMIN_PLAYER_LIMIT)).map(toAdminPlayer);
  }

  /** Sets `public`; the player is addressed by game UUID or internal id. */
  async setPublic(
    workspaceId: string,
    ref: string,
    isPublic: boolean,
  ): Promise<{ before: AdminPlayer; after: AdminPlayer }> {
    const row = isUuid(ref) ? await repo.findPlayer(this.db, workspaceId, ref.toLowerCase()) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Player not found.');
    const after = await repo.setPublic(this.db, row.id, isPublic);
    await publishChange(this.db, { topic: 'player', workspaceId });
    return { before: toAdminPlayer(row), after: toAdminPlayer(after) };
  }
}
