import { isoText } from '#src/db/iso-text.ts';
import type { Queryable } from '#src/db/types.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { likePattern, searchPage } from './repo.ts';

/** A player as the admin routes answer it, times already ISO 8601 text: a row is the answer's record as it is. */
export interface AdminPlayerRow {
  id: string;
  uuid: string;
  username: string;
  public: boolean;
  first_seen_at: string;
  last_seen_at: string;
}

/** In the order of the `AdminPlayer` schema (answers are the rows, serialized as they are). */
const COLUMNS = `id, uuid, username, public, ${isoText('first_seen_at')} AS first_seen_at,
  ${isoText('last_seen_at')} AS last_seen_at`;

/**
 * Players of the workspace, public or not, by `lower(username), uuid`; a search matches a username substring
 * (case-insensitive; `%` and `_` literal) or, for a term that is a UUID in the canonical form in any case, that
 * player's UUID. Unsearched, the list is read in order from `players_workspace_lower_username_uuid_idx` and stops
 * at `limit`. The UUID arm is in the query only for a UUID term, as a plain `uuid =`, so that each arm has its
 * index (the trigram index, the unique (workspace_id, uuid) index) and the planner combines them (BitmapOr); the
 * page is then sorted from the matches (see `searchPage`).
 */
export function listAllPlayers(
  db: Queryable,
  workspaceId: string,
  search: string | null,
  limit: number,
): Promise<AdminPlayerRow[]> {
  const q = listQuery(COLUMNS, '', '*', workspaceId, search, limit);
  return db.query<AdminPlayerRow>(q.sql, q.params);
}

/**
 * The page of `listAllPlayers` as one statement returning `columns` of each player. A search's page may be
 * sorted from a subquery (see `searchPage`), which then also selects `orderColumns` (`, username, uuid` unless
 * `columns` has them) and returns `returned` of its columns.
 */
function listQuery(
  columns: string,
  orderColumns: string,
  returned: string,
  workspaceId: string,
  search: string | null,
  limit: number,
): { sql: string; params: unknown[] } {
  if (search === null) {
    return {
      sql: `SELECT ${columns} FROM players WHERE workspace_id = $1 ORDER BY lower(username), uuid LIMIT $2`,
      params: [workspaceId, limit],
    };
  }
  // The same matches as the former `uuid::text = lower(term)`: a UUID's text is its canonical form in lower case.
  const uuid = isUuid(search) ? search.toLowerCase() : null;
  const select = `SELECT ${columns}${orderColumns} FROM players
    WHERE workspace_id = $1 AND (username ILIKE $2${uuid === null ? '' : ' OR uuid = $4::uuid'})`;
  return {
    sql: `${searchPage(select, search, 'lower(username), uuid', returned)} LIMIT $3`,
    params: uuid === null ? [workspaceId, likePattern(search), limit] : [workspaceId, likePattern(search), limit, uuid],
  };
}

/**
 * A player's `AdminPlayer` record as JSON text, rendered by the database: the bytes `JSON.stringify` gives for
 * the row of `COLUMNS` (fields in the schema's order, no spaces; `to_json` escapes a name exactly as
 * `JSON.stringify` does: `"`, `\`, the short escapes and `\u00xx` for other control characters, nothing else).
 */
const RECORD_JSON = `'{"id":"' || id || '","uuid":"' || uuid || '","username":' || to_json(username)::text
  || ',"public":' || public::text || ',"first_seen_at":"' || ${isoText('first_seen_at')}
  || '","last_seen_at":"' || ${isoText('last_seen_at')} || '"}' AS json`;

/**
 * The answer of `GET /admin/players` (`{"data":[AdminPlayer…]}`): `listAllPlayers`'s records as `JSON.stringify`
 * writes them, each rendered by the database (0.1–0.4 ms more of its time for a page of 500) and joined in order. The
 * service reads one string per player instead of six fields, parses no time and serializes nothing: reading,
 * mapping and serializing the rows was nearly all of the request's CPU.
 */
export async function listAllPlayersJson(
  db: Queryable,
  workspaceId: string,
  search: string | null,
  limit: number,
): Promise<string> {
  const q = listQuery(RECORD_JSON, ', username, uuid', 'json', workspaceId, search, limit);
  const rows = await db.query<{ json: string }>(q.sql, q.params);
  return `{"data":[${rows.map((r) => r.json).join(',')}]}`;
}

