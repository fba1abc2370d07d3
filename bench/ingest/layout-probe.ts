/**
 * Ingest layout probe (issue 29): how close to the ingest ceiling can a storage layout get, at the SQL level (no
 * HTTP, no service process)? Runs, against PostgreSQL only, statement shapes of the writer beside the ceiling of
 * `bench:ingest`, and reports batches/s, the ratio to the ceiling, PostgreSQL CPU per batch and what each value
 * writes (rows, HOT share, index entries).
 *
 *   npm run bench:layout-probe                # every variant (about 30 minutes)
 *   BENCH_SECONDS=6 BENCH_ROUNDS=4 BENCH_VARIANTS=today-values,one3-values npm run bench:layout-probe
 *   BENCH_GROUP=8 BENCH_GROUP_SLOTS=4 BENCH_VARIANTS=slim3-writer-hothb-grouped …   # the grouped variants' shape
 *   BENCH_EXPLAINS=0 …                        # no EXPLAIN ANALYZE timings
 *
 * Variants (names for BENCH_VARIANTS; the ceiling always runs): `today-values` (2), `today-writer` (3),
 * `today-writer-hothb` (4), `one3-values` / `one4-values` / `one4p-values` / `slim3-values` (5), `one4-writer`,
 * `one4-writer-hothb`, `one3-writer-hothb`, `one4p-writer-hothb`, `slim3-writer-hothb` (6), `slim3-writer-nohb`
 * (the writer's statement with the players read and no session write: what the values cost inside it); `…-prepared`
 * (the same statements as named prepared statements; `ceiling-prepared` too) and `…-grouped` (the writer's
 * statement carrying BENCH_GROUP batches, sent from BENCH_GROUP_SLOTS connections, as the service's writer groups
 * the batches waiting for its 2 write slots).
 *
 * Method.
 * - One scratch database (dropped at the end). The tables are copies of the service's (apps/statboard/src/db/
 *   schema.sql) with the same columns, keys and indexes, without foreign keys and without the players' trigram
 *   index (players' updates are HOT: the index is never written in the steady state). The players' count trigger
 *   (a statement-level AFTER INSERT trigger with a transition table, run by every upsert) is kept. Each layout
 *   lives in a schema of its own and a variant picks its tables by `search_path`:
 *   `today` (server_stats, player_stats, players, game_sessions as the service has them), `hb_hot` (players and
 *   game_sessions built for HOT heartbeats), `one3` / `one4` / `one4p` (one row per value: `player_stats` with the
 *   servers' values inside the row, with 3 indexes, 4, or 4 with the gain index partial), `slim3` (the same,
 *   the servers as small numbers and no per-server baselines, 3 indexes).
 * - The same players and rows as `bench:ingest` (bench/lib/traffic.ts): 2,000 players, two servers, half the
 *   players on both (their batches alternate between them), 20 statistics per batch over 300 keys, counters that
 *   only grow, 32 connections, one statement per batch in autocommit (durable commits: the cluster's
 *   `synchronous_commit`). One counter state is shared by every variant, so every write changes the value.
 * - Steady state: every table is filled before the runs with every (player, server, key) a player plays
 *   (900,000 server rows, 600,000 network rows, 600,000 ceiling rows), so every value written is an update, as on
 *   a network that has run a while, and VACUUM ANALYZEd; the tables are vacuumed again after every round (the
 *   cluster may run without autovacuum; production would not).
 * - The ceiling is `upsertRaw(…, true)` of bench/lib/raw-sql.ts, as `bench:ingest` runs it. Each round runs, for
 *   every variant (in an order rotated every round), the ceiling and then the variant, back to back, each for
 *   BENCH_SECONDS after a short unmeasured warm-up; the variant's ratio of that round is to the ceiling run just
 *   before it; the row shows the median ratio and the range. batches/s and CPU are medians of the rounds.
 * - PostgreSQL CPU: utime + stime of the 32 backends (/proc/<pid>/stat, as bench/lib/proc.ts reads them) over a
 *   run, divided by the batches committed. The WAL writer, checkpointer and vacuum are not counted (as in
 *   bench:ingest).
 * - After the rounds, every unprepared variant's statement is run BENCH_EXPLAINS times alone on one connection
 *   under EXPLAIN (ANALYZE): the median planning and execution times, without contention.
 * - Rows and index entries per value: pg_stat_user_tables (rows updated, of them HOT) of the variant's tables
 *   over all its runs, divided by the values sent; index entries = (inserted + non-HOT updated rows) × the
 *   table's indexes (a partial index counted as if its predicate held).
 *
 * The writer variants run the service's own statement (`writeGroup` of apps/statboard/src/modules/ingest/repo.ts,
 * history off: the bench's batches never move a value to a later hour, so its history CTEs write nothing; no
 * webhooks; no events; no NOTIFY payloads) with one batch per statement (the `…-grouped` variants: several); the
 * layouts other than today's edit its text: the session upsert's SET (HOT heartbeats), the two value CTEs
 * replaced by one upsert (one row per value), the players' upsert made a read and the session upsert dropped
 * (`-nohb`). Every edit asserts that the text it replaces is still there.
 */

import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { numberArray, uuidArray } from '../../apps/statboard/src/db/array-literal.ts';
import type { Queryable } from '../../apps/statboard/src/db/types.ts';
import {
  type GroupRows,
  networkValueUpsert,
  serverValueUpsert,
  writeGroup,
} from '../../apps/statboard/src/modules/ingest/repo.ts';
import { createDatabase } from '../lib/pg.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { clientQueryable } from '../lib/raw-side.ts';
import { RAW_INDEXED_DDL, type RawValue, upsertRaw } from '../lib/raw-sql.ts';
import { machineLine } from '../lib/report.ts';
import { fmtInt, fmtRatio, table } from '../lib/stats.ts';
import { type BenchPlayer, makePlayers, nextServer, nextStats, randomInt, STAT_KEYS } from '../lib/traffic.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 1.5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const STATS_PER_BATCH = 20;
/** Statements run under EXPLAIN ANALYZE per variant, one at a time, after the rounds. */
const EXPLAINS = Number(process.env.BENCH_EXPLAINS ?? 100);
const PLAYERS = 2_000;

