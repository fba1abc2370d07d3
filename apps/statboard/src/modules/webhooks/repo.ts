import type { Queryable } from '#src/db/types.ts';
import { rankOrder } from '#src/modules/leaderboards/repo.ts';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  pending_deliveries: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookWrite {
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
}

/** A webhook with its backlog and its latest attempt. */
const SELECT_WEBHOOK = `SELECT w.id, w.workspace_id, w.url, w.description, w.events, w.enabled, w.created_at, w.updated_at,
    (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending')
      AS pending_deliveries,
    last.started_at AS last_attempt_at, last.status_code AS last_status_code, last.error AS last_error
  FROM webhooks w
  LEFT JOIN LATERAL (
    SELECT a.started_at, a.status_code, a.error
    FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = d.attempts
    WHERE d.webhook_id = w.id AND d.last_attempt_at IS NOT NULL
    ORDER BY d.last_attempt_at DESC LIMIT 1) last ON true`;

export function listWebhooks(db: Queryable, workspaceId: string): Promise<WebhookRow[]> {
  return db.query<WebhookRow>(`${SELECT_WEBHOOK} WHERE w.workspace_id = $1 ORDER BY w.created_at, w.id`, [workspaceId]);
}

export async function findWebhook(db: Queryable, workspaceId: string, id: string): Promise<WebhookRow | null> {
  const rows = await db.query<WebhookRow>(`${SELECT_WEBHOOK} WHERE w.workspace_id = $1 AND w.id = $2`, [
    workspaceId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function insertWebhook(
  db: Queryable,
  workspaceId: string,
  w: WebhookWrite,
  secret: string,
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO webhooks (workspace_id, url, description, events, enabled, secret)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [workspaceId, w.url, w.description, w.events, w.enabled, secret],
  );
  return rows[0]!.id;
}

/** Replaces a webhook's settings (locks its row); false when there is no such webhook. */
export async function updateWebhook(db: Queryable, workspaceId: string, id: string, w: WebhookWrite): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhooks SET url = $3, description = $4, events = $5, enabled = $6, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 RETURNING 1`,
    [workspaceId, id, w.url, w.description, w.events, w.enabled],
  );
  return rows.length > 0;
}

/** Deletes a webhook with its deliveries; false when there is no such webhook. */
export async function deleteWebhook(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2 RETURNING 1', [
    workspaceId,
    id,
  ]);
  return rows.length > 0;
}

/** A new secret; the current one keeps signing, beside it, until `graceUntil` (null: not at all). */
export async function rotateSecret(
  db: Queryable,
  workspaceId: string,
  id: string,
  secret: string,
  graceUntil: Date | null,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhooks SET previous_secret = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret END,
       previous_secret_until = $4, secret = $3, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 RETURNING 1`,
    [workspaceId, id, secret, graceUntil],
  );
  return rows.length > 0;
}

/** Event types each workspace's enabled webhooks subscribe to. */
export function subscriptions(db: Queryable): Promise<{ workspace_id: string; events: string[] }[]> {
  return db.query('SELECT workspace_id, events FROM webhooks WHERE enabled');
}

/**
 * The outbox write: one message, and one delivery for each enabled webhook of the workspace subscribed to its
 * type (or only for `onlyWebhook`, whatever it subscribes to). Nothing when no webhook would receive it.
 * Returns the deliveries created.
 */
export async function enqueue(
  db: Queryable,
  workspaceId: string,
  type: string,
  data: unknown,
  onlyWebhook: string | null = null,
): Promise<{ id: string; message_id: string }[]> {
  return db.query(
    `WITH hooks AS (
       SELECT id FROM webhooks
       WHERE workspace_id = $1 AND enabled AND (CASE WHEN $4::uuid IS NULL THEN $2 = ANY(events) ELSE id = $4 END)
     ), m AS (
       INSERT INTO webhook_messages (workspace_id, type, data)
       SELECT $1, $2, $3::jsonb WHERE EXISTS (SELECT 1 FROM hooks) RETURNING id
     )
     INSERT INTO webhook_deliveries (webhook_id, message_id) SELECT hooks.id, m.id FROM hooks CROSS JOIN m
     RETURNING id, message_id`,
    [workspaceId, type, JSON.stringify(data), onlyWebhook],
  );
}

/**
 * The outbox write of the ingest statement (a CTE after its `up` CTE, whose rows carry `inserted`): a
 * `player.first_seen` message for each player the statement created, and its deliveries. Costs one lookup of the
 * group's workspaces' webhooks when none subscribes.
 */
