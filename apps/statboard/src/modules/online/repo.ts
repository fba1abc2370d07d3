import type { Queryable } from '#src/db/types.ts';

/**
 * The `GET /online` answer's JSON (`{"data":[…]}`), written by the database as JSON.stringify writes the entries
 * (`{player: {id, uuid, username, public}, online, last_seen_at, server: {id, name}}`, no spaces): public
 * players with an open session heartbeated within the window, each once (with the server of its latest
 * session), by username; with `serverIds`, only sessions on those servers. With thousands online the answer is
 * megabytes: read as one text, it costs the service a copy instead of parsing and serializing every entry.
 */
export async function onlineJson(
  db: Queryable,
  q: {
    workspaceId: string;
    onlyUuids: readonly string[] | null;
    serverIds: readonly string[] | null;
    windowSeconds: number;
  },
): Promise<string> {
  const rows = await db.query<{ json: string }>(
    `SELECT '{"data":[' || coalesce(string_agg(
         '{"player":{"id":"' || o.id || '","uuid":"' || o.uuid || '","username":' || to_json(o.username)::text
         || ',"public":' || o.public::text || '},"online":true,"last_seen_at":"'
         || to_char(o.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         || '","server":{"id":"' || o.server_id || '","name":' || to_json(o.server_name)::text || '}}',
         ',' ORDER BY lower(o.username), o.uuid), '') || ']}' AS json
     FROM (
       SELECT DISTINCT ON (p.id) p.id, p.uuid, p.username, p.public, g.last_seen_at,
         sv.id AS server_id, sv.name AS server_name
       FROM game_sessions g JOIN players p ON p.id = g.player_id JOIN servers sv ON sv.id = g.server_id
       WHERE g.workspace_id = $1 AND g.ended_at IS NULL AND g.last_seen_at > now() - make_interval(secs => $3)
         AND p.public AND ($2::uuid[] IS NULL OR p.uuid = ANY($2::uuid[]))
         AND ($4::uuid[] IS NULL OR g.server_id = ANY($4::uuid[]))
       ORDER BY p.id, g.last_seen_at DESC
     ) o`,
    [q.workspaceId, q.onlyUuids, q.windowSeconds, q.serverIds],
  );
  return rows[0]!.json;
}
