import type { MovedValue } from '#src/cache/bus.ts';
import { nullableNumberArray, numberArray, textArray, timestampArray, uuidArray } from '#src/db/array-literal.ts';
import { microsSql } from '#src/db/iso-text.ts';
import type { Queryable } from '#src/db/types.ts';
import { defaultMaxPerHour } from '#src/modules/stats/stat-defaults.ts';
import { firstSeenOutbox, leaderOutbox } from '#src/modules/webhooks/repo.ts';

export interface PlayerUpsert {
  workspaceId: string;
  uuid: string;
  username: string;
  observedAt: Date;
}

/**
 * Creates missing statistic definitions (public, sorted descending, with the default hourly limit of their key) and
 * returns the ids of all asked for. `fromClient[i]`: the i-th key comes from a client upload (counted against the
 * daily limit of new statistics); default false.
 */
export async function ensureDefinitions(
  tx: Queryable,
  workspaceIds: string[],
  keys: string[],
  fromClient: boolean[] = [],
): Promise<{ id: string; workspace_id: string; key: string }[]> {
  const categories = keys.map((k) => k.split(':')[1] ?? null);
  await tx.query(
    `INSERT INTO stat_definitions (workspace_id, key, category, max_per_hour, from_client)
     SELECT w, k, c, m, f FROM unnest($1::uuid[], $2::text[], $3::text[], $4::float8[], $5::boolean[]) AS t(w, k, c, m, f)
     ON CONFLICT (workspace_id, key) DO NOTHING`,
    [workspaceIds, keys, categories, keys.map(defaultMaxPerHour), keys.map((_, i) => fromClient[i] === true)],
  );
  return tx.query(
    `SELECT d.id, d.workspace_id, d.key FROM stat_definitions d
     JOIN unnest($1::uuid[], $2::text[]) AS t(w, k) ON d.workspace_id = t.w AND d.key = t.k`,
    [workspaceIds, keys],
  );
}

export interface SessionUpsert {
  workspace_id: string;
  player_id: string;
  session_id: string;
  server_id: string;
  season_id: string;
  mod_version: string;
  game_version: string;
  loader_version: string | null;
  ended: boolean;
}

export interface EventInsert {
  workspace_id: string;
  id: string;
  player_id: string;
  session_id: string;
  server_id: string;
  season_id: string;
  type: string;
  occurred_at: string;
  payload: unknown;
}

/**
 * A group of batches, de-duplicated, ready for `writeGroup`, in a compact form: each player once, each batch
 * ("item") once with its player, season and observation time, and each value as (item, statistic, value).
 * Indexes are 1-based, as SQL's `WITH ORDINALITY` counts.
 */
export interface GroupRows {
  /** Sorted by (workspace, uuid): rows are locked in one order by every group, so groups cannot deadlock. */
  players: PlayerUpsert[];
  items: { player: number; seasonId: string; serverId: string; observedAt: Date }[];
  stats: { item: number; statId: string; value: number }[];
  sessions: (Omit<SessionUpsert, 'player_id'> & { player_uuid: string })[];
  events: (Omit<EventInsert, 'player_id'> & { player_uuid: string })[];
  /** NOTIFY payloads for other instances' caches, sent by the statement itself (delivered at its commit). */
  notify: { channel: string; payloads: string[] };
}

/**
 * CTE body `server_rows`: the rule of every stored value, per server. `rows` is a SELECT of (season_id, server_id,
 * stat_id, player_id, value, observed_at, updated_at), one row per key. The latest observation wins and a late one
 * never overwrites a newer value; `updated_at` moves only when the value changes. A new row's baseline (what its
 * gain counts from) is the player's last value of the statistic on that server observed before the season
 * started (any earlier season: a statistic's id is its workspace's), else the value itself; a value below it means
 * the counter was reset, and counts from 0. When the counter drops, the gain so far is carried and the new counter
 * counts on top of it. A gain is never negative. Returns the rows written with the value and gain they replaced
 * (null for a new row), for `networkValueUpsert`.
 */