export function firstSeenOutbox(workspacesParam: string): string {
  return `hooks AS (
       SELECT id, workspace_id, events FROM webhooks WHERE enabled AND workspace_id = ANY(${workspacesParam}::uuid[])
     ), first_seen AS (
       INSERT INTO webhook_messages (workspace_id, type, data)
       SELECT up.workspace_id, 'player.first_seen',
              jsonb_build_object('player', jsonb_build_object('uuid', up.uuid, 'username', up.username),
                                 'first_seen_at', up.first_seen_at)
       FROM up
       WHERE up.inserted
         AND EXISTS (SELECT 1 FROM hooks h WHERE h.workspace_id = up.workspace_id AND 'player.first_seen' = ANY(h.events))
       RETURNING id, workspace_id, type
     ), first_seen_deliveries AS (
       INSERT INTO webhook_deliveries (webhook_id, message_id)
       SELECT h.id, m.id FROM first_seen m JOIN hooks h ON h.workspace_id = m.workspace_id AND m.type = ANY(h.events)
       RETURNING 1
     )`;
}

/**
 * The rank-1 entry of a board as a LATERAL subquery (rows `id, uuid, username, value`; none for an empty board),
 * served by the leaderboard index in either order: only the branch of the definition's order runs.
 */
function topOfBoard(season: string, stat: string, def: string, scoring: string): string {
  const branch = (order: 'asc' | 'desc', column: 'value' | 'gain') =>
    `(SELECT p.id, p.uuid, p.username, s.${column} AS value FROM player_stats s JOIN players p ON p.id = s.player_id
          WHERE ${def}.sort_order = '${order}' AND ${scoring} = '${column === 'gain' ? 'gains' : 'absolute'}'
            AND s.season_id = ${season} AND s.stat_id = ${stat} AND p.public
          ORDER BY ${rankOrder(order, column)} LIMIT 1)`;
  return [branch('desc', 'value'), branch('asc', 'value'), branch('desc', 'gain'), branch('asc', 'gain')].join(
    ' UNION ALL ',
  );
}

/**
 * The rank-1 player and value of each (season, statistic), with the statistic's order and visibility and whether
 * the season is active.
 */
export function leadersOf(
  db: Queryable,
  seasonIds: string[],
  statIds: string[],
): Promise<
  {
    s: string;
    d: string;
    sort_order: 'asc' | 'desc';
    public: boolean;
    active: boolean;
    uuid: string | null;
    value: number | null;
    /** The workspace has several servers: a value is one server's part of the network total. */
    multi: boolean;
  }[]
> {
  return db.query(
    `SELECT t.s, t.d, def.sort_order, def.public, se.active, top.uuid, top.value,
       (SELECT count(*) FROM servers v WHERE v.workspace_id = def.workspace_id) > 1 AS multi
     FROM unnest($1::uuid[], $2::uuid[]) AS t(s, d)
     JOIN stat_definitions def ON def.id = t.d
     JOIN seasons se ON se.id = t.s
     LEFT JOIN LATERAL (${topOfBoard('t.s', 't.d', 'def', 'se.scoring')}) top ON true`,
    [seasonIds, statIds],
  );
}

/**
 * The leader check of the ingest statement, run only for the candidate boards the writer found (where a value
 * beats the rank-1 value it knows of, where it knows of none, or, with several servers, wherever a value is
 * written). On each board of a public statistic in the active season, the best value the statement wrote of a
 * public player (in the leaderboard's order: value in the statistic's order, then the lower UUID, as every value
 * the statement changes has the same `updated_at`) is the new leader when the board had no public player's value
 * before the statement, or when it beats the rank 1 of the board before the statement (another player: one already
 * rank 1 changes nothing). A `leaderboard.leader_changed` message is then written with its deliveries; `previous`
 * holds null fields when the board had no leader. Returns the rows of the CTE `leaders` (the statement's result
 * carries them).
 *
 * The board's rank 1 is read only when that best value beats the candidate's bound (the rank-1 value the writer
 * knows of; null: always). The writer's value is not better than the committed rank 1's (what lowers a rank 1 in
 * its sight, its own writes, removals and visibility changes, makes it read the board again; as with one server, a
 * fall through another instance's upload alone is not seen), so a value that does not beat the bound cannot beat
 * the rank 1 (an equal value keeps the earlier one first): with several servers, where every written value makes a
 * candidate, only the totals that could take rank 1 cost a read. CTE `checked` names the boards read; CTE `held` carries the new total of the known
 * leader (`$c+4`) where the statement wrote one, for the writer's memory (it cannot sum one server's part).
 *
 * Players come from `up` (which returns `public`), never from `players`: a data-modifying CTE's sibling reads the
 * table as it was before the statement, where a player the statement creates (public by default) does not exist.
 * Params: `$c` (uuid[] workspaces), `$c+1` seasons, `$c+2` statistics, `$c+3` (float8[]) bounds, `$c+4` (uuid[])
 * the known leaders' game UUIDs.
 */