function log(msg: string): void {
  process.stderr.write(`[bench:layout-probe] ${msg}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// Schema

/** Shared by every layout (public): the seasons the server upsert joins, events, the players' count trigger. */
const SHARED_DDL = `
CREATE TABLE seasons (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, started_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE events (workspace_id uuid NOT NULL, id uuid NOT NULL, player_id uuid NOT NULL, session_id uuid NOT NULL,
  server_id uuid NOT NULL, season_id uuid NOT NULL, type text NOT NULL, occurred_at timestamptz NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb, received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id));
CREATE INDEX events_received_idx ON events (received_at);
CREATE TABLE server_numbers (id uuid PRIMARY KEY, n smallint NOT NULL);
CREATE TABLE workspace_player_counts (workspace_id uuid PRIMARY KEY, public_players bigint NOT NULL);
CREATE FUNCTION players_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.workspace_player_counts AS c (workspace_id, public_players)
  SELECT workspace_id, count(*) FROM inserted_players WHERE public GROUP BY workspace_id ORDER BY workspace_id
  ON CONFLICT (workspace_id) DO UPDATE SET public_players = c.public_players + excluded.public_players;
  RETURN NULL;
END
$$;
${RAW_INDEXED_DDL};
`;

/** players and game_sessions as schema.sql has them; `hot`: both with free room in their pages, and a heartbeat column. */
function heartbeatDdl(schema: string, hot: boolean): string {
  const ff = hot ? ' WITH (fillfactor = 70)' : '';
  return `
CREATE TABLE ${schema}.players (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), workspace_id uuid NOT NULL,
  uuid uuid NOT NULL, username text NOT NULL, username_observed_at timestamptz NOT NULL,
  public boolean NOT NULL DEFAULT true, first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(), created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(), username_changed_at timestamptz,
  UNIQUE (workspace_id, uuid))${ff};
CREATE INDEX ON ${schema}.players (workspace_id, first_seen_at);
CREATE INDEX ON ${schema}.players (workspace_id) WHERE NOT public;
CREATE INDEX ON ${schema}.players (workspace_id, lower(username), uuid) INCLUDE (username, public, id);
CREATE INDEX ON ${schema}.players (workspace_id, username);
CREATE TRIGGER players_count_insert AFTER INSERT ON ${schema}.players REFERENCING NEW TABLE AS inserted_players
  FOR EACH STATEMENT EXECUTE FUNCTION public.players_count_inserted();
CREATE TABLE ${schema}.game_sessions (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), workspace_id uuid NOT NULL,
  player_id uuid NOT NULL, session_id uuid NOT NULL, server_id uuid NOT NULL, season_id uuid NOT NULL,
  mod_version text NOT NULL, game_version text NOT NULL, loader_version text, started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL, ended_at timestamptz,${hot ? ' heartbeat_at timestamptz,' : ''}
  UNIQUE (player_id, session_id))${ff};
CREATE INDEX ON ${schema}.game_sessions (workspace_id, last_seen_at);
CREATE INDEX ON ${schema}.game_sessions (workspace_id, last_seen_at) WHERE ended_at IS NULL;
`;
}

/** server_stats and player_stats as schema.sql has them. */
const TODAY_VALUES_DDL = `
CREATE TABLE today.server_stats (season_id uuid NOT NULL, server_id uuid NOT NULL, stat_id uuid NOT NULL,
  player_id uuid NOT NULL, value float8 NOT NULL, baseline float8 NOT NULL, carried float8 NOT NULL DEFAULT 0,
  gain float8 NOT NULL, observed_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, replaced_value float8,
  replaced_gain float8, replaced_observed_at timestamptz, PRIMARY KEY (season_id, server_id, stat_id, player_id));
CREATE INDEX server_stats_player_idx ON today.server_stats (player_id, stat_id, server_id, observed_at);
CREATE INDEX server_stats_top_idx ON today.server_stats (season_id, server_id, stat_id, value DESC, updated_at)
  WHERE updated_at > '2000-01-01 00:00:00+00'::timestamptz;
CREATE TABLE today.player_stats (season_id uuid NOT NULL, stat_id uuid NOT NULL, player_id uuid NOT NULL,
  value float8 NOT NULL, observed_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, replaced_value float8,
  replaced_observed_at timestamptz, gain float8 NOT NULL DEFAULT 0, replaced_gain float8,
  PRIMARY KEY (season_id, stat_id, player_id));
CREATE INDEX player_stats_gain_idx ON today.player_stats (season_id, stat_id, gain DESC, updated_at);
CREATE INDEX player_stats_player_idx ON today.player_stats (player_id, season_id);
CREATE INDEX player_stats_top_idx ON today.player_stats (season_id, stat_id, value DESC, updated_at);
`;

/**
 * One row per value: player_stats with the servers' values inside the row (parallel arrays, in the order the
 * servers first reported), the network total and gain beside them. `gain`: none, an index, or a partial one.
 */
function oneRowDdl(schema: string, gain: 'none' | 'full' | 'partial'): string {
  return `
CREATE TABLE ${schema}.player_stats (season_id uuid NOT NULL, stat_id uuid NOT NULL, player_id uuid NOT NULL,
  value float8 NOT NULL, gain float8 NOT NULL DEFAULT 0, observed_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL, replaced_value float8, replaced_gain float8, replaced_observed_at timestamptz,
  server_ids uuid[] NOT NULL, server_values float8[] NOT NULL, server_baselines float8[] NOT NULL,
  server_observed timestamptz[] NOT NULL,
  PRIMARY KEY (season_id, stat_id, player_id));
CREATE INDEX ON ${schema}.player_stats (player_id, season_id);
CREATE INDEX ON ${schema}.player_stats (season_id, stat_id, value DESC, updated_at);
${
  gain === 'none'
    ? ''
    : `CREATE INDEX ON ${schema}.player_stats (season_id, stat_id, gain DESC, updated_at)${gain === 'partial' ? ' WHERE gain <> 0' : ''};`
}
`;
}

/**
 * The one-row-per-value upsert, as a CTE body like `serverValueUpsert`: `rows` is a SELECT of (season_id,
 * server_id, stat_id, player_id, value, observed_at, updated_at). The server's element of the arrays is replaced
 * (or appended), the total moves by the server's difference (so it stays the sum of the elements; exact for
 * counters), the gain by the same difference (a new server's element starts at its baseline). Per server, the
 * latest observation wins, as today. A counter reset would need one more array (`carried`), not modelled.
 */
function oneRowUpsert(rows: string): string {
  const k = 'array_position(cur.server_ids, excluded.server_ids[1])';
  const put = (col: string, v: string) =>
    `CASE WHEN ${k} IS NULL THEN cur.${col} || ${v} ELSE cur.${col}[:${k} - 1] || ${v} || cur.${col}[${k} + 1:] END`;
  return `INSERT INTO player_stats AS cur (season_id, stat_id, player_id, value, gain, observed_at, updated_at,
         server_ids, server_values, server_baselines, server_observed)
       SELECT r.season_id, r.stat_id, r.player_id, r.value, 0, r.observed_at, r.updated_at, ARRAY[r.server_id],
         ARRAY[r.value], ARRAY[r.value], ARRAY[r.observed_at]
       FROM (${rows}) r
       ORDER BY r.season_id, r.stat_id, r.player_id
       ON CONFLICT (season_id, stat_id, player_id) DO UPDATE SET
         server_ids = CASE WHEN ${k} IS NULL THEN cur.server_ids || excluded.server_ids ELSE cur.server_ids END,
         server_values = ${put('server_values', 'excluded.value')},
         server_baselines = CASE WHEN ${k} IS NULL THEN cur.server_baselines || excluded.value
                                 ELSE cur.server_baselines END,
         server_observed = ${put('server_observed', 'excluded.observed_at')},
         value = cur.value - coalesce(cur.server_values[${k}], 0) + excluded.value,
         gain = cur.gain + coalesce(excluded.value - cur.server_values[${k}], 0),
         observed_at = greatest(cur.observed_at, excluded.observed_at),
         updated_at = CASE WHEN cur.server_values[${k}] = excluded.value THEN cur.updated_at
                           ELSE excluded.updated_at END,
         replaced_value = cur.value,
         replaced_gain = cur.gain,
         replaced_observed_at = cur.observed_at
       WHERE ${k} IS NULL OR (cur.server_observed[${k}] <= excluded.observed_at
         AND (cur.server_values[${k}] <> excluded.value OR cur.server_observed[${k}] < excluded.observed_at))
       RETURNING 1`;
}

/**
 * The slimmer one-row layout: a server is its small number in the workspace (`servers.number`, here
 * `public.server_numbers`), and no per-server baselines: the gain is kept by the row's own rule (a value that grows
 * adds its growth, a counter that drops adds its new value, as `serverValueUpsert` carries a reset), so the row holds
 * three short arrays and no baseline.
 */
function slimDdl(schema: string): string {
  return `