export function serverValueUpsert(rows: string): string {
  const drop = 'excluded.value < cur.value';
  return `INSERT INTO server_stats AS cur (season_id, server_id, stat_id, player_id, value, baseline, gain, observed_at,
         updated_at)
       SELECT r.season_id, r.server_id, r.stat_id, r.player_id, r.value, b.baseline, greatest(r.value - b.baseline, 0),
         r.observed_at, r.updated_at
       FROM (${rows}) r
       -- Whether the workspace has another season at all: else there is no earlier value to look up.
       JOIN (SELECT s.id, coalesce(s.started_at, s.created_at) AS start,
               EXISTS (SELECT 1 FROM seasons o WHERE o.workspace_id = s.workspace_id AND o.id <> s.id) AS others
             FROM seasons s) se ON se.id = r.season_id
       CROSS JOIN LATERAL (
         SELECT CASE WHEN se.others THEN (
           SELECT p.value FROM server_stats p
           WHERE p.player_id = r.player_id AND p.stat_id = r.stat_id AND p.server_id = r.server_id
             AND p.season_id <> r.season_id AND p.observed_at < se.start
           ORDER BY p.observed_at DESC LIMIT 1) END AS value
       ) prior
       CROSS JOIN LATERAL (
         SELECT CASE WHEN prior.value IS NULL THEN r.value WHEN r.value < prior.value THEN 0 ELSE prior.value END AS baseline
       ) b
       ORDER BY r.season_id, r.server_id, r.stat_id, r.player_id
       ON CONFLICT (season_id, server_id, stat_id, player_id) DO UPDATE SET
         value = excluded.value,
         baseline = CASE WHEN ${drop} THEN 0 ELSE cur.baseline END,
         carried = CASE WHEN ${drop} THEN cur.gain ELSE cur.carried END,
         gain = CASE WHEN ${drop} THEN cur.gain + greatest(excluded.value, 0)
                     ELSE cur.carried + greatest(excluded.value - cur.baseline, 0) END,
         observed_at = excluded.observed_at,
         updated_at = CASE WHEN cur.value = excluded.value THEN cur.updated_at ELSE excluded.updated_at END,
         replaced_value = cur.value,
         replaced_gain = cur.gain,
         replaced_observed_at = cur.observed_at
       WHERE cur.observed_at <= excluded.observed_at
         AND (cur.value <> excluded.value OR cur.observed_at < excluded.observed_at)
       RETURNING season_id, server_id, stat_id, player_id, value, gain, observed_at, updated_at, replaced_value,
         replaced_gain, replaced_observed_at`;
}

/**
 * CTE body `stat_rows`, after `server_rows` (`serverValueUpsert`): the network rows (`player_stats`), the sums over
 * the workspace's servers, moved by what the servers' rows moved (concurrent writes through other servers add up;
 * when the network row held only what these servers held, it takes their new sum exactly, so a workspace with one
 * server stores its values unchanged). A network row that no server row held yet (written before values were kept
 * per server, without a server) takes the new value. With `history`, the value and observation it replaced are
 * kept and returned for `historyInsert`; with `rows` (implied by `history`), the rows written are returned.
 */
export function networkValueUpsert(history: boolean, rows = history, replaced = false): string {
  const fresh = `(excluded.replaced_value IS NULL AND NOT EXISTS (
           SELECT 1 FROM server_stats o WHERE o.player_id = player_stats.player_id AND o.stat_id = player_stats.stat_id
             AND o.season_id = player_stats.season_id))`;
  const sum = (col: 'value' | 'gain', old: string) =>
    `CASE WHEN player_stats.${col} = coalesce(excluded.${old}, 0) OR ${fresh} THEN excluded.${col}
          ELSE player_stats.${col} + excluded.${col} - coalesce(excluded.${old}, 0) END`;
  return `INSERT INTO player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at, replaced_value,
         replaced_gain)
       SELECT season_id, stat_id, player_id, sum(value), sum(gain), max(observed_at), max(updated_at),
         sum(replaced_value), sum(replaced_gain)
       FROM server_rows GROUP BY season_id, stat_id, player_id
       ORDER BY season_id, stat_id, player_id
       ON CONFLICT (season_id, stat_id, player_id) DO UPDATE SET
         value = ${sum('value', 'replaced_value')},
         gain = ${sum('gain', 'replaced_gain')},
         observed_at = greatest(player_stats.observed_at, excluded.observed_at),
         updated_at = CASE WHEN player_stats.value = ${sum('value', 'replaced_value')} THEN player_stats.updated_at
                           ELSE excluded.updated_at END,
         replaced_gain = player_stats.gain
         ${history ? ', replaced_value = player_stats.value, replaced_observed_at = player_stats.observed_at' : replaced ? ', replaced_value = player_stats.value' : ''}
       RETURNING ${
         history
           ? 'player_id, season_id, stat_id, value, gain, observed_at, updated_at, replaced_value, replaced_observed_at, replaced_gain'
           : replaced
             ? 'player_id, season_id, stat_id, value, gain, updated_at, replaced_value, replaced_gain'
             : rows
               ? 'player_id, season_id, stat_id, value, gain'
               : '1'
       }`;
}

