import { textArray, uuidArray } from '#src/db/array-literal.ts';
import type { Queryable } from '#src/db/types.ts';
import type { Rule } from './rules.ts';

/** A statistic of the batch as screening needs it (missing: not defined yet in the workspace). */
export interface DefinitionFacts {
  id: string;
  max_per_hour: number | null;
  public: boolean;
  sort_order: 'asc' | 'desc';
}

/** A stored value as screening compares with it (times in ms). */
export interface LastValue {
  value: number;
  at: number;
  observedAt: number;
}

/** What the service knows of the uploading player and the batch's statistics, in one read. */
export interface ScreeningContext {
  player: { id: string; username: string; username_changed_at: Date | null } | null;
  definitions: Map<string, DefinitionFacts>;
  /** The server has verified values in the season. */
  serverVerified: boolean;
  /** The player's verified values of the batch's statistics on that server, by definition id (`at`: ms). */
  verified: ReadonlyMap<string, { value: number; at: number }>;
  /** The player's last stored values of the batch's statistics on that server, by definition
   * id: the server's own row (`server_stats`, whose `updated_at` is when the value arrived by the service's clock,
   * `at` here in ms), not the network total; `observedAt` (ms) is what the writer compares a later value with. */
  last: ReadonlyMap<string, LastValue>;
  /** The player has any value on that server in the season. */
  hasStored: boolean;
}

/**
 * The player (by workspace and UUID), the definitions of `keys`, whether the server has verified values in the
 * season, and **all** the player's verified values and last stored values on that server in the season (as
 * `server_stats` keeps them), not only those of `keys`: what the screening memory keeps, so that the player's next
 * uploads, whatever statistics they carry, read nothing. One statement, the one screening adds to an upload.
 *
 * The values are read by the player's indexes only: the season and server are compared as text, which no index
 * serves, so the plan cannot take a whole server's board (the primary key's prefix) for a player's few hundred rows,
 * whatever the tables' statistics. A database filled faster than autovacuum analyses it (a new network's first
 * hour, a restore) got such plans before (0.2 s per upload at 40,000 values, measured by bench:screening).
 */
export async function screeningContext(
  db: Queryable,
  workspaceId: string,
  seasonId: string,
  serverId: string,
  uuid: string,
  keys: readonly string[],
): Promise<ScreeningContext> {
  const rows = await db.query<{
    player_id: string | null;
    username: string | null;
    username_changed_at: Date | null;
    defs: [string, string, number | null, boolean, 'asc' | 'desc'][];
    server_verified: boolean;
    verified: [string, number, string][] | null;
    last: [string, number, string, string][] | null;
    has_stored: boolean;
  }>(
    `WITH defs AS MATERIALIZED (
       SELECT d.key, d.id, d.max_per_hour, d.public, d.sort_order
       FROM stat_definitions d WHERE d.workspace_id = $1 AND d.key = ANY($5::text[])
     ), player AS MATERIALIZED (
       SELECT p.id, p.username, p.username_changed_at FROM players p WHERE p.workspace_id = $1 AND p.uuid = $4
     ), last AS MATERIALIZED (
       SELECT json_agg(json_build_array(s.stat_id, s.value, s.updated_at, s.observed_at)) AS j
       FROM player p JOIN server_stats s
         ON s.player_id = p.id AND s.server_id = $3 AND s.season_id::text = $2::uuid::text
     )
     SELECT p.id AS player_id, p.username, p.username_changed_at,
       (SELECT coalesce(json_agg(json_build_array(d.key, d.id, d.max_per_hour, d.public, d.sort_order)), '[]'::json)
        FROM defs d) AS defs,
       EXISTS (SELECT 1 FROM verified_stats v WHERE v.server_id = $3 AND v.season_id = $2) AS server_verified,
       (SELECT json_agg(json_build_array(v.stat_id, v.value, v.received_at)) FROM verified_stats v
        WHERE v.player_id = p.id AND v.season_id = $2 AND v.server_id::text = $3::uuid::text) AS verified,
       (SELECT j FROM last) AS last,
       (SELECT j FROM last) IS NOT NULL AS has_stored
     FROM (SELECT 1) AS one LEFT JOIN player p ON true`,
    [workspaceId, seasonId, serverId, uuid, textArray(keys)],
  );
  const r = rows[0]!;
  return {
    player:
      r.player_id === null
        ? null
        : { id: r.player_id, username: r.username!, username_changed_at: r.username_changed_at },
    definitions: new Map(
      r.defs.map(([key, id, max, pub, order]) => [key, { id, max_per_hour: max, public: pub, sort_order: order }]),
    ),
    serverVerified: r.server_verified,
    verified: new Map((r.verified ?? []).map(([id, value, at]) => [id, { value, at: new Date(at).getTime() }])),
    last: new Map(
      (r.last ?? []).map(([id, value, at, observed]) => [
        id,
        { value, at: new Date(at).getTime(), observedAt: new Date(observed).getTime() },
      ]),
    ),
    hasStored: r.has_stored === true,
  };
}