/** By internal id or game UUID. */
export async function findPlayer(db: Queryable, workspaceId: string, ref: string): Promise<AdminPlayerRow | null> {
  const rows = await db.query<AdminPlayerRow>(
    `SELECT ${COLUMNS} FROM players WHERE workspace_id = $1 AND (id = $2 OR uuid = $2) ORDER BY (uuid = $2) DESC LIMIT 1`,
    [workspaceId, ref],
  );
  return rows[0] ?? null;
}

export async function setPublic(db: Queryable, id: string, isPublic: boolean): Promise<AdminPlayerRow> {
  const rows = await db.query<AdminPlayerRow>(
    `UPDATE players SET public = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, isPublic],
  );
  return rows[0]!;
}

/** What `removeValues` removed. */
export interface RemovedValues {
  /** Values removed, one per (season, server, statistic): every server's, or with a server that server's. */
  values: number;
  /** Points of history removed: the network's (`stat_history`) and the servers' (`server_stat_history`). */
  history: number;
  /** Statistics whose value was removed (ids), for the caches. */
  statIds: string[];
}

/** The id of a workspace's statistic by its key, or null. */
export async function findStatId(db: Queryable, workspaceId: string, key: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>('SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = $2', [
    workspaceId,
    key,
  ]);
  return rows[0]?.id ?? null;
}

/**
 * Removes a player's values of one season (of one statistic when `statId` is given) with their history and the
 * verified values they were compared with, in one statement.
 *
 * Without `serverId`: the network values and every server's values behind them, with all their history. With it:
 * that server's values and history; each network value loses that server's share (value and gain), and goes,
 * history included, when no other server holds a value of it. The network's history points of a value other
 * servers still hold stay (they are sums). `values` counts the values removed as they are kept, per server (a
 * network value that no server's value stands behind, written before values were kept per server, counts as one).
 */
export async function removeValues(
  db: Queryable,
  s: { playerId: string; seasonId: string; statId: string | null; serverId: string | null },
): Promise<RemovedValues> {
  const params = [s.playerId, s.seasonId, s.statId, s.serverId];
  const verified = `verified AS (
       DELETE FROM verified_stats WHERE player_id = $1 AND season_id = $2 AND ($3::uuid IS NULL OR stat_id = $3::uuid)
         AND ($4::uuid IS NULL OR server_id = $4::uuid)
       RETURNING 1
     )`;
  const serverHistory = `server_history AS (
       DELETE FROM server_stat_history WHERE player_id = $1 AND season_id = $2
         AND ($3::uuid IS NULL OR stat_id = $3::uuid) AND ($4::uuid IS NULL OR server_id = $4::uuid)
       RETURNING 1
     )`;
  const rows = await db.query<{ stat_ids: string[] | null; values: number; history: number }>(
    s.serverId === null
      ? `WITH removed AS (
           DELETE FROM player_stats WHERE player_id = $1 AND season_id = $2 AND ($3::uuid IS NULL OR stat_id = $3::uuid)
           RETURNING stat_id
         ), servers AS (
           DELETE FROM server_stats WHERE player_id = $1 AND season_id = $2 AND ($3::uuid IS NULL OR stat_id = $3::uuid)
           RETURNING stat_id
         ), history AS (
           DELETE FROM stat_history WHERE player_id = $1 AND season_id = $2 AND ($3::uuid IS NULL OR stat_id = $3::uuid)
           RETURNING 1
         ), ${serverHistory}, ${verified}
         -- Each server's value, and a network value that no server's value stood behind (written before values
         -- were kept per server).
         SELECT (SELECT array_agg(stat_id) FROM removed) AS stat_ids,
           ((SELECT count(*) FROM servers)
             + (SELECT count(*) FROM removed r WHERE r.stat_id NOT IN (SELECT stat_id FROM servers)))::int AS values,
           ((SELECT count(*) FROM history) + (SELECT count(*) FROM server_history))::int AS history,
           (SELECT count(*) FROM verified) AS verified`
      : `WITH removed AS (
           DELETE FROM server_stats WHERE player_id = $1 AND season_id = $2 AND ($3::uuid IS NULL OR stat_id = $3::uuid)
             AND server_id = $4::uuid
           RETURNING stat_id, value, gain
         ), others AS (
           -- The statement sees the table as it was before it: the other servers' values of each statistic.
           SELECT r.stat_id, r.value, r.gain, count(o.stat_id) AS n
           FROM removed r
           LEFT JOIN server_stats o ON o.player_id = $1 AND o.season_id = $2 AND o.stat_id = r.stat_id
             AND o.server_id <> $4::uuid
           GROUP BY r.stat_id, r.value, r.gain
         ), gone AS (
           DELETE FROM player_stats p USING others x
           WHERE x.n = 0 AND p.player_id = $1 AND p.season_id = $2 AND p.stat_id = x.stat_id
           RETURNING 1
         ), reduced AS (
           UPDATE player_stats p SET value = p.value - x.value, gain = greatest(p.gain - x.gain, 0), updated_at = now()
           FROM others x
           WHERE x.n > 0 AND p.player_id = $1 AND p.season_id = $2 AND p.stat_id = x.stat_id
           RETURNING 1
         ), history AS (
           DELETE FROM stat_history h USING others x
           WHERE x.n = 0 AND h.player_id = $1 AND h.season_id = $2 AND h.stat_id = x.stat_id
           RETURNING 1
         ), ${serverHistory}, ${verified}
         SELECT (SELECT array_agg(stat_id) FROM removed) AS stat_ids, (SELECT count(*) FROM removed)::int AS values,
           ((SELECT count(*) FROM history) + (SELECT count(*) FROM server_history))::int AS history,
           (SELECT count(*) FROM gone) AS gone,
           (SELECT count(*) FROM reduced) AS reduced, (SELECT count(*) FROM verified) AS verified`,
    params,
  );
  const r = rows[0]!;
  return { values: r.values, history: r.history, statIds: r.stat_ids ?? [] };
}

/** What erasing a player removes, counted before it goes. */
export interface ErasedCounts {
  values: number;
  history: number;
  sessions: number;
  events: number;
}

/**
 * Erases a player: the `players` row, and with it (by the foreign keys' cascade) every value, history point,
 * verified value, session and event of theirs, and their review items. Returns what went, counted in the same statement.
 */
export async function erasePlayer(db: Queryable, playerId: string): Promise<ErasedCounts> {
  const rows = await db.query<ErasedCounts>(
    `WITH gone AS (DELETE FROM players WHERE id = $1 RETURNING id, workspace_id, uuid),
     -- Review items name the player by game UUID (a player held at first sight may have had no row).
     reviews AS (
       DELETE FROM review_items r USING gone g WHERE r.workspace_id = g.workspace_id AND r.player_uuid = g.uuid
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM player_stats WHERE player_id = $1)::int AS values,
       (SELECT count(*) FROM stat_history WHERE player_id = $1)::int AS history,
       (SELECT count(*) FROM game_sessions WHERE player_id = $1)::int AS sessions,
       (SELECT count(*) FROM events WHERE player_id = $1)::int AS events,
       (SELECT count(*) FROM gone)::int AS gone, (SELECT count(*) FROM reviews)::int AS reviews`,
    [playerId],
  );
  const r = rows[0]!;
  return { values: r.values, history: r.history, sessions: r.sessions, events: r.events };
}

/** A blocked player, times as ISO 8601 text. */
export interface PlayerBlockRow {
  uuid: string;
  blocked_at: string;
  blocked_by: string | null;
}

const BLOCK_COLUMNS = `uuid, ${isoText('blocked_at')} AS blocked_at, blocked_by`;

/** Blocks a game UUID in the workspace (a block already there is kept as it was). */
export async function insertBlock(
  db: Queryable,
  workspaceId: string,
  uuid: string,
  userId: string | null,
): Promise<PlayerBlockRow> {
  await db.query(
    `INSERT INTO player_blocks (workspace_id, uuid, blocked_by) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, uuid) DO NOTHING`,
    [workspaceId, uuid, userId],
  );
  const rows = await db.query<PlayerBlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM player_blocks WHERE workspace_id = $1 AND uuid = $2`,
    [workspaceId, uuid],
  );
  return rows[0]!;
}

/** Lifts a block; null when the UUID was not blocked. */
export async function deleteBlock(db: Queryable, workspaceId: string, uuid: string): Promise<PlayerBlockRow | null> {
  const rows = await db.query<PlayerBlockRow>(
    `DELETE FROM player_blocks WHERE workspace_id = $1 AND uuid = $2 RETURNING ${BLOCK_COLUMNS}`,
    [workspaceId, uuid],
  );
  return rows[0] ?? null;
}

/** The workspace's blocked players, the newest block first. */
export function listBlocks(db: Queryable, workspaceId: string): Promise<PlayerBlockRow[]> {
  return db.query<PlayerBlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM player_blocks WHERE workspace_id = $1 ORDER BY blocked_at DESC, uuid`,
    [workspaceId],
  );
}