/**
 * History, in the same statement as the values (a CTE after `stat_rows` of `networkValueUpsert(true)`): when a value
 * moves to a later hour (UTC), the value it replaced is the last of its own hour, and becomes that hour's point.
 * One point per (player, season, statistic, hour) at most; a late observation, which the upsert refuses, writes
 * none. Without `history`, nothing.
 */
export function historyInsert(history: boolean): string {
  if (!history) return 'SELECT 1';
  return `INSERT INTO stat_history (player_id, season_id, stat_id, at, value, gain)
       SELECT player_id, season_id, stat_id, date_trunc('hour', replaced_observed_at, 'UTC'), replaced_value,
         replaced_gain
       FROM stat_rows
       WHERE replaced_observed_at IS NOT NULL
         AND date_trunc('hour', replaced_observed_at, 'UTC') < date_trunc('hour', observed_at, 'UTC')
       ON CONFLICT (player_id, season_id, stat_id, at) DO UPDATE SET value = excluded.value, gain = excluded.gain
       RETURNING 1`;
}

/**
 * Each server's history (`server_stat_history`), as `historyInsert` keeps the network's: a CTE after `server_rows`
 * (`serverValueUpsert`). When a server's value moves to a later hour (UTC), the value it replaced becomes that
 * hour's point. Without `history`, nothing.
 */
export function serverHistoryInsert(history: boolean): string {
  if (!history) return 'SELECT 1';
  return `INSERT INTO server_stat_history (player_id, season_id, stat_id, server_id, at, value, gain)
       SELECT player_id, season_id, stat_id, server_id, date_trunc('hour', replaced_observed_at, 'UTC'), replaced_value,
         replaced_gain
       FROM server_rows
       WHERE replaced_observed_at IS NOT NULL
         AND date_trunc('hour', replaced_observed_at, 'UTC') < date_trunc('hour', observed_at, 'UTC')
       ON CONFLICT (player_id, season_id, stat_id, server_id, at) DO UPDATE SET value = excluded.value,
         gain = excluded.gain
       RETURNING 1`;
}

/** A board (season, statistic) where the group's values may make a new rank 1 (see `LeaderWatch`). */
export interface LeaderCandidateRow {
  workspaceId: string;
  seasonId: string;
  statId: string;
  /** The rank-1 value the writer knows of: the board's rank 1 is read only for a total that beats it. Null: none. */
  bound: number | null;
  /** The known rank-1 player's game UUID (null: none): its new total is returned (`held`). */
  leader: string | null;
}

export interface GroupWritten {
  /** The group's players, with a `renamed` flag and a `created` one (the statement inserted it). */
  players: { id: string; workspace_id: string; uuid: string; renamed: boolean; created: boolean }[];
  /** Webhook messages stored by the statement (new players, new leaders). */
  messages: number;
  /** Candidate boards' new rank 1s (board: season id + statistic id). */
  leaders: { board: string; uuid: string; value: number }[];
  /**
   * Candidate boards whose rank 1 the statement read (a total beat the bound, or there was none), with that rank 1
   * before the statement (uuid null: none).
   */
  checked: { board: string; uuid: string | null; value: number | null }[];
  /** The known leaders' new network totals, where the statement wrote one (in the season's scoring). */
  held: { board: string; value: number }[];
  /** [compact boards] With `moved`: the values that changed of those statistics, and the transaction's id. */
  moves: { xid: string; rows: MovedValue[] } | null;
  /**
   * The statement's `now()` (ms; null: no player written): the `updated_at` of each value it changed. Read as
   * JSON text, as screening reads `updated_at` (`screeningContext`), so both round to the same millisecond.
   */
  at: number | null;
}