/**
 * The boards of `stats` in the season as `first_sight` sees them: public players counted up to `min`, and the
 * value at rank `top` in each board's own order (only that order is read). `column`: what the boards rank, `value`
 * or, in a season that counts gains, `gain`.
 *
 * Each board is read from its top, in its index's order (an ascending board backwards, ties in either order: only
 * the count and the value matter), for at most max(`min`, `top`) rows: a few index entries
 * and their players whatever the board's size. (Counting without the order let the planner merge-join a board's
 * rows with every player of the workspace by id, which for a board of a few values, as every new or rare statistic
 * is, read all the players: 7 ms a statistic at 20,000 players, seconds for a first upload of 50 statistics.)
 */
export function boardTops(
  db: Queryable,
  seasonId: string,
  stats: readonly { id: string; order: 'asc' | 'desc' }[],
  min: number,
  top: number,
  column: 'value' | 'gain' = 'value',
): Promise<{ stat_id: string; players: number; tenth: number | null }[]> {
  const c = column === 'gain' ? 'gain' : 'value';
  const from = `FROM player_stats s JOIN players p ON p.id = s.player_id AND p.public
            WHERE s.season_id = $1 AND s.stat_id = t.d`;
  return db.query(
    `SELECT t.d AS stat_id, least(count(x.v), $3::int)::int AS players,
       CASE WHEN t.o = 'asc' THEN (array_agg(x.v ORDER BY x.v ASC))[$4::int]
         ELSE (array_agg(x.v ORDER BY x.v DESC))[$4::int] END AS tenth
     FROM unnest($2::uuid[], $5::text[]) AS t(d, o)
     LEFT JOIN LATERAL (
       (SELECT s.${c} AS v ${from} AND t.o = 'asc' ORDER BY s.${c} ASC, s.updated_at DESC LIMIT greatest($3::int, $4::int))
       UNION ALL
       (SELECT s.${c} AS v ${from} AND t.o <> 'asc' ORDER BY s.${c} DESC, s.updated_at LIMIT greatest($3::int, $4::int))
     ) x ON true
     GROUP BY t.d, t.o`,
    [seasonId, uuidArray(stats.map((s) => s.id)), min, top, textArray(stats.map((s) => s.order))],
  );
}

/**
 * The player's last values of `stats` on the server observed before the season began, from earlier seasons (the
 * baselines of a season that counts gains, as the writer finds them), by definition id.
 */
export async function priorValues(
  db: Queryable,
  seasonId: string,
  serverId: string,
  playerId: string,
  stats: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db.query<{ stat_id: string; value: number | null }>(
    `SELECT t.d AS stat_id,
       (SELECT p.value FROM server_stats p
        WHERE p.player_id = $3 AND p.stat_id = t.d AND p.server_id = $2 AND p.season_id <> $1
          AND p.observed_at < (SELECT coalesce(se.started_at, se.created_at) FROM seasons se WHERE se.id = $1)
        ORDER BY p.observed_at DESC LIMIT 1) AS value
     FROM unnest($4::uuid[]) AS t(d)`,
    [seasonId, serverId, playerId, uuidArray(stats)],
  );
  return new Map(rows.filter((r) => r.value !== null).map((r) => [r.stat_id, r.value!]));
}

/** Definitions a workspace's client uploads created since `since` (the daily limit of new statistics). */
export async function clientDefinitionsSince(db: Queryable, workspaceId: string, since: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM stat_definitions WHERE workspace_id = $1 AND from_client AND created_at >= $2',
    [workspaceId, since],
  );
  return rows[0]!.n;
}

/** A held value (or, with `stat` '', a held username) as the review queue keeps it. */
export interface HeldRow {
  stat: string;
  season_id: string;
  rule: Rule;
  previous_value: number | null;
  previous_username: string | null;
  previous_at: string | null;
  value: number | null;
  username: string | null;
  observed_at: string;
  received_at: string;
  allowed: number | null;
}

/**
 * Adds held values to the open item of (server, player), opening one if there is none: per statistic the newest
 * observation is kept. Returns the item's id and whether this call opened it.
 */
export async function recordHeld(
  db: Queryable,
  item: { workspaceId: string; serverId: string; playerUuid: string; username: string; keyId: string | null },
  values: readonly HeldRow[],
): Promise<{ id: string; created: boolean }> {
  const rows = await db.query<{ id: string; created: boolean }>(
    `WITH item AS (
       INSERT INTO review_items AS r (workspace_id, server_id, player_uuid, username, key_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (server_id, player_uuid) WHERE status = 'open' DO UPDATE
         SET uploads = r.uploads + 1, username = excluded.username, key_id = excluded.key_id, updated_at = now()
       RETURNING id, (xmax = 0) AS created
     ), held AS (
       INSERT INTO review_values AS v (item_id, stat, season_id, rule, previous_value, previous_username, previous_at,
         value, username, observed_at, received_at, allowed)
       SELECT item.id, j.stat, j.season_id, j.rule, j.previous_value, j.previous_username, j.previous_at, j.value,
         j.username, j.observed_at, j.received_at, j.allowed
       FROM item, jsonb_to_recordset($6::jsonb) AS j(stat text, season_id uuid, rule text, previous_value float8,
         previous_username text, previous_at timestamptz, value float8, username text, observed_at timestamptz,
         received_at timestamptz, allowed float8)
       ON CONFLICT (item_id, stat) DO UPDATE SET season_id = excluded.season_id, rule = excluded.rule,
         previous_value = excluded.previous_value, previous_username = excluded.previous_username,
         previous_at = excluded.previous_at, value = excluded.value, username = excluded.username,
         observed_at = excluded.observed_at, received_at = excluded.received_at, allowed = excluded.allowed
       WHERE v.observed_at <= excluded.observed_at
       RETURNING 1
     )
     SELECT id, created FROM item`,
    [item.workspaceId, item.serverId, item.playerUuid, item.username, item.keyId, JSON.stringify(values)],
  );
  return rows[0]!;
}

