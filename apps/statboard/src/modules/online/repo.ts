import type { Queryable } from '#src/db/types.ts';

export interface OnlineRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
  last_seen_at: Date;
  server_id: string;
  server_name: string;
}

/**
 * Public players with an open session heartbeated within the window, each once (with the server of its latest
 * session), by username; with `serverId`, only sessions on that server.
 */
export function onlinePlayers(
  db: Queryable,
  q: { workspaceId: string; onlyUuids: readonly string[] | null; serverId: string | null; windowSeconds: number },
): Promise<OnlineRow[]> {
  return db.query<OnlineRow>(
    `SELECT * FROM (
       SELECT DISTINCT ON (p.id) p.id, p.uuid, p.username, p.public, g.last_seen_at,
         sv.id AS server_id, sv.name AS server_name
       FROM game_sessions g JOIN players p ON p.id = g.player_id JOIN servers sv ON sv.id = g.server_id
       WHERE g.workspace_id = $1 AND g.ended_at IS NULL AND g.last_seen_at > now() - make_interval(secs => $3)
         AND p.public AND ($2::uuid[] IS NULL OR p.uuid = ANY($2::uuid[]))
         AND ($4::uuid IS NULL OR g.server_id = $4)
       ORDER BY p.id, g.last_seen_at DESC
     ) o ORDER BY lower(o.username), o.uuid`,
    [q.workspaceId, q.onlyUuids, q.windowSeconds, q.serverId],
  );
}