CREATE TABLE ${schema}.player_stats (season_id uuid NOT NULL, stat_id uuid NOT NULL, player_id uuid NOT NULL,
  value float8 NOT NULL, gain float8 NOT NULL DEFAULT 0, observed_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL, replaced_value float8, replaced_gain float8, replaced_observed_at timestamptz,
  server_keys smallint[] NOT NULL, server_values float8[] NOT NULL, server_observed timestamptz[] NOT NULL,
  PRIMARY KEY (season_id, stat_id, player_id));
CREATE INDEX ON ${schema}.player_stats (player_id, season_id);
CREATE INDEX ON ${schema}.player_stats (season_id, stat_id, value DESC, updated_at);
`;
}

/** `oneRowUpsert` for `slimDdl`: `rows` has `server_key` (smallint) where the other has `server_id`. */
function slimUpsert(rows: string): string {
  const k = 'array_position(cur.server_keys, excluded.server_keys[1])';
  const old = `cur.server_values[${k}]`;
  const put = (col: string, v: string) =>
    `CASE WHEN ${k} IS NULL THEN cur.${col} || ${v} ELSE cur.${col}[:${k} - 1] || ${v} || cur.${col}[${k} + 1:] END`;
  return `INSERT INTO player_stats AS cur (season_id, stat_id, player_id, value, gain, observed_at, updated_at,
         server_keys, server_values, server_observed)
       SELECT r.season_id, r.stat_id, r.player_id, r.value, 0, r.observed_at, r.updated_at, ARRAY[r.server_key],
         ARRAY[r.value], ARRAY[r.observed_at]
       FROM (${rows}) r
       ORDER BY r.season_id, r.stat_id, r.player_id
       ON CONFLICT (season_id, stat_id, player_id) DO UPDATE SET
         server_keys = CASE WHEN ${k} IS NULL THEN cur.server_keys || excluded.server_keys ELSE cur.server_keys END,
         server_values = ${put('server_values', 'excluded.value')},
         server_observed = ${put('server_observed', 'excluded.observed_at')},
         value = cur.value - coalesce(${old}, 0) + excluded.value,
         gain = cur.gain + CASE WHEN ${k} IS NULL THEN 0 WHEN excluded.value < ${old} THEN greatest(excluded.value, 0)
                                ELSE excluded.value - ${old} END,
         observed_at = greatest(cur.observed_at, excluded.observed_at),
         updated_at = CASE WHEN ${old} = excluded.value THEN cur.updated_at ELSE excluded.updated_at END,
         replaced_value = cur.value,
         replaced_gain = cur.gain,
         replaced_observed_at = cur.observed_at
       WHERE ${k} IS NULL OR (cur.server_observed[${k}] <= excluded.observed_at
         AND (${old} <> excluded.value OR cur.server_observed[${k}] < excluded.observed_at))
       RETURNING 1`;
}

// ---------------------------------------------------------------------------------------------------------------
// The world: one workspace, one season, two servers, 300 statistics, 2,000 players

interface World {
  workspaceId: string;
  seasonId: string;
  serverIds: string[];
  statIds: Map<string, string>;
  players: BenchPlayer[];
  /** players.id of each bench player (the same in every players table). */
  playerIds: Map<string, string>;
}

function makeWorld(): World {
  const players = makePlayers(PLAYERS, 'varied', 2);
  return {
    workspaceId: randomUUID(),
    seasonId: randomUUID(),
    serverIds: [randomUUID(), randomUUID()],
    statIds: new Map(STAT_KEYS.map((k) => [k, randomUUID()])),
    players,
    playerIds: new Map(players.map((p) => [p.uuid, randomUUID()])),
  };
}

/** Fills every table with every (player, server, key) a player plays: the start of a steady state of updates. */
async function fill(c: pg.Client, w: World): Promise<void> {
  const keyFactor = STAT_KEYS.map((_, k) => 1 + (k % 7));
  await c.query('INSERT INTO seasons (id, workspace_id, started_at) VALUES ($1, $2, now() - interval $$1 day$$)', [
    w.seasonId,
    w.workspaceId,
  ]);
  const ps = w.players;
  const params = [
    uuidArray(ps.map((p) => w.playerIds.get(p.uuid)!)),
    uuidArray(ps.map((p) => p.uuid)),
    `{${ps.map((p) => p.username).join(',')}}`,
    numberArray(ps.map((p) => p.counters[0]!)),
    numberArray(ps.map((p) => p.counters[1]!)),
    `{${ps.map((p) => p.servers.includes(0)).join(',')}}`,
    `{${ps.map((p) => p.servers.includes(1)).join(',')}}`,
    uuidArray(ps.map((p) => p.sessions[0]!)),
    uuidArray(ps.map((p) => p.sessions[1]!)),
    uuidArray([...w.statIds.values()]),
    numberArray(keyFactor),
    w.seasonId,
    w.serverIds[0]!,
    w.serverIds[1]!,
    w.workspaceId,
  ];
  const src = `WITH p AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[], $5::float8[],
      $6::boolean[], $7::boolean[], $8::uuid[], $9::uuid[]) AS t(id, uuid, name, c0, c1, on0, on1, s0, s1)),
    k AS (SELECT * FROM unnest($10::uuid[], $11::float8[]) AS t(stat, f)),
    srv AS (SELECT p.*, x.n, x.server, x.c, x.session FROM p
      CROSS JOIN LATERAL (VALUES (0, $13::uuid, p.c0, p.s0, p.on0), (1, $14::uuid, p.c1, p.s1, p.on1))
        AS x(n, server, c, session, plays) WHERE x.plays),
    obs AS (SELECT now() - interval '10 minutes' AS at),
    -- Every parameter typed, whichever the statement uses.
    typed AS (SELECT $12::uuid, $13::uuid, $14::uuid, $15::uuid)`;
  const stmts: [string, string][] = [];
  for (const s of ['today', 'hb_hot']) {
    stmts.push([
      `${s}.players`,
      `${src} INSERT INTO ${s}.players (id, workspace_id, uuid, username, username_observed_at)
       SELECT p.id, $15, p.uuid, p.name, obs.at FROM p, obs`,
    ]);
    stmts.push([
      `${s}.game_sessions`,
      `${src} INSERT INTO ${s}.game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version,
         game_version, loader_version, started_at, last_seen_at)
       SELECT $15, srv.id, srv.session, srv.server, $12, '1.2.0', '1.21.4', '0.16.9', obs.at, obs.at FROM srv, obs`,
    ]);
  }
  stmts.push([
    'today.server_stats',
    `${src} INSERT INTO today.server_stats (season_id, server_id, stat_id, player_id, value, baseline, gain,
       observed_at, updated_at)
     SELECT $12, srv.server, k.stat, srv.id, srv.c * k.f, srv.c * k.f, 0, obs.at, obs.at FROM srv, k, obs`,
  ]);
  stmts.push([
    'today.player_stats',
    `${src} INSERT INTO today.player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at)
     SELECT $12, k.stat, p.id, (p.c0 + p.c1) * k.f, 0, obs.at, obs.at FROM p, k, obs`,
  ]);
  for (const s of ['one3', 'one4', 'one4p']) {
    stmts.push([
      `${s}.player_stats`,
      `${src} INSERT INTO ${s}.player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at,
         server_ids, server_values, server_baselines, server_observed)
       SELECT $12, k.stat, srv.id, sum(srv.c * k.f), 0, min(obs.at), min(obs.at), array_agg(srv.server ORDER BY srv.n),
         array_agg(srv.c * k.f ORDER BY srv.n), array_agg(srv.c * k.f ORDER BY srv.n), array_agg(obs.at ORDER BY srv.n)
       FROM srv, k, obs GROUP BY k.stat, srv.id`,
    ]);
  }
  stmts.push([
    'slim3.player_stats',
    `${src} INSERT INTO slim3.player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at,
       server_keys, server_values, server_observed)
     SELECT $12, k.stat, srv.id, sum(srv.c * k.f), 0, min(obs.at), min(obs.at), array_agg(srv.n::smallint ORDER BY srv.n),
       array_agg(srv.c * k.f ORDER BY srv.n), array_agg(obs.at ORDER BY srv.n)
     FROM srv, k, obs GROUP BY k.stat, srv.id`,
  ]);
  stmts.push(['server_numbers', `${src} INSERT INTO server_numbers (id, n) VALUES ($13, 0), ($14, 1)`]);
  for (const [what, sql] of stmts) {
    const t0 = performance.now();
    await c.query(sql, params);
    log(`filled ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  // The ceiling's table keeps one value per player and key (a player's two servers write the same rows): the
  // first server's.
  const t0 = performance.now();
  await c.query(
    `INSERT INTO bench_raw_indexed (player, key, value, observed_at)
     SELECT p.uuid, k.key, p.c * k.f, now() - interval '10 minutes'
     FROM unnest($1::uuid[], $2::float8[]) AS p(uuid, c), unnest($3::text[], $4::float8[]) AS k(key, f)`,
    [
      uuidArray(ps.map((p) => p.uuid)),
      numberArray(ps.map((p) => p.counters[p.servers[0]!]!)),
      `{${STAT_KEYS.map((k) => `"${k}"`).join(',')}}`,
      numberArray(keyFactor),
    ],
  );
  log(`filled bench_raw_indexed (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** Every table of the probe, schema-qualified. */
const TABLES = [
  'public.bench_raw_indexed',
  'today.server_stats',
  'today.player_stats',
  'today.players',
  'today.game_sessions',
  'hb_hot.players',
  'hb_hot.game_sessions',
  'one3.player_stats',
  'one4.player_stats',
  'one4p.player_stats',
  'slim3.player_stats',
  'public.workspace_player_counts',
];

// ---------------------------------------------------------------------------------------------------------------
// Statements

/** The next batch of the bench's traffic: a random player, its next server, 20 growing values sorted by key. */
interface Batch {
  p: BenchPlayer;
  server: number;
  stats: { key: string; value: number }[];
  observedAt: Date;
}

function nextBatch(w: World): Batch {
  const p = w.players[randomInt(w.players.length)]!;
  const server = nextServer(p);
  const stats = nextStats(p, STATS_PER_BATCH, server).sort((a, b) => (a.key < b.key ? -1 : 1));
  return { p, server, stats, observedAt: new Date() };
}

/** The batch's rows as a SELECT for the value upserts, from parameters $1–$6 (no players upsert). */
const VALUE_ROWS = `SELECT $1::uuid AS season_id, $2::uuid AS server_id, v.d AS stat_id, $3::uuid AS player_id,
           v.v AS value, $4::timestamptz AS observed_at, now() AS updated_at
         FROM unnest($5::uuid[], $6::float8[]) AS v(d, v)`;

function valueParams(w: World, b: Batch): unknown[] {
  return [
    w.seasonId,
    w.serverIds[b.server]!,
    w.playerIds.get(b.p.uuid)!,
    b.observedAt,
    uuidArray(b.stats.map((s) => w.statIds.get(s.key)!)),
    numberArray(b.stats.map((s) => s.value)),
  ];
}

/** (2) today's two value upserts, the writer's own SQL (history off), one statement. */
const TODAY_VALUES_SQL = `WITH server_rows AS (${serverValueUpsert(VALUE_ROWS)}), stat_rows AS (${networkValueUpsert(false)})
  SELECT 1`;

/** (5) the one-row upsert alone. */
const ONE_VALUES_SQL = `WITH stat_rows AS (${oneRowUpsert(VALUE_ROWS)}) SELECT 1`;

/** (5d) the slim one-row upsert alone: the server as its number ($2 is the server's id, its number looked up). */
const SLIM_VALUES_SQL = `WITH stat_rows AS (${slimUpsert(
  VALUE_ROWS.replace('$2::uuid AS server_id', '(SELECT n FROM server_numbers WHERE id = $2::uuid) AS server_key'),
)}) SELECT 1`;

/** A batch as the writer's group of one (IngestWriter builds the same rows for one item). */
function groupOf(w: World, b: Batch): GroupRows {
  return {
    players: [{ workspaceId: w.workspaceId, uuid: b.p.uuid, username: b.p.username, observedAt: b.observedAt }],
    items: [{ player: 1, seasonId: w.seasonId, serverId: w.serverIds[b.server]!, observedAt: b.observedAt }],
    stats: b.stats.map((s) => ({ item: 1, statId: w.statIds.get(s.key)!, value: s.value })),
    sessions: [
      {
        workspace_id: w.workspaceId,
        player_uuid: b.p.uuid,
        session_id: b.p.sessions[b.server]!,
        server_id: w.serverIds[b.server]!,
        season_id: w.seasonId,
        mod_version: '1.2.0',
        game_version: '1.21.4',
        loader_version: '0.16.9',
        ended: false,
      },
    ],
    events: [],
    notify: { channel: 'statboard_probe', payloads: [] },
  };
}

/**
 * Several batches of distinct players as the writer's group (IngestWriter.writeRows): players once, in
 * (workspace, uuid) order, each batch an item pointing at its player, a session per batch.
 */
function groupOfMany(w: World, bs: Batch[]): GroupRows {
  const sorted = [...bs].sort((a, b) => (a.p.uuid < b.p.uuid ? -1 : 1));
  const place = new Map(sorted.map((b, i) => [b.p.uuid, i + 1]));
  const one = bs.map((b) => groupOf(w, b));
  return {
    players: sorted.map((b) => groupOf(w, b).players[0]!),
    items: one.map((g, i) => ({ ...g.items[0]!, player: place.get(bs[i]!.p.uuid)! })),
    stats: one.flatMap((g, i) => g.stats.map((s) => ({ ...s, item: i + 1 }))),
    sessions: one.flatMap((g) => g.sessions),
    events: [],
    notify: { channel: 'statboard_probe', payloads: [] },
  };
}

/** `n` batches of `n` distinct players. */
function nextGroup(w: World, n: number): Batch[] {
  const out: Batch[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const b = nextBatch(w);
    if (seen.has(b.p.uuid)) continue;
    seen.add(b.p.uuid);
    out.push(b);
  }
  return out;
}

function replaceOnce(sql: string, re: RegExp, by: () => string, what: string): string {
  if (!re.test(sql)) throw new Error(`layout probe: the writer's statement has no ${what} any more`);
  return sql.replace(re, by);
}