/**
 * Writes a whole group in ONE statement (one round trip, atomic on its own): players are upserted first and
 * the values, sessions and events of the same statement join their ids; the webhook outbox (new players, and
 * new leaders on the `candidates` boards) is written by the same statement. Returns the players with a `renamed`
 * flag (the sibling CTE `before` reads the rows as they were before the statement).
 */
export async function writeGroup(
  db: Queryable,
  history: boolean,
  g: GroupRows,
  /** Null: no webhook outbox (a writer built without integrations: tools, benchmarks). */
  candidates: readonly LeaderCandidateRow[] | null = null,
  /**
   * [compact boards] Statistics (definition ids) whose changed public values are returned (`moves`): each
   * value's previous one (none for a new value) and new one, with the transaction's id. Empty: none (no cost).
   */
  moved: readonly string[] = [],
): Promise<GroupWritten> {
  const outbox = candidates !== null;
  const leaders = outbox && candidates.length > 0;
  // The outbox's workspaces ($15), then the leaders' five, then [compact boards] the moved statistics, then the
  // items' servers (the last parameter).
  const leadersParam = 16;
  const movedParam = moved.length === 0 ? 0 : 15 + (outbox ? 1 : 0) + (leaders ? 5 : 0);
  const serverParam = 15 + (outbox ? 1 : 0) + (leaders ? 5 : 0) + (movedParam > 0 ? 1 : 0);
  const rows = await db.query<
    GroupWritten['players'][number] & {
      messages: number;
      leaders: GroupWritten['leaders'];
      checked: GroupWritten['checked'];
      held: GroupWritten['held'];
      moves: MovedValue[] | null;
      xid: string | null;
      at: string;
    }
  >(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS t(w, u, n, o, i)
     ), before AS (
       SELECT p.workspace_id, p.uuid, p.username FROM players p JOIN input ON p.workspace_id = input.w AND p.uuid = input.u
     ), up AS (
       INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT w, u, n, o FROM input ORDER BY i
       ON CONFLICT (workspace_id, uuid) DO UPDATE SET
         username = CASE WHEN excluded.username_observed_at >= players.username_observed_at
                         THEN excluded.username ELSE players.username END,
         username_observed_at = GREATEST(players.username_observed_at, excluded.username_observed_at),
         username_changed_at = CASE WHEN excluded.username_observed_at >= players.username_observed_at
                                     AND excluded.username <> players.username
                                    THEN now() ELSE players.username_changed_at END,
         last_seen_at = now(), updated_at = now()
       RETURNING id, workspace_id, uuid, username, first_seen_at, (xmax = 0) AS inserted, public
     ), ids AS (
       SELECT input.i, up.id FROM up JOIN input ON input.w = up.workspace_id AND input.u = up.uuid
     ), items AS (
       SELECT * FROM unnest($5::int[], $6::uuid[], $7::timestamptz[], $${serverParam}::uuid[])
         WITH ORDINALITY AS t(p, s, o, srv, i)
     ), server_rows AS (
       ${serverValueUpsert(`SELECT items.s AS season_id, items.srv AS server_id, v.d AS stat_id, ids.id AS player_id,
           v.v AS value, items.o AS observed_at, now() AS updated_at
         FROM unnest($8::int[], $9::uuid[], $10::float8[]) AS v(it, d, v)
         JOIN items ON items.i = v.it
         JOIN ids ON ids.i = items.p`)}
     ), stat_rows AS (
       ${networkValueUpsert(history, leaders, movedParam > 0)}
     ), history_rows AS (
       ${historyInsert(history)}
     ), server_history_rows AS (
       ${serverHistoryInsert(history)}
     ), session_rows AS (
       INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version, game_version,
         loader_version, started_at, last_seen_at, ended_at)
       SELECT j.workspace_id, up.id, j.session_id, j.server_id, j.season_id, j.mod_version, j.game_version,
         j.loader_version, now(), now(), CASE WHEN j.ended THEN now() END
       FROM jsonb_to_recordset($11::jsonb) AS j(workspace_id uuid, player_uuid uuid, session_id uuid, server_id uuid,
         season_id uuid, mod_version text, game_version text, loader_version text, ended boolean)
       JOIN up ON up.workspace_id = j.workspace_id AND up.uuid = j.player_uuid
       ORDER BY up.id, j.session_id
       ON CONFLICT (player_id, session_id) DO UPDATE SET
         last_seen_at = now(),
         server_id = excluded.server_id,
         ended_at = COALESCE(game_sessions.ended_at, excluded.ended_at)
       RETURNING 1
     ), event_rows AS (
       INSERT INTO events (workspace_id, id, player_id, session_id, server_id, season_id, type, occurred_at, payload)
       SELECT j.workspace_id, j.id, up.id, j.session_id, j.server_id, j.season_id, j.type, j.occurred_at, j.payload
       FROM jsonb_to_recordset($12::jsonb) AS j(workspace_id uuid, id uuid, player_uuid uuid, session_id uuid,
         server_id uuid, season_id uuid, type text, occurred_at timestamptz, payload jsonb)
       JOIN up ON up.workspace_id = j.workspace_id AND up.uuid = j.player_uuid
       ON CONFLICT (workspace_id, id) DO NOTHING
       RETURNING 1
     ), notified AS (
       SELECT count(pg_notify($13, payload)) AS n FROM unnest($14::text[]) AS payload
     )${outbox ? `, ${firstSeenOutbox('$15')}` : ''}${leaders ? `, ${leaderOutbox(leadersParam)}` : ''}
     SELECT up.id, up.workspace_id, up.uuid, (b.username IS NOT NULL AND b.username <> up.username) AS renamed,
       up.inserted AS created, to_json(now()) AS at,
       (${outbox ? '(SELECT count(*) FROM first_seen)' : '0'}${leaders ? ' + (SELECT count(*) FROM leader_messages)' : ''})::int AS messages,
       ${
         leaders
           ? `(SELECT coalesce(json_agg(json_build_object('board', s::text || d::text, 'uuid', u, 'value', value)),
                '[]'::json) FROM leaders)`
           : "'[]'::json"
       } AS leaders,
       ${
         leaders
           ? `(SELECT coalesce(json_agg(json_build_object('board', s::text || d::text, 'uuid', prev_uuid,
                  'value', prev_value)), '[]'::json) FROM checked) AS checked,
              (SELECT coalesce(json_agg(json_build_object('board', s::text || d::text, 'value', value)), '[]'::json)
                FROM held) AS held`
           : `'[]'::json AS checked, '[]'::json AS held`
       }
       ${
         // [compact boards] Once (on the first row): the values that changed, as [season, stat, from, to], a hidden
         // player's with its id and the value's updated_at in microseconds, each server's with its server too,
         // and each with its gain before and after (MovedValue).
         movedParam > 0
           ? `, CASE WHEN row_number() OVER () = 1 THEN (
               SELECT coalesce(json_agg(x.moved), '[]'::json) FROM (
                 SELECT json_build_array(r.season_id, r.stat_id, r.replaced_value, r.value,
                   CASE WHEN NOT m.public THEN r.player_id END,
                   CASE WHEN NOT m.public THEN ${microsSql('r.updated_at')} END, NULL, r.replaced_gain, r.gain) AS moved
                 FROM stat_rows r JOIN up m ON m.id = r.player_id WHERE r.stat_id = ANY($${movedParam}::uuid[])
                 UNION ALL
                 SELECT json_build_array(r.season_id, r.stat_id, r.replaced_value, r.value,
                   CASE WHEN NOT m.public THEN r.player_id END,
                   CASE WHEN NOT m.public THEN ${microsSql('r.updated_at')} END, r.server_id, r.replaced_gain, r.gain)
                 FROM server_rows r JOIN up m ON m.id = r.player_id WHERE r.stat_id = ANY($${movedParam}::uuid[])
               ) x
             ) END AS moves, pg_current_xact_id()::text AS xid`
           : ', NULL::json AS moves, NULL::text AS xid'
       }
     FROM up LEFT JOIN before b ON b.workspace_id = up.workspace_id AND b.uuid = up.uuid CROSS JOIN notified`,
    [
      uuidArray(g.players.map((r) => r.workspaceId)),
      uuidArray(g.players.map((r) => r.uuid)),
      textArray(g.players.map((r) => r.username)),
      timestampArray(g.players.map((r) => r.observedAt)),
      numberArray(g.items.map((r) => r.player)),
      uuidArray(g.items.map((r) => r.seasonId)),
      timestampArray(g.items.map((r) => r.observedAt)),
      numberArray(g.stats.map((r) => r.item)),
      uuidArray(g.stats.map((r) => r.statId)),
      numberArray(g.stats.map((r) => r.value)),
      JSON.stringify(g.sessions),
      JSON.stringify(g.events),
      g.notify.channel,
      textArray(g.notify.payloads),
      ...(outbox ? [uuidArray([...new Set(g.players.map((r) => r.workspaceId))])] : []),
      ...(leaders
        ? [
            uuidArray(candidates.map((c) => c.workspaceId)),
            uuidArray(candidates.map((c) => c.seasonId)),
            uuidArray(candidates.map((c) => c.statId)),
            nullableNumberArray(candidates.map((c) => c.bound)),
            textArray(candidates.map((c) => c.leader)),
          ]
        : []),
      ...(movedParam > 0 ? [uuidArray(moved)] : []),
      uuidArray(g.items.map((r) => r.serverId)),
    ],
  );
  const first = rows[0];
  return {
    players: rows,
    messages: first?.messages ?? 0,
    leaders: first?.leaders ?? [],
    checked: first?.checked ?? [],
    held: first?.held ?? [],
    moves: first?.xid ? { xid: first.xid, rows: first.moves ?? [] } : null,
    at: first ? new Date(first.at).getTime() : null,
  };
}

/** One rejection bucket: counts of the same (reason, key, server address, player) in one hour. */
export interface RejectionBucket {
  workspaceId: string;
  hour: Date;
  code: string;
  message: string;
  keyId: string | null;
  hostname: string | null;
  port: number | null;
  playerUuid: string | null;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

/** Adds counted rejections to their hourly buckets. */
export async function addRejections(db: Queryable, b: RejectionBucket[]): Promise<void> {
  await db.query(
    `INSERT INTO ingest_rejections AS r
       (workspace_id, hour, code, message, key_id, hostname, port, player_uuid, count, first_at, last_at)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::uuid[], $6::text[],
                          $7::int[], $8::uuid[], $9::int[], $10::timestamptz[], $11::timestamptz[])
     ON CONFLICT ON CONSTRAINT ingest_rejections_bucket DO UPDATE
       SET count = r.count + EXCLUDED.count, message = EXCLUDED.message,
           first_at = LEAST(r.first_at, EXCLUDED.first_at), last_at = GREATEST(r.last_at, EXCLUDED.last_at)`,
    [
      b.map((x) => x.workspaceId),
      b.map((x) => x.hour),
      b.map((x) => x.code),
      b.map((x) => x.message),
      b.map((x) => x.keyId),
      b.map((x) => x.hostname),
      b.map((x) => x.port),
      b.map((x) => x.playerUuid),
      b.map((x) => x.count),
      b.map((x) => x.firstAt),
      b.map((x) => x.lastAt),
    ],
  );
}

/** A key's day (UTC) of rejections: `day` is its start. */
export interface KeyDay {
  workspaceId: string;
  keyId: string | null;
  day: Date;
}

/**
 * The distinct (code, server address, player) groups each key-day already has in the table, at most `limit` per
 * key-day, leaving out `skipCode` (the overflow group). `i` is the key-day's index in `keyDays`.
 */
export function rejectionGroupsOf(
  db: Queryable,
  keyDays: readonly KeyDay[],
  limit: number,
  skipCode: string,
): Promise<{ i: number; code: string; hostname: string | null; port: number | null; player_uuid: string | null }[]> {
  return db.query(
    `SELECT (k.i - 1)::int AS i, g.code, g.hostname, g.port, g.player_uuid::text AS player_uuid
     FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) WITH ORDINALITY AS k(w, key_id, day, i)
     CROSS JOIN LATERAL (
       SELECT DISTINCT r.code, r.hostname, r.port, r.player_uuid FROM ingest_rejections r
       WHERE r.workspace_id = k.w AND r.key_id IS NOT DISTINCT FROM k.key_id
         AND r.hour >= k.day AND r.hour < k.day + interval '1 day' AND r.code <> $4
       LIMIT $5) g`,
    [keyDays.map((k) => k.workspaceId), keyDays.map((k) => k.keyId), keyDays.map((k) => k.day), skipCode, limit],
  );
}

/** Forgets buckets older than `before`. */
export async function deleteRejectionsBefore(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM ingest_rejections WHERE hour < $1', [before]);
}

export interface RejectionGroupRow {
  code: string;
  message: string;
  count: number;
  first_at: Date;
  last_at: Date;
  key_id: string | null;
  key_name: string | null;
  hostname: string | null;
  port: number | null;
  player_uuid: string | null;
  total: number;
}

/**
 * Rejections since `since`, grouped by (reason, key, server address, player), newest last rejection first; the
 * overflow group (`overflowCode`) of a key once per UTC day.
 */
export function listRejections(
  db: Queryable,
  workspaceId: string,
  since: Date,
  limit: number,
  offset: number,
  overflowCode: string,
): Promise<RejectionGroupRow[]> {
  return db.query<RejectionGroupRow>(
    `WITH g AS (
       SELECT code, key_id, hostname, port, player_uuid, sum(count)::int AS count,
              min(first_at) AS first_at, max(last_at) AS last_at,
              (array_agg(message ORDER BY last_at DESC))[1] AS message
       FROM ingest_rejections WHERE workspace_id = $1 AND last_at >= $2
       GROUP BY code, key_id, hostname, port, player_uuid,
                CASE WHEN code = $5 THEN floor(extract(epoch FROM hour) / 86400) END)
     SELECT g.code, g.message, g.count, g.first_at, g.last_at, g.key_id::text AS key_id, k.name AS key_name,
            g.hostname, g.port, g.player_uuid::text AS player_uuid, count(*) OVER ()::int AS total
     FROM g LEFT JOIN api_keys k ON k.id = g.key_id
     ORDER BY g.last_at DESC, g.code, g.key_id NULLS FIRST LIMIT $3 OFFSET $4`,
    [workspaceId, since, limit, offset, overflowCode],
  );
}

/** Adds upload counts to their hourly rows. */
export async function addActivity(
  db: Queryable,
  rows: { workspaceId: string; hour: Date; accepted: number; rejected: number; values: number }[],
): Promise<void> {
  await db.query(
    `INSERT INTO ingest_activity AS a (workspace_id, hour, batches_accepted, batches_rejected, values_written)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::int[])
     ON CONFLICT (workspace_id, hour) DO UPDATE
       SET batches_accepted = a.batches_accepted + EXCLUDED.batches_accepted,
           batches_rejected = a.batches_rejected + EXCLUDED.batches_rejected,
           values_written = a.values_written + EXCLUDED.values_written`,
    [
      rows.map((r) => r.workspaceId),
      rows.map((r) => r.hour),
      rows.map((r) => r.accepted),
      rows.map((r) => r.rejected),
      rows.map((r) => r.values),
    ],
  );
}

export interface ActivityRow {
  at: Date;
  batches_accepted: number;
  batches_rejected: number;
  values_written: number;
  active_players: number;
  new_players: number;
}

/**
 * Activity per bucket of `step` from `from` (a bucket start) up to `to`, every bucket present: uploads, players
 * with a session in the bucket, players seen for the first time in it.
 *
 * One pass over each source, whatever the number of buckets: the sessions that overlap the range (by
 * `game_sessions_activity_idx`) each give the buckets they span (a session is in a bucket when it started before
 * the bucket's end and was last seen at or after its start), new players come by `players_first_seen_idx`, and
 * the hourly counters by their key. Cost grows with the sessions in the range, not with sessions × buckets.
 */
export function activity(
  db: Queryable,
  workspaceId: string,
  from: Date,
  to: Date,
  step: 'hour' | 'day',
): Promise<ActivityRow[]> {
  return db.query<ActivityRow>(
    `WITH r AS (
       SELECT $2::timestamptz AS start, $4::int AS s,
         ceil(extract(epoch FROM ($3::timestamptz - $2::timestamptz)) / $4)::int AS n
     ), b AS (
       SELECT i, r.start + make_interval(secs => i * r.s) AS at, r.start + make_interval(secs => (i + 1) * r.s) AS until
       FROM r, generate_series(0, r.n - 1) AS i
     ), spans AS MATERIALIZED (
       SELECT g.player_id,
         greatest(0, floor(extract(epoch FROM (g.started_at - r.start)) / r.s))::int AS first,
         least(r.n - 1, floor(extract(epoch FROM (g.last_seen_at - r.start)) / r.s))::int AS last
       FROM r, game_sessions g
       WHERE g.workspace_id = $1 AND g.last_seen_at >= r.start
         AND g.started_at < r.start + make_interval(secs => r.n * r.s)
     ), active AS MATERIALIZED (
       SELECT i, count(DISTINCT player_id)::int AS n FROM spans, generate_series(spans.first, spans.last) AS i GROUP BY i
     ), fresh AS MATERIALIZED (
       SELECT floor(extract(epoch FROM (p.first_seen_at - r.start)) / r.s)::int AS i, count(*)::int AS n
       FROM r, players p
       WHERE p.workspace_id = $1 AND p.first_seen_at >= r.start
         AND p.first_seen_at < r.start + make_interval(secs => r.n * r.s)
       GROUP BY 1
     )
     -- Each CTE is evaluated once (MATERIALIZED): joined to the buckets, an inlined aggregate could be planned
     -- as a loop that runs it again for every bucket.
     SELECT b.at,
       coalesce(sum(a.batches_accepted), 0)::int AS batches_accepted,
       coalesce(sum(a.batches_rejected), 0)::int AS batches_rejected,
       coalesce(sum(a.values_written), 0)::int AS values_written,
       coalesce(max(active.n), 0) AS active_players,
       coalesce(max(fresh.n), 0) AS new_players
     FROM b
     LEFT JOIN ingest_activity a ON a.workspace_id = $1 AND a.hour >= b.at AND a.hour < b.until
     LEFT JOIN active ON active.i = b.i
     LEFT JOIN fresh ON fresh.i = b.i
     GROUP BY b.i, b.at ORDER BY b.at`,
    [workspaceId, from, to, step === 'hour' ? 3_600 : 86_400],
  );
}

/** A value a server vouches for (see `upsertVerified`). */
export interface VerifiedRow {
  workspaceId: string;
  uuid: string;
  seasonId: string;
  serverId: string;
  statId: string;
  value: number;
}

/**
 * Keeps the newest verified value per (season, server, statistic, player) and when it arrived by the service's
 * clock (`now()`: the transaction's start). Runs in the transaction that wrote the players and values, so the
 * players exist. One row per key (the caller de-duplicates), in key order (rows are locked in one order).
 */
export async function upsertVerified(db: Queryable, rows: readonly VerifiedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO verified_stats (season_id, server_id, stat_id, player_id, value, received_at)
     SELECT v.s, v.sv, v.d, p.id, v.v, now()
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::float8[]) AS v(w, u, s, sv, d, v)
     JOIN players p ON p.workspace_id = v.w AND p.uuid = v.u
     ORDER BY v.s, v.sv, v.d, p.id
     ON CONFLICT (season_id, server_id, stat_id, player_id) DO UPDATE
       SET value = excluded.value, received_at = excluded.received_at`,
    [
      uuidArray(rows.map((r) => r.workspaceId)),
      uuidArray(rows.map((r) => r.uuid)),
      uuidArray(rows.map((r) => r.seasonId)),
      uuidArray(rows.map((r) => r.serverId)),
      uuidArray(rows.map((r) => r.statId)),
      numberArray(rows.map((r) => r.value)),
    ],
  );
}