export function leaderOutbox(c: number): string {
  const value = "CASE se.scoring WHEN 'gains' THEN sr.gain ELSE sr.value END";
  const beats = (a: string, b: string) => `CASE c.sort_order WHEN 'asc' THEN ${a} < ${b} ELSE ${a} > ${b} END`;
  // MATERIALIZED: the candidates are found once (a few rows), and each board's top is read once.
  // Inlined, the planner (which cannot know how many rows a CTE returns) may read it once per value written.
  return `known AS (
       SELECT * FROM unnest($${c}::uuid[], $${c + 1}::uuid[], $${c + 2}::uuid[], $${c + 3}::float8[], $${c + 4}::uuid[])
         AS t(w, s, d, bound, l)
     ), candidates AS MATERIALIZED (
       SELECT DISTINCT ON (t.s, t.d) t.w, t.s, t.d, t.bound, up.id AS player_id, up.uuid AS u, up.username,
              ${value} AS value, se.scoring,
              def.sort_order, def.key, def.display_name, se.name AS season_name, se.slug AS season_slug
       FROM known t
       JOIN stat_definitions def ON def.id = t.d AND def.public
       JOIN seasons se ON se.id = t.s AND se.active
       JOIN stat_rows sr ON sr.season_id = t.s AND sr.stat_id = t.d
       JOIN up ON up.id = sr.player_id AND up.public
       ORDER BY t.s, t.d, CASE def.sort_order WHEN 'asc' THEN 1 ELSE -1 END * ${value}, up.uuid
     ), checked AS MATERIALIZED (
       SELECT c.*, prev.id AS prev_id, prev.uuid AS prev_uuid, prev.username AS prev_username, prev.value AS prev_value
       FROM (SELECT * FROM candidates c WHERE c.bound IS NULL OR ${beats('c.value', 'c.bound')}) c
       LEFT JOIN LATERAL (${topOfBoard('c.s', 'c.d', 'c', 'c.scoring')}) prev ON true
     ), leaders AS (
       SELECT * FROM checked c
       -- No public value before: the first one leads. Else the rank 1 before this statement is another player's,
       -- and the candidate takes its place only by beating it (an equal value keeps the earlier one first); it
       -- then beats every other public player too.
       WHERE c.prev_id IS NULL OR (c.prev_id <> c.player_id AND ${beats('c.value', 'c.prev_value')})
     ), held AS (
       SELECT t.s, t.d, ${value} AS value
       FROM known t
       JOIN seasons se ON se.id = t.s
       JOIN up ON up.workspace_id = t.w AND up.uuid = t.l
       JOIN stat_rows sr ON sr.season_id = t.s AND sr.stat_id = t.d AND sr.player_id = up.id
     ), leader_messages AS (
       INSERT INTO webhook_messages (workspace_id, type, data)
       SELECT l.w, 'leaderboard.leader_changed', jsonb_build_object(
         'season', jsonb_build_object('id', l.s, 'name', l.season_name, 'slug', l.season_slug),
         'stat', jsonb_build_object('key', l.key, 'display_name', l.display_name),
         'player', jsonb_build_object('uuid', l.u, 'username', l.username),
         'value', l.value,
         'previous', jsonb_build_object(
           'player', CASE WHEN l.prev_uuid IS NOT NULL
                          THEN jsonb_build_object('uuid', l.prev_uuid, 'username', l.prev_username) END,
           'value', l.prev_value))
       FROM leaders l
       WHERE EXISTS (SELECT 1 FROM hooks h WHERE h.workspace_id = l.w AND 'leaderboard.leader_changed' = ANY(h.events))
       RETURNING id, workspace_id, type
     ), leader_deliveries AS (
       INSERT INTO webhook_deliveries (webhook_id, message_id)
       SELECT h.id, m.id FROM leader_messages m JOIN hooks h ON h.workspace_id = m.workspace_id AND m.type = ANY(h.events)
       RETURNING 1
     )`;
}

