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