export type ReviewStatus = 'open' | 'approved' | 'rejected';

export interface ReviewItemRow {
  id: string;
  status: ReviewStatus;
  player_uuid: string;
  username: string;
  server_id: string;
  server_name: string;
  key_id: string | null;
  key_name: string | null;
  created_at: Date;
  updated_at: Date;
  uploads: number;
  workspace_id: string;
  values: HeldRow[];
  total: number;
}

/** The item's columns; `total`: the expression of the `total` column (FOR UPDATE allows no window function). */
const itemSelect = (
  total: string,
) => `SELECT r.id, r.status, r.player_uuid::text AS player_uuid, coalesce(p.username, r.username) AS username,
       r.server_id::text AS server_id, s.name AS server_name, r.key_id::text AS key_id, k.name AS key_name,
       r.created_at, r.updated_at, r.uploads, r.workspace_id::text AS workspace_id, ${total} AS total,
       (SELECT coalesce(json_agg(json_build_object('stat', v.stat, 'season_id', v.season_id, 'rule', v.rule,
           'previous_value', v.previous_value, 'previous_username', v.previous_username, 'previous_at', v.previous_at,
           'value', v.value, 'username', v.username, 'observed_at', v.observed_at, 'received_at', v.received_at,
           'allowed', v.allowed) ORDER BY v.stat COLLATE "C"), '[]'::json)
        FROM review_values v WHERE v.item_id = r.id) AS values
     FROM review_items r
     JOIN servers s ON s.id = r.server_id
     LEFT JOIN api_keys k ON k.id = r.key_id
     LEFT JOIN players p ON p.workspace_id = r.workspace_id AND p.uuid = r.player_uuid`;

/** Items of a status, newest first, with their held values and the count of all. */
export function listItems(
  db: Queryable,
  workspaceId: string,
  status: ReviewStatus,
  limit: number,
  offset: number,
): Promise<ReviewItemRow[]> {
  return db.query<ReviewItemRow>(
    `${itemSelect('count(*) OVER ()::int')}
     WHERE r.workspace_id = $1 AND r.status = $2
     ORDER BY r.created_at DESC, r.id LIMIT $3 OFFSET $4`,
    [workspaceId, status, limit, offset],
  );
}

/** One item, locked for a decision. */
export async function findItemForUpdate(db: Queryable, workspaceId: string, id: string): Promise<ReviewItemRow | null> {
  const rows = await db.query<ReviewItemRow>(
    `${itemSelect('1')}
     WHERE r.workspace_id = $1 AND r.id = $2 FOR UPDATE OF r`,
    [workspaceId, id],
  );
  return rows[0] ?? null;
}

export async function setStatus(db: Queryable, id: string, status: ReviewStatus): Promise<void> {
  await db.query('UPDATE review_items SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
}

export async function countItems(db: Queryable, workspaceId: string, status: ReviewStatus): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM review_items WHERE workspace_id = $1 AND status = $2',
    [workspaceId, status],
  );
  return rows[0]!.n;
}

/**
 * Of the held values of an item, those still the newest: the stored value (if any) was observed no later than the
 * held one, on the item's server (`server_stats`).
 */
export async function stillNewest(
  db: Queryable,
  workspaceId: string,
  serverId: string,
  playerUuid: string,
  values: readonly { stat: string; season_id: string; observed_at: string }[],
): Promise<Set<string>> {
  const rows = await db.query<{ stat: string }>(
    `SELECT j.stat FROM jsonb_to_recordset($3::jsonb) AS j(stat text, season_id uuid, observed_at timestamptz)
     LEFT JOIN stat_definitions d ON d.workspace_id = $1 AND d.key = j.stat
     LEFT JOIN players p ON p.workspace_id = $1 AND p.uuid = $2
     LEFT JOIN server_stats s ON s.season_id = j.season_id AND s.server_id = $4 AND s.stat_id = d.id
       AND s.player_id = p.id
     WHERE s.observed_at IS NULL OR s.observed_at <= j.observed_at`,
    [workspaceId, playerUuid, JSON.stringify(values), serverId],
  );
  return new Set(rows.map((r) => r.stat));
}