/**
 * The heartbeat made HOT-able: the session's indexed `last_seen_at` moves at most once a minute, the heartbeat
 * itself goes to an unindexed column (presence would read `greatest(last_seen_at, heartbeat_at)`).
 */
function hotHeartbeat(sql: string): string {
  return replaceOnce(
    sql,
    /last_seen_at = now\(\),(\s+)server_id = excluded\.server_id/,
    () =>
      `heartbeat_at = now(),
         last_seen_at = CASE WHEN game_sessions.last_seen_at < now() - interval '1 minute' THEN now()
                             ELSE game_sessions.last_seen_at END,
         server_id = excluded.server_id`,
    'session heartbeat',
  );
}

/** The writer's statement with its value CTEs (server rows, network rows, history) replaced by the one-row upsert. */
function oneRowWriter(sql: string): string {
  return replaceOnce(
    sql,
    /server_rows AS \([\s\S]*?\), session_rows AS \(/,
    () =>
      `stat_rows AS (${oneRowUpsert(`SELECT items.s AS season_id, items.srv AS server_id, v.d AS stat_id,
           ids.id AS player_id, v.v AS value, items.o AS observed_at, now() AS updated_at
         FROM unnest($8::int[], $9::uuid[], $10::float8[]) AS v(it, d, v)
         JOIN items ON items.i = v.it
         JOIN ids ON ids.i = items.p`)}), session_rows AS (`,
    'value CTEs',
  );
}

/** `oneRowWriter` with the slim layout's upsert. */
function slimWriter(sql: string): string {
  return replaceOnce(
    sql,
    /server_rows AS \([\s\S]*?\), session_rows AS \(/,
    () =>
      `stat_rows AS (${slimUpsert(`SELECT items.s AS season_id, sn.n AS server_key, v.d AS stat_id,
           ids.id AS player_id, v.v AS value, items.o AS observed_at, now() AS updated_at
         FROM unnest($8::int[], $9::uuid[], $10::float8[]) AS v(it, d, v)
         JOIN items ON items.i = v.it
         JOIN server_numbers sn ON sn.id = items.srv
         JOIN ids ON ids.i = items.p`)}), session_rows AS (`,
    'value CTEs',
  );
}

/**
 * The writer's statement without its heartbeat writes: the players are read, not upserted (a player known to
 * the service; a new one would still be inserted), and the session is not written (its last sighting kept in
 * memory and written at most once a minute, which this leaves out): what the values cost inside the writer's
 * statement.
 */
function noHeartbeat(sql: string): string {
  const read = replaceOnce(
    sql,
    /up AS \(\s*INSERT INTO players[\s\S]*?RETURNING id, workspace_id, uuid, username, first_seen_at, \(xmax = 0\) AS inserted, public/,
    () =>
      `up AS (
       SELECT p.id, p.workspace_id, p.uuid, p.username, p.first_seen_at, false AS inserted, p.public
       FROM players p JOIN input ON p.workspace_id = input.w AND p.uuid = input.u`,
    'players upsert',
  );
  return replaceOnce(
    read,
    /session_rows AS \(\s*INSERT INTO game_sessions[\s\S]*?RETURNING 1/,
    () => 'session_rows AS (SELECT $11::jsonb IS NULL AS unused',
    'session upsert',
  );
}

/** A Queryable that edits each statement before sending it (the writer's statement, another layout). */
function editing(db: Queryable, edit: (sql: string) => string): Queryable {
  const cache = new Map<string, string>();
  return {
    query(sql, params) {
      let out = cache.get(sql);
      if (out === undefined) {
        out = edit(sql);
        cache.set(sql, out);
      }
      return db.query(out, params);
    },
    exec: (script) => db.exec(script),
  };
}

/** Sends each statement as EXPLAIN (ANALYZE) and keeps its planning and execution times (ms). */
function explaining(db: Queryable, into: { plan: number[]; exec: number[] }): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const rows = await db.query<{ 'QUERY PLAN': { 'Planning Time': number; 'Execution Time': number }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      const plan = rows[0]!['QUERY PLAN'][0]!;
      into.plan.push(plan['Planning Time']);
      into.exec.push(plan['Execution Time']);
      return [] as T[];
    },
    exec: (script) => db.exec(script),
  };
}

/**
 * A connection whose statements are named prepared statements (pg's `name`: parsed, analysed and planned once per
 * connection; PostgreSQL switches to a generic plan after five executions when it is not costlier), keyed by text.
 */
function preparing(client: pg.Client): Queryable {
  const names = new Map<string, string>();
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      let name = names.get(sql);
      if (name === undefined) {
        name = `probe_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
        names.set(sql, name);
      }
      return (await client.query({ name, text: sql, values: params as unknown[] | undefined })).rows as T[];
    },
    async exec(script) {
      await client.query(script);
    },
  };
}

interface Variant {
  name: string;
  what: string;
  searchPath: string;
  /** Tables (schema-qualified) whose rows this variant writes, for rows and index entries per value. */
  tables: string[];
  run(db: Queryable, w: World, b: Batch): Promise<unknown>;
  /**
   * Batches per statement, written from `slots` connections (the writer's grouping: 2 write slots, each statement
   * carrying the batches that arrived while the previous one ran). Writer variants only.
   */
  group?: { batches: number; slots: number; run(db: Queryable, w: World, bs: Batch[]): Promise<unknown> };
  /** Sent as named prepared statements (parsed and planned once per connection), where the service sends unnamed ones. */
  prepared?: boolean;
}

const ceilingRows = (b: Batch): RawValue[] =>
  b.stats.map((s) => ({ player: b.p.uuid, key: s.key, value: s.value, observedAt: b.observedAt }));

const writer =
  (edit: ((sql: string) => string) | null) =>
  (db: Queryable, w: World, b: Batch): Promise<unknown> =>
    writeGroup(edit ? editing(db, edit) : db, false, groupOf(w, b));

const HB_TODAY = ['today.players', 'today.game_sessions'];
const HB_HOT = ['hb_hot.players', 'hb_hot.game_sessions'];

const CEILING: Variant = {
  name: 'ceiling',
  what: '(1) ceiling: `upsertRaw(…, true)` (bench/lib/raw-sql.ts), one row per value, 3 indexes',
  searchPath: 'public',
  tables: ['public.bench_raw_indexed'],
  run: (db, _w, b) => upsertRaw(db, ceilingRows(b), true),
};

const VARIANTS: Variant[] = [
  {
    name: 'today-values',
    what: "(2) today's value writes: server_stats (3 idx) + player_stats (4 idx), the writer's two upserts",
    searchPath: 'today, public',
    tables: ['today.server_stats', 'today.player_stats'],
    run: (db, w, b) => db.query(TODAY_VALUES_SQL, valueParams(w, b)),
  },
  {
    name: 'today-writer',
    what: "(3) today's writer statement: (2) + players upsert + game_sessions heartbeat (non-HOT, 4 idx)",
    searchPath: 'today, public',
    tables: ['today.server_stats', 'today.player_stats', ...HB_TODAY],
    run: writer(null),
  },
  {
    name: 'today-writer-hothb',
    what: '(4) (3) with HOT heartbeats: game_sessions.heartbeat_at unindexed, last_seen_at once a minute, fillfactor 70 (players too)',
    searchPath: 'hb_hot, today, public',
    tables: ['today.server_stats', 'today.player_stats', ...HB_HOT],
    run: writer(hotHeartbeat),
  },
  {
    name: 'one3-values',
    what: '(5a) one row per value, servers inside the row, 3 indexes (no gain index)',
    searchPath: 'one3, public',
    tables: ['one3.player_stats'],
    run: (db, w, b) => db.query(ONE_VALUES_SQL, valueParams(w, b)),
  },
  {
    name: 'one4-values',
    what: '(5b) one row per value, 4 indexes (gain index)',
    searchPath: 'one4, public',
    tables: ['one4.player_stats'],
    run: (db, w, b) => db.query(ONE_VALUES_SQL, valueParams(w, b)),
  },
  {
    name: 'one4p-values',
    what: '(5c) one row per value, 4 indexes, gain index partial (`WHERE gain <> 0`)',
    searchPath: 'one4p, public',
    tables: ['one4p.player_stats'],
    run: (db, w, b) => db.query(ONE_VALUES_SQL, valueParams(w, b)),
  },
  {
    name: 'slim3-values',
    what: '(5d) one row per value, slim (server numbers, no baselines array), 3 indexes',
    searchPath: 'slim3, public',
    tables: ['slim3.player_stats'],
    run: (db, w, b) => db.query(SLIM_VALUES_SQL, valueParams(w, b)),
  },
  {
    name: 'one4-writer',
    what: "(6a) writer statement, one row per value (4 idx), today's heartbeats",
    searchPath: 'one4, today, public',
    tables: ['one4.player_stats', ...HB_TODAY],
    run: writer(oneRowWriter),
  },
  {
    name: 'one4-writer-hothb',
    what: '(6b) writer statement, one row per value (4 idx), HOT heartbeats',
    searchPath: 'one4, hb_hot, today, public',
    tables: ['one4.player_stats', ...HB_HOT],
    run: writer((sql) => hotHeartbeat(oneRowWriter(sql))),
  },
  {
    name: 'one3-writer-hothb',
    what: '(6c) writer statement, one row per value (3 idx), HOT heartbeats',
    searchPath: 'one3, hb_hot, today, public',
    tables: ['one3.player_stats', ...HB_HOT],
    run: writer((sql) => hotHeartbeat(oneRowWriter(sql))),
  },
  {
    name: 'one4p-writer-hothb',
    what: '(6d) writer statement, one row per value (4 idx, gain partial), HOT heartbeats',
    searchPath: 'one4p, hb_hot, today, public',
    tables: ['one4p.player_stats', ...HB_HOT],
    run: writer((sql) => hotHeartbeat(oneRowWriter(sql))),
  },
  {
    name: 'slim3-writer-hothb',
    what: '(6e) writer statement, slim one row per value (3 idx), HOT heartbeats',
    searchPath: 'slim3, hb_hot, today, public',
    tables: ['slim3.player_stats', ...HB_HOT],
    run: writer((sql) => hotHeartbeat(slimWriter(sql))),
  },
  {
    name: 'slim3-writer-nohb',
    what: '(6f) writer statement, slim one row per value (3 idx), players read (not written), no session write',
    searchPath: 'slim3, hb_hot, today, public',
    tables: ['slim3.player_stats', ...HB_HOT],
    run: writer((sql) => noHeartbeat(slimWriter(sql))),
  },
];

// The writer's statements as the service sends them under load: groups of GROUP batches from 2 write slots.
const GROUP = Number(process.env.BENCH_GROUP ?? 16);
/** Write slots (connections) of the grouped variants: the service has 2. */
const GROUP_SLOTS = Number(process.env.BENCH_GROUP_SLOTS ?? 2);
for (const name of ['today-writer', 'one4-writer-hothb', 'slim3-writer-hothb', 'slim3-writer-nohb']) {
  const v = VARIANTS.find((x) => x.name === name)!;
  const edit = {
    'today-writer': null,
    'one4-writer-hothb': (sql: string) => hotHeartbeat(oneRowWriter(sql)),
    'slim3-writer-hothb': (sql: string) => hotHeartbeat(slimWriter(sql)),
    'slim3-writer-nohb': (sql: string) => noHeartbeat(slimWriter(sql)),
  }[name]!;
  VARIANTS.push({
    ...v,
    name: `${name}-grouped`,
    what: `${v.what}; ${GROUP} batches per statement from ${GROUP_SLOTS} connections (the writer's grouping)`,
    group: {
      batches: GROUP,
      slots: GROUP_SLOTS,
      run: (db, w, bs) => writeGroup(edit ? editing(db, edit) : db, false, groupOfMany(w, bs)),
    },
  });
}

// The same statements, prepared: how much of the writer's statement is parsing and planning (and the ceiling
// prepared, a diagnostic: its statement is planned in 0.03 ms, but parsed with its 80 parameters every time).
VARIANTS.push({ ...CEILING, name: 'ceiling-prepared', what: '(1p) the ceiling, prepared', prepared: true });
for (const name of ['today-writer', 'slim3-values', 'slim3-writer-hothb', 'slim3-writer-nohb']) {
  const v = VARIANTS.find((x) => x.name === name)!;
  VARIANTS.push({ ...v, name: `${name}-prepared`, what: `${v.what}; prepared`, prepared: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Running

interface Conn {
  client: pg.Client;
  db: Queryable;
  /** The same connection, every statement sent as a named prepared statement (`preparing`). */
  prepared: Queryable;
  pid: number;
}

interface RunResult {
  batches: number;
  failed: number;
  seconds: number;
  /** PostgreSQL backends' CPU seconds. */
  pgCpu: number;
  /** This process's CPU seconds (the client). */
  clientCpu: number;
}

type TableCounters = Map<string, { ins: number; upd: number; hot: number; indexes: number }>;

async function tableCounters(admin: pg.Client): Promise<TableCounters> {
  const res = await admin.query<{ t: string; ins: string; upd: string; hot: string; indexes: number }>(
    `SELECT s.schemaname || '.' || s.relname AS t, s.n_tup_ins AS ins, s.n_tup_upd AS upd, s.n_tup_hot_upd AS hot,
       (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
     FROM pg_stat_user_tables s`,
  );
  return new Map(
    res.rows.map((r) => [r.t, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), indexes: r.indexes }]),
  );
}

/** Flushes every backend's pending statistics (PostgreSQL 15: at the end of this statement). */
async function flushStats(conns: Conn[]): Promise<void> {
  await Promise.all(conns.map((c) => c.client.query('SELECT pg_stat_force_next_flush()').catch(() => undefined)));
}

async function runFor(conns: Conn[], w: World, v: Variant, seconds: number, measure: boolean): Promise<RunResult> {
  await Promise.all(conns.map((c) => c.client.query(`SET search_path = ${v.searchPath}`)));
  const cpu0 = measure ? conns.map((c) => cpuSeconds(c.pid) ?? 0) : [];
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let batches = 0;
  let failed = 0;
  let lastError: unknown = null;
  const group = v.group;
  await Promise.all(
    conns.slice(0, group ? group.slots : conns.length).map(async (c) => {
      const db = v.prepared ? c.prepared : c.db;
      while (performance.now() < until) {
        try {
          if (group) {
            await group.run(db, w, nextGroup(w, group.batches));
            batches += group.batches;
          } else {
            await v.run(db, w, nextBatch(w));
            batches++;
          }
        } catch (err) {
          failed++;
          lastError = err;
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  let pgCpu = 0;
  if (measure) for (const [i, c] of conns.entries()) pgCpu += (cpuSeconds(c.pid) ?? cpu0[i]!) - cpu0[i]!;
  if (failed > 0) log(`${v.name}: ${failed} statements failed, last: ${String(lastError)}`);
  return { batches, failed, seconds: elapsed, pgCpu, clientCpu: (client.user + client.system) / 1e6 };
}

interface Tally {
  ratios: number[];
  perSecond: number[];
  cpuPerBatch: number[];
  pgCores: number[];
  /** The ceiling runs paired with this variant. */
  ceilingPerSecond: number[];
  ceilingCpuPerBatch: number[];
  ceilingCores: number[];
  values: number;
  rows: Map<string, { ins: number; upd: number; hot: number; indexes: number }>;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const machine = await machineLine();
  log(machine);
  const only = process.env.BENCH_VARIANTS?.split(',');
  const variants = only ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS;
  const scratch = await createDatabase('statboard_layout_probe');
  log(`database ${scratch.name}`);
  const admin = new pg.Client({ connectionString: scratch.url });
  await admin.connect();
  const conns: Conn[] = [];
  const started = performance.now();
  try {
    await admin.query(SHARED_DDL);
    await admin.query(
      'CREATE SCHEMA today; CREATE SCHEMA hb_hot; CREATE SCHEMA one3; CREATE SCHEMA one4; CREATE SCHEMA one4p; CREATE SCHEMA slim3',
    );
    await admin.query(heartbeatDdl('today', false));
    await admin.query(heartbeatDdl('hb_hot', true));
    await admin.query(TODAY_VALUES_DDL);
    await admin.query(oneRowDdl('one3', 'none'));
    await admin.query(oneRowDdl('one4', 'full'));
    await admin.query(oneRowDdl('one4p', 'partial'));
    await admin.query(slimDdl('slim3'));
    const world = makeWorld();
    await fill(admin, world);
    await admin.query('VACUUM ANALYZE');
    for (let i = 0; i < CONCURRENCY; i++) {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      conns.push({ client, db: clientQueryable(client), prepared: preparing(client), pid });
    }
    // Every statement once, before any run: a broken edit fails here, not in the middle of the rounds.
    for (const v of [CEILING, ...variants]) {
      await conns[0]!.client.query(`SET search_path = ${v.searchPath}`);
      const db = v.prepared ? conns[0]!.prepared : conns[0]!.db;
      await (v.group ? v.group.run(db, world, nextGroup(world, v.group.batches)) : v.run(db, world, nextBatch(world)));
    }
    const tallies = new Map<string, Tally>(
      variants.map((v) => [
        v.name,
        {
          ratios: [],
          perSecond: [],
          cpuPerBatch: [],
          pgCores: [],
          ceilingPerSecond: [],
          ceilingCpuPerBatch: [],
          ceilingCores: [],
          values: 0,
          rows: new Map(),
        },
      ]),
    );
    const ceilingRowsTally: Tally['rows'] = new Map();
    let ceilingValues = 0;
    const addRows = (into: Tally['rows'], before: TableCounters, after: TableCounters, tables: string[]) => {
      for (const t of tables) {
        const a = before.get(t);
        const b = after.get(t);
        if (!a || !b) continue;
        const cur = into.get(t) ?? { ins: 0, upd: 0, hot: 0, indexes: b.indexes };
        cur.ins += b.ins - a.ins;
        cur.upd += b.upd - a.upd;
        cur.hot += b.hot - a.hot;
        into.set(t, cur);
      }
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      for (const v of order) {
        const t = tallies.get(v.name)!;
        await runFor(conns, world, CEILING, WARM_SECONDS, false);
        await flushStats(conns);
        let before = await tableCounters(admin);
        const c = await runFor(conns, world, CEILING, SECONDS, true);
        await flushStats(conns);
        let after = await tableCounters(admin);
        addRows(ceilingRowsTally, before, after, CEILING.tables);
        ceilingValues += c.batches * STATS_PER_BATCH;
        await runFor(conns, world, v, WARM_SECONDS, false);
        await flushStats(conns);
        before = await tableCounters(admin);
        const r = await runFor(conns, world, v, SECONDS, true);
        await flushStats(conns);
        after = await tableCounters(admin);
        addRows(t.rows, before, after, v.tables);
        t.values += r.batches * STATS_PER_BATCH;
        const cps = c.batches / c.seconds;
        const vps = r.batches / r.seconds;
        t.ratios.push(vps / cps);
        t.perSecond.push(vps);
        t.ceilingPerSecond.push(cps);
        t.cpuPerBatch.push((r.pgCpu / r.batches) * 1000);
        t.pgCores.push(r.pgCpu / r.seconds);
        t.ceilingCpuPerBatch.push((c.pgCpu / c.batches) * 1000);
        t.ceilingCores.push(c.pgCpu / c.seconds);
        log(
          `round ${round + 1}/${ROUNDS} ${v.name}: ${fmtInt(vps)} vs ceiling ${fmtInt(cps)} batches/s ` +
            `(${fmtRatio(vps / cps)}); PG ${((r.pgCpu / r.batches) * 1000).toFixed(3)} vs ` +
            `${((c.pgCpu / c.batches) * 1000).toFixed(3)} ms/batch, PG cores ${(r.pgCpu / r.seconds).toFixed(2)} vs ` +
            `${(c.pgCpu / c.seconds).toFixed(2)}`,
        );
      }
      const t0 = performance.now();
      await admin.query(`VACUUM ${TABLES.join(', ')}`);
      log(`round ${round + 1}: vacuumed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    // Whether the prepared statements ran generic plans (planned once) or custom ones (planned every time).
    const plans = await conns[0]!.client.query<{ name: string; generic_plans: string; custom_plans: string }>(
      "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'probe_%'",
    );
    for (const r of plans.rows) log(`prepared ${r.name}: ${r.generic_plans} generic plans, ${r.custom_plans} custom`);
    // Where a statement's time goes, one connection, no contention: planning (every statement is sent unnamed,
    // so planned every time, as the service sends its own) and execution.
    const explained = new Map<string, { plan: number; exec: number }>();
    for (const v of [CEILING, ...variants.filter((x) => !x.prepared && !x.group)]) {
      const into = { plan: [] as number[], exec: [] as number[] };
      await conns[0]!.client.query(`SET search_path = ${v.searchPath}`);
      const db = explaining(conns[0]!.db, into);
      for (let i = 0; i < EXPLAINS; i++) await v.run(db, world, nextBatch(world));
      explained.set(v.name, { plan: median(into.plan), exec: median(into.exec) });
    }
    const timing = (name: string) => {
      const e = explained.get(name);
      return e && Number.isFinite(e.plan) ? `${e.plan.toFixed(2)} / ${e.exec.toFixed(2)}` : '—';
    };

    const perValue = (rows: Tally['rows'], values: number) => {
      let written = 0;
      let nonHot = 0;
      let entries = 0;
      for (const x of rows.values()) {
        written += x.ins + x.upd;
        nonHot += x.ins + x.upd - x.hot;
        entries += (x.ins + x.upd - x.hot) * x.indexes;
      }
      return {
        rows: (written / values).toFixed(2),
        nonHot: (nonHot / values).toFixed(2),
        entries: (entries / values).toFixed(2),
      };
    };
    const detail = (rows: Tally['rows']) =>
      [...rows]
        .map(([t, x]) => `${t}: ${x.indexes} idx, ${x.upd > 0 ? Math.round((100 * x.hot) / x.upd) : 0} % HOT`)
        .join('; ');
    const allCeilingCpu = [...tallies.values()].flatMap((t) => t.ceilingCpuPerBatch);
    const allCeilingPs = [...tallies.values()].flatMap((t) => t.ceilingPerSecond);
    const cv = perValue(ceilingRowsTally, ceilingValues);
    const rows: string[][] = [
      [
        CEILING.what,
        fmtInt(median(allCeilingPs)),
        '1.00x',
        median(allCeilingCpu).toFixed(3),
        '—',
        median([...tallies.values()].flatMap((t) => t.ceilingCores)).toFixed(2),
        timing(CEILING.name),
        cv.rows,
        cv.nonHot,
        cv.entries,
        detail(ceilingRowsTally),
      ],
    ];
    for (const v of variants) {
      const t = tallies.get(v.name)!;
      const pv = perValue(t.rows, t.values);
      const sorted = [...t.ratios].sort((a, b) => a - b);
      rows.push([
        v.what,
        fmtInt(median(t.perSecond)),
        `**${fmtRatio(median(t.ratios))}** (${sorted.map((x) => x.toFixed(2)).join(', ')})`,
        median(t.cpuPerBatch).toFixed(3),
        `${(median(t.cpuPerBatch) / median(t.ceilingCpuPerBatch)).toFixed(2)}x`,
        median(t.pgCores).toFixed(2),
        timing(v.name),
        pv.rows,
        pv.nonHot,
        pv.entries,
        detail(t.rows),
      ]);
    }
    // The one-row layouts keep their total the sum of their servers' values, as today's keep the network row the
    // sum of the server rows.
    for (const schema of ['one3', 'one4', 'one4p', 'slim3']) {
      const bad = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${schema}.player_stats
         WHERE value <> (SELECT sum(x) FROM unnest(server_values) x) OR cardinality(server_observed) <> cardinality(server_values)`,
      );
      log(`${schema}: ${bad.rows[0]!.n} rows whose total is not the sum of their servers' values`);
    }
    const badToday = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM today.player_stats p
       WHERE p.value <> (SELECT sum(s.value) FROM today.server_stats s
                         WHERE s.season_id = p.season_id AND s.stat_id = p.stat_id AND s.player_id = p.player_id)`,
    );
    log(`today: ${badToday.rows[0]!.n} network rows that are not the sum of their server rows`);
    // What each layout's tables hold at the end (heap and indexes), per value stored.
    const sizes = await admin.query<{ t: string; heap: string; idx: string; n: string }>(
      `SELECT n.nspname || '.' || c.relname AS t, pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS idx,
         c.reltuples::bigint AS n
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND n.nspname || '.' || c.relname = ANY($1::text[])`,
      [TABLES],
    );
    const sizeRows = sizes.rows
      .filter((r) => /stats|raw/.test(r.t))
      .map((r) => [
        `\`${r.t}\``,
        fmtInt(Number(r.n)),
        (Number(r.heap) / 2 ** 20).toFixed(0),
        (Number(r.idx) / 2 ** 20).toFixed(0),
      ]);
    const elapsed = ((performance.now() - started) / 1000).toFixed(0);
    const md = [
      machine,
      '',
      `\`npm run bench:layout-probe\` (${elapsed} s): ${PLAYERS.toLocaleString('en-US')} players, two servers ` +
        `(half the players on both), ${STATS_PER_BATCH} statistics per batch, ${CONCURRENCY} connections, ` +
        `${SECONDS} s per run, ${ROUNDS} rounds of (ceiling, variant) pairs; every value an update of a filled table.`,
      '',
      table(
        [
          'variant',
          'batches/s (median)',
          'ratio to ceiling (median; rounds)',
          'PG CPU ms/batch',
          'PG CPU vs ceiling',
          'PG cores',
          'plan / exec ms (alone)',
          'rows written / value',
          'non-HOT rows / value',
          'index entries / value',
          'tables',
        ],
        rows,
      ),
      '',
      'Table sizes at the end (after the last VACUUM; rows as estimated by it, MB with the bloat of the run):',
      '',
      table(['table', 'rows', 'heap MB', 'indexes MB'], sizeRows),
    ].join('\n');
    process.stdout.write(`\n${md}\n`);
  } finally {
    await Promise.all(conns.map((c) => c.client.end().catch(() => undefined)));
    await admin.end().catch(() => undefined);
    await scratch.drop();
    log(`dropped ${scratch.name}`);
  }
}

await main();
