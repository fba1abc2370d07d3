import type { Db } from '#src/db/types.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { AuthKey } from '#src/modules/api-keys/types.ts';
import { type Player, toPlayer } from '#src/modules/players/service.ts';
import * as repo from './repo.ts';

/** Spec: online means an open session whose last heartbeat lies within the previous two minutes. */
export const ONLINE_WINDOW_SECONDS = 120;

export interface OnlineEntry {
  player: Player;
  online: true;
  last_seen_at: string;
  /** The server of the player's latest open session. */
  server: { id: string; name: string };
}

export class OnlineService {
  constructor(private readonly db: Db) {}

  /** `serverId`: only players whose open session is on that server (unknown or another workspace's: none). */
  async online(key: AuthKey, serverId?: string): Promise<OnlineEntry[]> {
    const rows = await repo.onlinePlayers(this.db, {
      workspaceId: key.workspaceId,
      onlyUuids: key.players.length > 0 ? key.players : null,
      serverId: serverId?.toLowerCase() ?? null,
      windowSeconds: ONLINE_WINDOW_SECONDS,
    });
    return rows.map((r) => ({
      player: toPlayer(r),
      online: true,
      last_seen_at: isoRequired(r.last_seen_at),
      server: { id: r.server_id, name: r.server_name },
    }));
  }
}
