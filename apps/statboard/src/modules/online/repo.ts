import { uuidArray } from '#src/db/array-literal.ts';
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

/**
 * A server's own list of who is on it now (`POST /ingest/server` with `online`): the listed players' presence on
 * that server starts (a new session) or continues (their open session there, heartbeated within the window),
 * and every other open session on that server ends, as do listed players' sessions there that went silent. A
 * listed player not known yet is added as `unknown` (any real name wins later). One statement. Returns how many
 * sessions started.
 */
export async function setServerPresence(
  db: Queryable,
  q: { workspaceId: string; serverId: string; seasonId: string; uuids: readonly string[]; windowSeconds: number },
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH listed AS (
       INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT $1, u, 'unknown', '0001-01-01T00:00:00Z'::timestamptz
       FROM (SELECT DISTINCT u FROM unnest($4::uuid[]) AS t(u)) d ORDER BY u
       ON CONFLICT (workspace_id, uuid) DO UPDATE SET last_seen_at = now()
       RETURNING id
     ), ended AS (
       -- Run although nothing reads it: PostgreSQL runs every data-modifying WITH to completion.
       UPDATE game_sessions g SET ended_at = now()
       WHERE g.workspace_id = $1 AND g.server_id = $2 AND g.ended_at IS NULL
         AND (g.player_id NOT IN (SELECT id FROM listed) OR g.last_seen_at <= now() - make_interval(secs => $5))
       RETURNING g.player_id
     ), continued AS (
       UPDATE game_sessions g SET last_seen_at = now()
       WHERE g.workspace_id = $1 AND g.server_id = $2 AND g.ended_at IS NULL
         AND g.player_id IN (SELECT id FROM listed) AND g.last_seen_at > now() - make_interval(secs => $5)
       RETURNING g.player_id
     ), started AS (
       INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version,
         game_version, loader_version, started_at, last_seen_at, ended_at)
       SELECT $1, l.id, gen_random_uuid(), $2, $3, 'statboard-agent', 'unknown', NULL, now(), now(), NULL
       FROM listed l WHERE l.id NOT IN (SELECT player_id FROM continued)
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM started`,
    [q.workspaceId, q.serverId, q.seasonId, uuidArray(q.uuids), q.windowSeconds],
  );
  return rows[0]?.n ?? 0;
}