/** A delivery claimed for sending, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  lease: string;
  attempt: number;
  webhook_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  message_id: string;
  type: string;
  data: unknown;
  message_created_at: Date;
  created_at: Date;
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks for `leaseMs`: rows another sender is claiming are
 * skipped (FOR UPDATE SKIP LOCKED), and a claimed row is not due again before its lease has passed.
 */
export function claimDue(db: Queryable, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return db.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.enabled
         AND (d.locked_until IS NULL OR d.locked_until <= now())
       ORDER BY d.next_attempt_at LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d SET locked_until = now() + $2 * interval '1 millisecond', lease = gen_random_uuid()
       FROM due WHERE d.id = due.id
       RETURNING d.id, d.lease, d.attempts + 1 AS attempt, d.webhook_id, d.message_id, d.created_at
     )
     SELECT c.id, c.lease, c.attempt, c.webhook_id, w.url, w.secret,
            CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS previous_secret,
            c.message_id, m.type, m.data, m.created_at AS message_created_at, c.created_at
     FROM claimed c JOIN webhooks w ON w.id = c.webhook_id JOIN webhook_messages m ON m.id = c.message_id`,
    [limit, leaseMs],
  );
}

export interface AttemptRecord {
  id: string;
  lease: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The delivery's state after this attempt, and when it is tried next (pending). */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
}

/**
 * Records one attempt and the delivery's new state, if this sender still holds the delivery (its lease); false
 * when the lease was lost (the attempt is then not recorded: another sender owns the delivery).
 */
export async function finishAttempt(db: Queryable, a: AttemptRecord): Promise<boolean> {
  const rows = await db.query(
    `WITH u AS (
       UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $3, status = $7,
         next_attempt_at = COALESCE($8, next_attempt_at), delivered_at = CASE WHEN $7 = 'delivered' THEN now() END,
         locked_until = NULL, lease = NULL
       WHERE id = $1 AND lease = $2
       RETURNING id, attempts)
     INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
     SELECT id, attempts, $3, $4, $5, $6 FROM u
     ON CONFLICT DO NOTHING RETURNING 1`,
    [a.id, a.lease, a.startedAt, a.durationMs, a.statusCode, a.error, a.status, a.nextAttemptAt],
  );
  return rows.length > 0;
}

/** Gives up on pending deliveries older than `before` that no sender holds (e.g. of a webhook left disabled). */
export async function expirePending(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = now()
     WHERE status = 'pending' AND created_at < $1 AND (locked_until IS NULL OR locked_until <= now())
     RETURNING 1`,
    [before],
  );
  return rows.length;
}

/** Deletes up to `limit` finished deliveries older than `before`; returns how many. */
export async function pruneDeliveries(db: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 LIMIT $2)
     RETURNING 1`,
    [before, limit],
  );
  return rows.length;
}

/** Deletes up to `limit` messages older than `before` that no delivery refers to any more. */
export async function pruneMessages(db: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM webhook_messages WHERE id IN (
       SELECT m.id FROM webhook_messages m
       WHERE m.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id)
       LIMIT $2)
     RETURNING 1`,
    [before, limit],
  );
  return rows.length;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  message_id: string;
  type: string;
  data: unknown;
  message_created_at: Date;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  attempts: {
    attempt: number;
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
  }[];
  total: number;
}

/** A webhook's deliveries, newest first, each with every attempt. */
export function listDeliveries(
  db: Queryable,
  webhookId: string,
  limit: number,
  offset: number,
): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `SELECT d.id, d.webhook_id, d.message_id, m.type, m.data, m.created_at AS message_created_at, d.status,
            d.next_attempt_at, d.delivered_at, d.created_at,
            COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at,
                        'duration_ms', a.duration_ms, 'status_code', a.status_code, 'error', a.error) ORDER BY a.attempt)
                      FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts,
            count(*) OVER ()::int AS total
     FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
     WHERE d.webhook_id = $1
     ORDER BY d.created_at DESC, d.id DESC LIMIT $2 OFFSET $3`,
    [webhookId, limit, offset],
  );
}

/** Deliveries of a webhook in all. */
export async function countDeliveries(db: Queryable, webhookId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1',
    [webhookId],
  );
  return rows[0]?.n ?? 0;
}
