/**
 * Scale benchmark: every key read and the admin reads of the console at 10,000, 100,000 and 1,000,000 players
 * (seeded with SQL on PostgreSQL: two servers, half the players on both), p50 and p99 at 1 and 32 connections, the
 * service with its defaults, network totals, `server=` and a `gains` season; the service's peak RSS through the
 * whole run; switching the season's scoring (the first read after it); a random player's values when the cache
 * misses against a plain `pg` query (plain-reads.ts); bytes on disk per stored value, history point, event and
 * session.
 *
 *   npm run bench:scale                                   # writes "## Statboard at scale" of BENCHMARKS.md
 *   BENCH_SCALES=10000 BENCH_SECONDS=2 BENCH_WRITE=0 npm run bench:scale
 *   BENCH_SCALES= BENCH_PGLITE_PLAYERS=1000000 npm run bench:scale   # only the embedded database's bytes per row
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLAYER_CACHE_MB, DEFAULT_RANK_CACHE_MB, loadConfig } from '../../apps/statboard/src/config.ts';
import type { Db } from '../../apps/statboard/src/db/types.ts';
import { CLI_ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import { rankWindow, serverBoardEntries } from '../../apps/statboard/src/modules/leaderboards/repo.ts';
import { listPublicPlayers } from '../../apps/statboard/src/modules/players/repo.ts';
import type { Scoring } from '../../apps/statboard/src/modules/seasons/repo.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { type RunningServer, startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter, cpuSeconds, RssSampler } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import {
  type BenchWorkspace,
  openTarget,
  READY_PATH,
  SERVICE_SCRIPT,
  seedStatboard,
  serviceEnv,
} from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, table } from '../lib/stats.ts';
import { randomInt, STAT_KEYS } from '../lib/traffic.ts';

const SCALES = (process.env.BENCH_SCALES ?? '10000,100000,1000000')
  .split(',')
  .filter((x) => x !== '')
  .map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,32').split(',').map(Number);
const WRITE = process.env.BENCH_WRITE !== '0';
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const PGLITE_PLAYERS = Number(process.env.BENCH_PGLITE_PLAYERS ?? 1_000_000);
const CORES = availableParallelism();
/** Only the routes whose name matches (a regular expression), e.g. BENCH_ROUTES=online. */
const ROUTES = process.env.BENCH_ROUTES ? new RegExp(process.env.BENCH_ROUTES) : null;
/** Statistics defined; each player has values of the first `valuesPerPlayer` of them. */
const STATS = 100;
const ONLINE = 10_000;
const HISTORY_PLAYERS = 2_000;
const HISTORY_STATS = 5;
const HISTORY_DAYS = 30;
const AUDIT_ROWS = 20_000;
const KEYS = 200;
const KEY_P99_MS = 10;
const LARGE_P99_MS = 50;
const RSS_TARGET_MB = 250;

function log(msg: string): void {
  process.stderr.write(`[bench:scale] ${msg}\n`);
}

/** 100 values per player up to 100,000 players; 20 at 1,000,000 (20 M rows: the disk and the seeding time). */
function valuesPerPlayer(players: number): number {
  return players > 100_000 ? 20 : 100;
}

/**
 * Which of the two servers a player plays on, from a hash of the player's row id (so that every statement of the
 * seed agrees without a table of it): 0 and 2 both (half the players), 1 the first only, 3 the second only.
 */
const HOME = (id: string) => `(hashtext(${id}::text) & 3)`;
/** The share of a player on both servers that is the first server's, in [0, 1] (the same for all the player's values). */
const SHARE = (id: string) => `(((hashtext(${id}::text) >> 2) & 1023) / 1023.0::float8)`;

/**
 * The network, with SQL: two servers (the workspace's and a second one, registered here), half the players on
 * both and a quarter on each alone; players with names of 6–13 characters (0.1 % hidden), `values` values each
 * (skewed, with ties) with their gain since the season began, a game session each (ONLINE of them online for the
 * whole run), an event each, 30 daily history points of HISTORY_STATS statistics for HISTORY_PLAYERS players,
 * AUDIT_ROWS audit entries, KEYS API keys, rejections and 30 days of hourly activity. Secondary indexes of the big
 * tables are dropped for the load and re-created. Returns the two servers' ids.
 */
async function seed(db: Db, ws: BenchWorkspace, players: number, values: number, keys: string[]): Promise<string[]> {
  const services = buildServices(db, loadConfig({}));
  const second = await services.servers.create(CLI_ACTOR, ws.workspaceId, {
    name: 'Creative',
    hostname: 'creative.example.com',
    port: 25565,
  });
  await services.flush();
  const servers = [ws.serverId, second.id];
  const big = ['player_stats', 'server_stats', 'players', 'events', 'game_sessions'];
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes i
     WHERE schemaname = 'public' AND tablename = ANY($1::text[]) AND indexname NOT LIKE '%pkey'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [big],
  );
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  await db.query(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at, public, first_seen_at, last_seen_at)
     SELECT $1, gen_random_uuid(), substr(md5(g::text), 1, 6 + g % 8), now(), g % 1000 <> 7,
       now() - (g % 365) * interval '1 day', now() - (g % 30) * interval '1 day'
     FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, players],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category)
     SELECT $1, k, split_part(k, ':', 2) FROM unnest($2::text[]) k`,
    [ws.workspaceId, keys],
  );
  // The network rows, each with its gain: what the player gained since the season began (the value less the first
  // value observed in the season, the writer's baseline in a workspace's first season), a random part of the
  // value. (OFFSET 0 keeps the subquery, so that `value` is drawn once per row.)
  await timed('player_stats', () =>
    db.query(
      `INSERT INTO player_stats (season_id, stat_id, player_id, value, gain, observed_at, updated_at)
       SELECT season_id, stat_id, player_id, value, floor(value * random()), observed_at, updated_at
       FROM (
         SELECT $1::uuid AS season_id, d.id AS stat_id, p.id AS player_id,
           floor(power(random(), 3) * power(10, 1 + d.n % 6)) AS value,
           now() - random() * interval '30 days' AS observed_at, now() - random() * interval '30 days' AS updated_at
         FROM (SELECT id, key, row_number() OVER (ORDER BY key) AS n FROM stat_definitions WHERE workspace_id = $2) d
         CROSS JOIN players p WHERE p.workspace_id = $2 AND d.key = ANY($3::text[])
         OFFSET 0
       ) v`,
      [ws.seasonId, ws.workspaceId, keys.slice(0, values)],
    ),
  );
  // The values per server, whose sums are the network rows: a player of one server has it all there; a player of
  // both splits each value and its gain by the player's share (whole numbers, so a server's gain never exceeds its
  // value, and baseline = value - gain, carried 0, as the writer keeps a counter that never dropped). Loaded
  // without the key and the foreign keys' checks (the rows are consistent by construction; the key is built after).
  await timed('server_stats', () =>
    db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query('ALTER TABLE server_stats DROP CONSTRAINT server_stats_pkey');
      await tx.query(
        `INSERT INTO server_stats (season_id, server_id, stat_id, player_id, value, baseline, carried, gain, observed_at,
           updated_at)
         SELECT ps.season_id, s.server_id, ps.stat_id, ps.player_id, s.value, s.value - s.gain, 0, s.gain,
           ps.observed_at, ps.updated_at
         FROM player_stats ps
         CROSS JOIN LATERAL (SELECT ${HOME('ps.player_id')} AS home, ${SHARE('ps.player_id')} AS f) h
         CROSS JOIN LATERAL (VALUES
           ($2::uuid, h.home <> 3,
             CASE h.home WHEN 1 THEN ps.value ELSE floor(ps.value * h.f) END,
             CASE h.home WHEN 1 THEN ps.gain ELSE floor(ps.gain * h.f) END),
           ($3::uuid, h.home <> 1,
             CASE h.home WHEN 3 THEN ps.value ELSE ps.value - floor(ps.value * h.f) END,
             CASE h.home WHEN 3 THEN ps.gain ELSE ps.gain - floor(ps.gain * h.f) END)
         ) s (server_id, plays, value, gain)
         WHERE ps.season_id = $1 AND s.plays`,
        [ws.seasonId, servers[0], servers[1]],
      );
    }),
  );
  await timed('server_stats key', () =>
    db.query('ALTER TABLE server_stats ADD PRIMARY KEY (season_id, server_id, stat_id, player_id)'),
  );
  // A session each, of an hour, ended on one of the last 30 days; the first ONLINE players' open and heartbeated
  // into the future, so they stay online through the run.
  await db.query(
    `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version, game_version,
       started_at, last_seen_at, ended_at)
     SELECT $1, p.id, gen_random_uuid(), CASE WHEN ${HOME('p.id')} = 3 THEN $5::uuid ELSE $2::uuid END, $3, '1.4.0', '1.21.1',
       CASE WHEN p.n <= $4 THEN now() - interval '1 hour' ELSE p.seen - interval '1 hour' END,
       CASE WHEN p.n <= $4 THEN now() + interval '1 day' ELSE p.seen END,
       CASE WHEN p.n <= $4 THEN NULL ELSE p.seen END
     FROM (SELECT id, row_number() OVER () AS n, now() - random() * interval '30 days' AS seen
           FROM players WHERE workspace_id = $1) p`,
    [ws.workspaceId, ws.serverId, ws.seasonId, ONLINE, servers[1]],
  );
  await db.query(
    `INSERT INTO events (workspace_id, id, player_id, session_id, server_id, season_id, type, occurred_at, payload,
       received_at)
     SELECT $1, gen_random_uuid(), p.id, gen_random_uuid(), CASE WHEN ${HOME('p.id')} = 3 THEN $4::uuid ELSE $2::uuid END,
       $3, 'mob_killed', now() - random() * interval '30 days',
       jsonb_build_object('mob', 'minecraft:zombie', 'weapon', 'minecraft:iron_sword', 'x', 120, 'y', 64, 'z', -33),
       now() - random() * interval '30 days'
     FROM players p WHERE p.workspace_id = $1`,
    [ws.workspaceId, ws.serverId, ws.seasonId, servers[1]],
  );
  await db.query(
    `INSERT INTO stat_history (player_id, season_id, stat_id, at, value, gain)
     SELECT p.id, $2, d.id, date_trunc('day', now()) - g * interval '1 day', 1000 - g * 10, 300 - g * 10
     FROM (SELECT id FROM players WHERE workspace_id = $1 AND public ORDER BY id LIMIT $3) p
     CROSS JOIN (SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = ANY($4::text[])) d
     CROSS JOIN generate_series(1, $5::int) g`,
    [ws.workspaceId, ws.seasonId, HISTORY_PLAYERS, keys.slice(0, HISTORY_STATS), HISTORY_DAYS],
  );
  await db.query(
    `INSERT INTO audit_log (workspace_id, actor_label, action, target_type, target_id, before, after, created_at)
     SELECT $1, 'cli', (ARRAY['api_key.create', 'server.update', 'player.update', 'season.activate'])[1 + g % 4],
       'api_key', gen_random_uuid()::text, NULL, jsonb_build_object('name', 'key ' || g, 'scopes', '["players:read"]'::jsonb),
       now() - g * interval '1 minute'
     FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, AUDIT_ROWS],
  );
  await db.query(
    `INSERT INTO api_keys (workspace_id, name, type, secret_hash, scopes)
     SELECT $1, 'site ' || g, 'website', md5(g::text), ARRAY['players:read', 'stats:read']
     FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, KEYS],
  );
  await db.query(
    `INSERT INTO ingest_rejections (workspace_id, hour, code, message, hostname, port, count, first_at, last_at)
     SELECT $1, date_trunc('hour', now()) - (g / 10) * interval '1 hour', 'UNKNOWN_SERVER', 'Unknown server',
       'mc' || g || '.example.com', 25565, 1 + g % 50, now() - g * interval '6 minutes', now() - g * interval '6 minutes'
     FROM generate_series(1, 1000) g`,
    [ws.workspaceId],
  );
  await db.query(
    `INSERT INTO ingest_activity (workspace_id, hour, batches_accepted, batches_rejected, values_written)
     SELECT $1, date_trunc('hour', now()) - g * interval '1 hour', 3000, 5, 60000 FROM generate_series(0, 719) g`,
    [ws.workspaceId],
  );
  await timed('secondary indexes', async () => {
    for (const i of indexes) await db.query(i.def);
  });
  // The counter of public players is kept by triggers, which the bulk load went through.
  await timed('vacuum analyze', async () => {
    for (const t of [...big, 'stat_definitions', 'stat_history', 'audit_log', 'api_keys']) {
      await db.query(`VACUUM ANALYZE ${t}`);
    }
  });
  return servers;
}

/** Runs a step of the seed and logs how long it took (the seed of 1,000,000 players takes minutes). */
async function timed(step: string, run: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await run();
  log(`  seed: ${step} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** Bytes on disk (heap, TOAST and indexes) per row of the tables that grow with the network. */
interface Storage {
  what: string;
  table: string;
  rows: number;
  bytes: number;
}

async function storage(db: Db): Promise<Storage[]> {
  const tables: [string, string][] = [
    ['a stored value (`player_stats`, the network total)', 'player_stats'],
    ['a value per server (`server_stats`)', 'server_stats'],
    ['a history point (`stat_history`)', 'stat_history'],
    ['an event (`events`)', 'events'],
    ['a game session (`game_sessions`)', 'game_sessions'],
    ['a player (`players`)', 'players'],
  ];
  const out: Storage[] = [];
  for (const [what, t] of tables) {
    const [r] = await db.query<{ rows: number; bytes: number }>(
      `SELECT (SELECT count(*) FROM ${t})::float8 AS rows, pg_total_relation_size('${t}')::float8 AS bytes`,
    );
    out.push({ what, table: t, rows: r?.rows ?? 0, bytes: r?.bytes ?? 0 });
  }
  return out;
}

interface Route {
  name: string;
  /** `reference`: not the service, and no target (see `bareOf`). */
  kind: 'key' | 'large' | 'admin' | 'reference';
  paths: string[];
  /**
   * A reference row: bare node:http answering a fixed body as large as the service's answer to this path, in its
   * own process pinned as the service is, so that what the body's size alone costs is measured in the same run.
   */
  bareOf?: string;
  admin?: boolean;
  /** The scoring season s1 is switched to before this route (see `switchScoring`); default `absolute`. */
  scoring?: Scoring;
  /** Headers besides the key or session (e.g. `accept-encoding`, as browsers and `fetch` send it). */
  headers?: Record<string, string>;
}

interface Row {
  scale: number;
  route: Route;
  conns: number;
  result: CaseResult;
  serviceMsPerReq: number;
  pgMsPerReq: number;
  rss: number;
  /** The service died under this route's load (and was restarted for the next). */
  died?: boolean;
}

interface ScaleRun {
  players: number;
  values: number;
  rows: Row[];
  seedSeconds: number;
  /** Seconds from the service's start until every board the routes read answered from memory (null: not asked). */
  boardsSeconds: number | null;
  peakRss: number;
  storage: Storage[];
  explained: { what: string; ms: number }[];
  switches: Switched[];
  miss: MissRun | null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (up to 60 s) until the process uses under a fifth of a core over a quarter of a second. */
async function settle(pid: number): Promise<void> {
  const deadline = performance.now() + 60_000;
  let before = cpuSeconds(pid) ?? 0;
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpuSeconds(pid);
    if (now === null || now - before < 0.05) return;
    before = now;
  }
  log(`  ! the service was still busy 60 s after the load stopped`);
}

function pick<T>(xs: readonly T[], n: number): T[] {
  return Array.from({ length: n }, () => xs[randomInt(xs.length)]!);
}

/** Substrings of 4 characters of existing names: a search that finds a few players. */
function searchTerms(names: string[]): string[] {
  return pick(names, 200).map((n) => {
    const at = randomInt(Math.max(1, n.length - 3));
    return n.slice(at, at + 4);
  });
}

/** Bare node:http (bench/reads/bare.ts) answering a body as large as the service's answer at `url`. */
async function startBare(url: string, headers: Record<string, string>, cpus?: string): Promise<RunningServer> {
  const res = await fetch(url, { headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  return startServer('bench/reads/bare.ts', { BODY_BYTES: String(bytes) }, '/', 10_000, cpus);
}

/** A rank read answered from a board in memory: a binary search and a short index read, well under this. */
const FROM_MEMORY_MS = 8;
/** The longest the bench waits for the boards (then it measures whatever is loaded, and says so in the log). */
const BOARDS_WAIT_MS = 300_000;

/**
 * Asks every board (`stats` of season s1) for the rank of a random player, over and over at one connection,
 * until each has answered under FROM_MEMORY_MS twice in a row (a board not yet in memory is a query over its
 * index, or waits for its load); returns the seconds since the service started.
 */
async function loadBoards(
  url: string,
  headers: Record<string, string>,
  stats: string[],
  uuids: string[],
  startedAt: number,
): Promise<number> {
  const streak = new Map(stats.map((k) => [k, 0]));
  const deadline = performance.now() + BOARDS_WAIT_MS;
  while (streak.size > 0 && performance.now() < deadline) {
    for (const [k, n] of streak) {
      const player = uuids[randomInt(uuids.length)]!;
      const t0 = performance.now();
      const res = await fetch(
        `${url}/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(k)}&player=${player}&around=5`,
        { headers },
      );
      await res.arrayBuffer();
      const fast = res.ok && performance.now() - t0 < FROM_MEMORY_MS;
      if (fast && n + 1 >= 2) streak.delete(k);
      else streak.set(k, fast ? n + 1 : 0);
    }
    if (streak.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
  if (streak.size > 0) log(`  ! ${streak.size} rank boards still answered by queries after ${BOARDS_WAIT_MS / 1000} s`);
  const seconds = (performance.now() - startedAt) / 1000;
  log(`  rank boards of ${stats.length} statistics answer from memory ${seconds.toFixed(0)} s after the start`);
  return seconds;
}

/** A sampled player and the servers the player has values on. */
interface Homed {
  uuid: string;
  servers: string[];
}

function routes(
  players: number,
  uuids: string[],
  names: string[],
  historyUuids: string[],
  keys: string[],
  homed: Homed[],
  servers: string[],
): Route[] {
  const u = pick(uuids, 2_000);
  // `server=` of one of the two servers, alternately; a player's values and rank on a server the player plays on.
  const onServer = pick(homed, 2_000).map((h, i) => ({ uuid: h.uuid, server: h.servers[i % h.servers.length]! }));
  const stat = (n: number) => pick(keys.slice(0, valuesPerPlayer(players)), n).map(encodeURIComponent);
  const hist = keys.slice(0, HISTORY_STATS).map(encodeURIComponent);
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const from29 = new Date(Date.now() - 29 * 86_400_000).toISOString();
  const maxOffset = Math.min(10_000, players - 100);
  return [
    {
      name: '`/players` pages 1–100 (50 per page)',
      kind: 'key',
      paths: Array.from({ length: 100 }, (_, i) => `/api/v1/players?page=${i + 1}&per_page=50`),
    },
    {
      name: '`/players?search=` (4 characters of a name)',
      kind: 'key',
      paths: searchTerms(names).map((t) => `/api/v1/players?search=${encodeURIComponent(t)}`),
    },
    {
      name: '`/players?username=`',
      kind: 'key',
      paths: pick(names, 500).map((n) => `/api/v1/players?username=${encodeURIComponent(n)}`),
    },
    { name: '`/players/{uuid}`', kind: 'key', paths: u.map((x) => `/api/v1/players/${x}`) },
    {
      name: '`/players/{uuid}/stats`',
      kind: 'key',
      paths: u.map((x) => `/api/v1/players/${x}/stats`),
    },
    {
      name: '`/players/{uuid}/stats/history` (30 days)',
      kind: 'key',
      paths: pick(historyUuids, 500).map(
        (x, i) =>
          `/api/v1/players/${x}/stats/history?stat=${hist[i % hist.length]}&from=${encodeURIComponent(from)}&interval=day`,
      ),
    },
    {
      name: '`/leaderboards` top 10',
      kind: 'key',
      paths: stat(200).map((k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=10`),
    },
    {
      name: '`/leaderboards` top 100',
      kind: 'key',
      paths: stat(200).map((k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=100`),
    },
    {
      name: `\`/leaderboards\` 100 with \`offset\` 100–${fmtInt(maxOffset)}`,
      kind: 'key',
      paths: stat(500).map(
        (k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=100&offset=${100 + randomInt(maxOffset - 99)}`,
      ),
    },
    {
      name: '`/leaderboards/rank` with `around=5`',
      kind: 'key',
      paths: stat(2_000).map((k, i) => `/api/v1/leaderboards/rank?season=s1&stat=${k}&player=${u[i]}&around=5`),
    },
    {
      name: '`/leaderboards` top 10, `server=` (either server)',
      kind: 'key',
      paths: stat(200).map((k, i) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=10&server=${servers[i % 2]}`),
    },
    {
      name: `\`/leaderboards\` 100 with \`offset\` 100–${fmtInt(maxOffset)}, \`server=\` (either server)`,
      kind: 'key',
      paths: stat(500).map(
        (k, i) =>
          `/api/v1/leaderboards?season=s1&stat=${k}&limit=100&offset=${100 + randomInt(maxOffset - 99)}&server=${servers[i % 2]}`,
      ),
    },
    {
      name: '`/players/{uuid}/stats`, `server=` (a server the player plays on)',
      kind: 'key',
      paths: onServer.map((x) => `/api/v1/players/${x.uuid}/stats?server=${x.server}`),
    },
    {
      name: '`/leaderboards/rank` with `around=5`, `server=` (a server the player plays on)',
      kind: 'key',
      paths: stat(2_000).map(
        (k, i) =>
          `/api/v1/leaderboards/rank?season=s1&stat=${k}&player=${onServer[i]!.uuid}&around=5&server=${onServer[i]!.server}`,
      ),
    },
    { name: `\`/online\` (${fmtInt(ONLINE)} online)`, kind: 'large', paths: ['/api/v1/online'] },
    {
      name: "bare node:http, a fixed answer of `/online`'s size (reference for the body size alone)",
      kind: 'reference',
      paths: ['/'],
      bareOf: '/api/v1/online',
    },
    {
      name: `\`/online\` (${fmtInt(ONLINE)} online), gzip accepted (browsers, \`fetch\`)`,
      kind: 'large',
      paths: ['/api/v1/online'],
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    },
    { name: '`/seasons`', kind: 'key', paths: ['/api/v1/seasons'] },
    { name: '`/stats` (100 definitions)', kind: 'key', paths: ['/api/v1/stats'] },
    { name: 'admin `/players` (500 rows)', kind: 'large', admin: true, paths: ['/api/v1/admin/players'] },
    {
      name: 'admin `/players?search=`',
      kind: 'admin',
      admin: true,
      paths: searchTerms(names).map((t) => `/api/v1/admin/players?search=${encodeURIComponent(t)}`),
    },
    { name: `admin \`/api-keys\` (${KEYS + 2} keys)`, kind: 'admin', admin: true, paths: ['/api/v1/admin/api-keys'] },
    {
      name: `admin \`/audit-log\` pages 1–100 (${fmtInt(AUDIT_ROWS)} entries)`,
      kind: 'admin',
      admin: true,
      paths: Array.from({ length: 100 }, (_, i) => `/api/v1/admin/audit-log?page=${i + 1}&per_page=50`),
    },
    {
      name: 'admin `/ingest/rejections` pages 1–20',
      kind: 'admin',
      admin: true,
      paths: Array.from({ length: 20 }, (_, i) => `/api/v1/admin/ingest/rejections?page=${i + 1}&per_page=50`),
    },
    {
      name: "admin `/activity` (24 hours by hour: the console's overview)",
      kind: 'admin',
      admin: true,
      paths: ['/api/v1/admin/activity?interval=hour'],
    },
    {
      name: 'admin `/activity` (30 days by day)',
      kind: 'admin',
      admin: true,
      paths: [`/api/v1/admin/activity?interval=day&from=${encodeURIComponent(from29)}`],
    },
    // The season switched to `gains` for these (the switch itself is timed: `switchScoring`), then back.
    {
      name: '`/leaderboards` top 10, `gains` season',
      kind: 'key',
      scoring: 'gains',
      paths: stat(200).map((k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=10`),
    },
    {
      name: '`/leaderboards` top 100, `gains` season',
      kind: 'key',
      scoring: 'gains',
      paths: stat(200).map((k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=100`),
    },
    {
      name: `\`/leaderboards\` 100 with \`offset\` 100–${fmtInt(maxOffset)}, \`gains\` season`,
      kind: 'key',
      scoring: 'gains',
      paths: stat(500).map(
        (k) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=100&offset=${100 + randomInt(maxOffset - 99)}`,
      ),
    },
    {
      name: '`/leaderboards/rank` with `around=5`, `gains` season',
      kind: 'key',
      scoring: 'gains',
      paths: stat(2_000).map((k, i) => `/api/v1/leaderboards/rank?season=s1&stat=${k}&player=${u[i]}&around=5`),
    },
    {
      name: '`/players/{uuid}/stats`, `gains` season',
      kind: 'key',
      scoring: 'gains',
      paths: u.map((x) => `/api/v1/players/${x}/stats`),
    },
    {
      name: '`/leaderboards` top 10, `gains` season, `server=` (either server)',
      kind: 'key',
      scoring: 'gains',
      paths: stat(200).map((k, i) => `/api/v1/leaderboards?season=s1&stat=${k}&limit=10&server=${servers[i % 2]}`),
    },
  ];
}

/** EXPLAIN ANALYZE of the statements behind the routes whose cost grows with the players. */
async function explainAtScale(
  db: Db,
  ws: BenchWorkspace,
  uuid: string,
  statId: string,
  serverId: string,
): Promise<Explained[]> {
  const out: Explained[] = [];
  const explain = async (what: string, run: (q: Db) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      let ms = 0;
      const explaining = {
        ...db,
        async query<T>(sql: string, params?: readonly unknown[]) {
          const [row] = await db.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
            params,
          );
          ms = Math.max(ms, row?.['QUERY PLAN'][0]?.['Execution Time'] ?? 0);
          return [] as T[];
        },
      } as Db;
      await run(explaining);
      times.push(ms);
    }
    out.push({ what, ms: times.sort((a, b) => a - b)[2]! });
  };
  const base = { workspaceId: ws.workspaceId, username: null, onlyUuids: null, limit: 50, offset: 4950 };
  await explain('`/players` page 100: the page (slowest of its statements)', (q) =>
    listPublicPlayers(q, { ...base, search: null }),
  );
  await explain('`/players?search=` of 4 characters (slowest of its statements)', (q) =>
    listPublicPlayers(q, { ...base, search: 'a3f1', offset: 0 }),
  );
  await explain('`/leaderboards/rank` as a query (a board over RANK_CACHE_MB), a player mid-board', (q) =>
    rankWindow(q, {
      workspaceId: ws.workspaceId,
      seasonId: ws.seasonId,
      statId,
      order: 'desc',
      uuid,
      around: 5,
    }),
  );
  await explain("`/leaderboards?server=`: a server's board summed per player (read whole for each answer)", (q) =>
    serverBoardEntries(q, { seasonId: ws.seasonId, statId, servers: [serverId], onlyUuids: null }),
  );
  return out;
}

interface Explained {
  what: string;
  ms: number;
}

/** The top 10 of one board in each scoring (values, from SQL), to tell which scoring a read answered in. */
interface SwitchCheck {
  stat: string;
  top: Record<Scoring, number[]>;
  /** A player whose rank the first rank read after a switch asks for. */
  player: string;
}

/** One switch of s1's scoring, timed from outside. */
interface Switched {
  to: Scoring;
  /** PUT /admin/seasons/{id}: the request to its answer. */
  putMs: number;
  /** The first top-10 read after the PUT answered. */
  firstMs: number;
  /** Whether that first read already answered in the new scoring's order. */
  firstNew: boolean;
  /** From the PUT's answer to the first read in the new order (null: none within SWITCH_WAIT_MS). */
  untilMs: number | null;
  /** The first rank read (`around=5`) after it. */
  rankMs: number;
}

const SWITCH_WAIT_MS = 30_000;
const SWITCH_TARGET_MS = 1_000;

const sameValues = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The board whose top 10 differs most plainly between the two scorings (largest values, different orders), with
 * both tops as the service would rank them (public players, by the scoring's column).
 */
async function switchCheck(db: Db, ws: BenchWorkspace, keys: string[], player: string): Promise<SwitchCheck> {
  let best: SwitchCheck | null = null;
  for (const k of keys) {
    const [r] = await db.query<{ absolute: number[]; gains: number[] }>(
      `SELECT
         array(SELECT s.value FROM player_stats s JOIN players p ON p.id = s.player_id
               WHERE s.season_id = $1 AND s.stat_id = d.id AND p.public ORDER BY s.value DESC LIMIT 10) AS absolute,
         array(SELECT s.gain FROM player_stats s JOIN players p ON p.id = s.player_id
               WHERE s.season_id = $1 AND s.stat_id = d.id AND p.public ORDER BY s.gain DESC LIMIT 10) AS gains
       FROM stat_definitions d WHERE d.workspace_id = $2 AND d.key = $3`,
      [ws.seasonId, ws.workspaceId, k],
    );
    if (!r || sameValues(r.absolute, r.gains)) continue;
    if (!best || (r.absolute[0] ?? 0) > (best.top.absolute[0] ?? 0)) {
      best = { stat: k, top: { absolute: r.absolute.map(Number), gains: r.gains.map(Number) }, player };
    }
  }
  if (!best) throw new Error('no board whose top 10 differs between the scorings');
  return best;
}

/**
 * Switches season s1 to `to` through PUT /admin/seasons/{id} (an owner's session, as the console does), after
 * one read of the check board's top 10 in the scoring before (so its answer is cached, as a busy board's is);
 * then reads that top 10 until it answers in the new order, and one rank.
 */
async function switchScoring(
  url: string,
  keyAuth: Record<string, string>,
  adminAuth: Record<string, string>,
  seasonId: string,
  to: Scoring,
  check: SwitchCheck,
): Promise<Switched> {
  const top = `${url}/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(check.stat)}&limit=10`;
  const read = async () => {
    const t = performance.now();
    const res = await fetch(top, { headers: keyAuth });
    const body = (await res.json()) as { entries?: { value: number }[] };
    const at = performance.now();
    return { ms: at - t, at, values: (body.entries ?? []).map((e) => e.value) };
  };
  const from: Scoring = to === 'gains' ? 'absolute' : 'gains';
  const before = await read();
  if (!sameValues(before.values, check.top[from])) {
    log(`  ! top 10 of ${check.stat} before the switch to ${to}: ${before.values} (expected ${check.top[from]})`);
  }
  const t0 = performance.now();
  const res = await fetch(`${url}/api/v1/admin/seasons/${seasonId}`, {
    method: 'PUT',
    headers: { ...adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ scoring: to }),
  });
  if (!res.ok) throw new Error(`switch to ${to}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
  const t1 = performance.now();
  const first = await read();
  let last = first;
  while (!sameValues(last.values, check.top[to]) && performance.now() - t1 < SWITCH_WAIT_MS) {
    await new Promise((r) => setTimeout(r, 10));
    last = await read();
  }
  const newOrder = sameValues(last.values, check.top[to]);
  const t2 = performance.now();
  const rank = await fetch(
    `${url}/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(check.stat)}&player=${check.player}&around=5`,
    { headers: keyAuth },
  );
  await rank.arrayBuffer();
  const out: Switched = {
    to,
    putMs: t1 - t0,
    firstMs: first.ms,
    firstNew: sameValues(first.values, check.top[to]),
    untilMs: newOrder ? last.at - t1 : null,
    rankMs: performance.now() - t2,
  };
  log(
    `  switch to ${to}: PUT ${fmtMs(out.putMs)} ms, first top-10 read ${fmtMs(out.firstMs)} ms ` +
      `(${out.firstNew ? 'new order' : 'OLD order'}), new order after ${out.untilMs === null ? 'never' : `${fmtMs(out.untilMs)} ms`}, ` +
      `first rank read ${fmtMs(out.rankMs)} ms`,
  );
  return out;
}

/** The plain table of the cache-miss reference: keyed (season, player, statistic), the network values. */
const PLAIN_TABLE = 'bench_plain_stats';
/** Rounds of the cache-miss comparison, each a fresh pool of players for both (BENCH_MISS_ROUNDS). */
const MISS_ROUNDS = Number(process.env.BENCH_MISS_ROUNDS ?? 3);
/** Players per round: a round of a few seconds reads most of them once. */
const MISS_POOL = 100_000;
const MISS_TARGET = 0.7;

interface MissRound {
  service: CaseResult;
  plain: CaseResult;
}

interface MissRun {
  /** Players in each round's pool. */
  pool: number;
  tableSeconds: number;
  rounds: MissRound[];
  conns: number;
}

/** `CREATE TABLE … AS SELECT` of every network value, with its key; seconds. */
async function buildPlainTable(url: string): Promise<number> {
  const t0 = performance.now();
  const db = await openTarget({ url });
  try {
    await db.query(
      `CREATE TABLE ${PLAIN_TABLE} AS
       SELECT ps.season_id, p.uuid AS player, d.key AS stat, ps.value
       FROM player_stats ps JOIN players p ON p.id = ps.player_id JOIN stat_definitions d ON d.id = ps.stat_id`,
    );
    await db.query(`ALTER TABLE ${PLAIN_TABLE} ADD PRIMARY KEY (season_id, player, stat)`);
    await db.query(`VACUUM ANALYZE ${PLAIN_TABLE}`);
  } finally {
    await db.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  log(`  plain table (season, player, statistic) built in ${seconds.toFixed(0)} s`);
  return seconds;
}

/**
 * A random player's values when the cache misses: `GET /players/{uuid}/stats` of players drawn from the whole
 * network (a fresh pool each round, so the service's PLAYER_CACHE_MB holds few of them) against plain-reads.ts's
 * one `pg` query of the same rows from the plain table, same paths, connections and pinning, in interleaved
 * rounds (the order alternating).
 */
async function missComparison(
  url: string,
  svc: RunningServer,
  ws: BenchWorkspace,
  keyAuth: Record<string, string>,
  pin: ReturnType<typeof pinForReads>,
): Promise<MissRun> {
  const tableSeconds = await buildPlainTable(url);
  const db = await openTarget({ url });
  let drawn: string[];
  try {
    drawn = (
      await db.query<{ uuid: string }>('SELECT uuid FROM players WHERE public ORDER BY random() LIMIT $1', [
        (MISS_ROUNDS + 1) * MISS_POOL,
      ])
    ).map((r) => r.uuid);
  } finally {
    await db.close();
  }
  const pool = Math.min(MISS_POOL, drawn.length);
  // Round i reads the i-th slice of the draw (the same players again on a small network); the last, the warm-up's.
  const paths = (i: number) =>
    Array.from({ length: pool }, (_, j) => `/api/v1/players/${drawn[(i * pool + j) % drawn.length]}/stats`);
  const plain = await startServer(
    'bench/scale/plain-reads.ts',
    {
      DATABASE_URL: url,
      PLAIN_TABLE,
      SEASON_ID: ws.seasonId,
      POOL_SIZE: String(loadConfig({}).databasePoolSize),
    },
    '/',
    10_000,
    pin?.server,
  );
  const conns = Math.max(...CONCURRENCIES);
  try {
    const load = (target: RunningServer, p: string[], seconds: number) =>
      getLoad({ url: target.url, connections: conns, seconds, headers: keyAuth, paths: p });
    if (WARMUP > 0) {
      for (const target of [svc, plain]) await load(target, paths(MISS_ROUNDS), WARMUP);
    }
    const rounds: MissRound[] = [];
    for (let i = 0; i < MISS_ROUNDS; i++) {
      const p = paths(i);
      const order = i % 2 === 0 ? [svc, plain] : [plain, svc];
      const results = new Map<RunningServer, CaseResult>();
      for (const target of order) results.set(target, await load(target, p, SECONDS));
      const round = { service: results.get(svc)!, plain: results.get(plain)! };
      for (const [what, r] of [
        ['service', round.service],
        ['plain pg', round.plain],
      ] as const) {
        if (r.failed > 0) log(`  ! cache miss, ${what}: ${r.failed} errors or answers of 400 or more`);
      }
      log(
        `  cache miss round ${i + 1}: service ${fmtInt(round.service.perSecond)} req/s (p99 ${fmtMs(round.service.p99)} ms), ` +
          `plain pg ${fmtInt(round.plain.perSecond)} req/s (p99 ${fmtMs(round.plain.p99)} ms): ` +
          `${(round.service.perSecond / round.plain.perSecond).toFixed(2)}x`,
      );
      rounds.push(round);
    }
    return { pool, tableSeconds, rounds, conns };
  } finally {
    await plain.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function runScale(players: number, pin: ReturnType<typeof pinForReads>): Promise<ScaleRun> {
  const values = valuesPerPlayer(players);
  const keys = STAT_KEYS.slice(0, STATS);
  const scratch = await createDatabase('statboard_bench_scale');
  const backends = new BackendPids(scratch.name);
  let service: RunningServer | null = null;
  try {
    log(`${fmtInt(players)} players × ${values} values: seeding`);
    const t0 = performance.now();
    let uuids: string[] = [];
    let names: string[] = [];
    let historyUuids: string[] = [];
    let cookie = '';
    let st: Storage[] = [];
    let explained: Explained[] = [];
    let servers: string[] = [];
    let homed: Homed[] = [];
    let check: SwitchCheck | null = null;
    const ws = await seedStatboard({ url: scratch.url }, async (db, w) => {
      servers = await seed(db, w, players, values, keys);
      const sample = await db.query<{ uuid: string; username: string; servers: string[] }>(
        `SELECT p.uuid, p.username,
           array(SELECT DISTINCT s.server_id::text FROM server_stats s WHERE s.player_id = p.id) AS servers
         FROM (SELECT id, uuid, username FROM players WHERE public ORDER BY random() LIMIT 5000) p`,
      );
      uuids = sample.map((r) => r.uuid);
      names = sample.map((r) => r.username);
      homed = sample.filter((r) => r.servers.length > 0);
      log(
        `  of ${sample.length} players sampled, ${sample.filter((r) => r.servers.length === 2).length} play on both servers`,
      );
      check = await switchCheck(db, w, keys.slice(0, values), uuids[0]!);
      historyUuids = (
        await db.query<{ uuid: string }>(
          'SELECT uuid FROM players WHERE workspace_id = $1 AND public ORDER BY id LIMIT $2',
          [w.workspaceId, HISTORY_PLAYERS],
        )
      ).map((r) => r.uuid);
      st = await storage(db);
      const [mid] = await db.query<{ id: string }>('SELECT id FROM stat_definitions WHERE key = $1', [keys[0]]);
      explained = await explainAtScale(db, w, uuids[0]!, mid!.id, servers[0]!);
    });
    // An owner signed in: the admin reads' cookie.
    {
      const db = await openTarget({ url: scratch.url });
      try {
        const services = buildServices(db, loadConfig({}));
        const user = await services.users.upsertFromLogin(
          {
            issuer: 'https://idp.example',
            subject: 'owner',
            email: 'owner@example.com',
            emailVerified: true,
            displayName: 'Owner',
          },
          new Date(),
        );
        await db.transaction((tx) => services.users.addOwner(tx, ws.workspaceId, user.id));
        cookie = `statboard_session=${(await services.sessions.create(user.id)).id}`;
      } finally {
        await db.close();
      }
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    log(`seeded in ${seedSeconds.toFixed(0)} s`);
    const logFile = join(tmpdir(), `statboard-bench-scale-${process.pid}.log`);
    const startedAt = performance.now();
    const start = () =>
      startServer(SERVICE_SCRIPT, serviceEnv({ url: scratch.url }), READY_PATH, 60_000, pin?.server, logFile);
    service = await start();
    let svc: RunningServer = service;
    let peak = new RssSampler(svc.pid);
    /** The peak RSS of services that died (restarted after a route that killed one: see below). */
    let diedPeak = 0;
    const keyAuth = { authorization: `Bearer ${ws.websiteToken}` };
    const adminAuth = { cookie };
    const all = routes(players, uuids, names, historyUuids, keys, homed, servers).filter(
      (r) => !ROUTES || ROUTES.test(r.name),
    );
    for (const r of all) {
      const res = await fetch(svc.url + (r.bareOf ?? r.paths[0]), { headers: r.admin ? adminAuth : keyAuth });
      if (!res.ok) throw new Error(`${r.name}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
    }
    // Rank boards are read into memory in the background after a start, one at a time; the table measures them
    // loaded, and the time that took is reported beside the seed.
    const boardsSeconds = all.some((r) => r.name.includes('leaderboards') && /offset|rank/.test(r.name))
      ? await loadBoards(svc.url, keyAuth, keys.slice(0, valuesPerPlayer(players)), uuids, startedAt)
      : null;
    const rows: Row[] = [];
    // Switches of s1's scoring: before the first `gains` route, and back after them (both directions are measured
    // even when no `gains` route runs).
    const switches: Switched[] = [];
    let scoring: Scoring = 'absolute';
    const switchTo = async (to: Scoring) => {
      switches.push(await switchScoring(svc.url, keyAuth, adminAuth, ws.seasonId, to, check!));
      scoring = to;
    };
    for (const r of all) {
      if ((r.scoring ?? 'absolute') !== scoring) await switchTo(r.scoring ?? 'absolute');
      const headers = { ...(r.admin ? adminAuth : keyAuth), ...r.headers };
      const bare = r.bareOf ? await startBare(svc.url + r.bareOf, keyAuth, pin?.server) : null;
      const target = bare ?? svc;
      if (WARMUP > 0) {
        await getLoad({
          url: target.url,
          connections: Math.max(...CONCURRENCIES),
          seconds: WARMUP,
          headers,
          paths: r.paths,
        });
      }
      for (const conns of CONCURRENCIES) {
        const procCpu = new CpuMeter(() => [target.pid]);
        const pgCpu = new CpuMeter(() => (bare ? [] : backends.list()));
        await procCpu.start();
        await pgCpu.start();
        const rss = new RssSampler(target.pid);
        const result = await getLoad({
          url: target.url,
          connections: conns,
          seconds: SECONDS,
          headers,
          paths: r.paths,
        });
        const n = Math.max(1, result.ok + result.failed);
        const row: Row = {
          scale: players,
          route: r,
          conns,
          result,
          serviceMsPerReq: ((await procCpu.stop()) * 1000) / n,
          pgMsPerReq: ((await pgCpu.stop()) * 1000) / n,
          rss: rss.stop(),
        };
        if (result.failed > 0) log(`  ! ${r.name}: ${result.failed} errors or answers of 400 or more`);
        log(
          `  ${r.name} @${conns}: ${fmtInt(result.perSecond)} req/s, p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99)} ms, ` +
            `${row.serviceMsPerReq.toFixed(2)}/${row.pgMsPerReq.toFixed(2)} ms CPU, RSS ${(row.rss / 2 ** 20).toFixed(0)} MB`,
        );
        rows.push(row);
      }
      await bare?.stop();
      // A route that the service cannot keep up with (e.g. reads that sum a whole board per request) leaves it
      // working on the requests still queued when the load stopped, or kills it: the next route starts once it is
      // idle, or on a new one (the rows say so).
      if (!bare && !alive(svc.pid)) {
        log(`  ! the service died during ${r.name}: restarted`);
        for (const row of rows) if (row.route === r) row.died = true;
        diedPeak = Math.max(diedPeak, peak.stop());
        service = svc = await start();
        peak = new RssSampler(svc.pid);
      } else if (!bare) {
        await settle(svc.pid);
      }
    }
    if (scoring === 'absolute') await switchTo('gains');
    await switchTo('absolute');
    const miss = !ROUTES || ROUTES.test('cache miss') ? await missComparison(scratch.url, svc, ws, keyAuth, pin) : null;
    const peakRss = Math.max(diedPeak, peak.stop());
    return { players, values, rows, seedSeconds, boardsSeconds, peakRss, storage: st, explained, switches, miss };
  } finally {
    await service?.stop();
    await backends.close();
    // BENCH_KEEP_DB=1 keeps the seeded database (its name is logged) to look into a plan.
    if (process.env.BENCH_KEEP_DB === '1') log(`kept ${scratch.url}`);
    else await scratch.drop();
  }
}

/** The embedded database's bytes per row: the same seed in PGlite, on disk. */
async function pgliteStorage(players: number): Promise<{ storage: Storage[]; seconds: number; values: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'statboard-bench-scale-pglite-'));
  const values = 5;
  try {
    const t0 = performance.now();
    let st: Storage[] = [];
    await seedStatboard({ dataDir: dir }, async (db, ws) => {
      await seed(db, ws, players, values, STAT_KEYS.slice(0, STATS));
      await db.query('CHECKPOINT');
      st = await storage(db);
    });
    return { storage: st, seconds: (performance.now() - t0) / 1000, values };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;

/** Switching season s1's scoring, both directions, at each size: the target is the first read's. */
function switchReport(runs: ScaleRun[]): string[] {
  const rows = runs.flatMap((r) =>
    r.switches.map((x) => {
      const met = x.firstNew && x.firstMs < SWITCH_TARGET_MS;
      return [
        fmtInt(r.players),
        x.to === 'gains' ? '`absolute` → `gains`' : '`gains` → `absolute`',
        fmtMs(x.putMs),
        `**${fmtMs(x.firstMs)}**`,
        x.firstNew ? 'yes' : '**no**',
        x.untilMs === null ? `not within ${SWITCH_WAIT_MS / 1000} s` : fmtMs(x.untilMs),
        fmtMs(x.rankMs),
        met ? 'yes' : '**no**',
      ];
    }),
  );
  if (rows.length === 0) return [];
  return [
    `Switching a season's scoring (season s1, every player's values): PUT /admin/seasons/{id} with \`{"scoring": …}\` and an owner's session, after one read of a top 10 in the scoring before (its answer cached, as a busy board's is); then that top 10 read at one connection until it answers in the new scoring's order (its values compared with the order SQL gives), and one \`/leaderboards/rank\` read. Target: the first read after the switch answers in the new order in < ${fmtInt(SWITCH_TARGET_MS)} ms, at 1,000,000 players.`,
    '',
    table(
      [
        'players',
        'switch',
        'PUT ms',
        'first top-10 read ms',
        'in the new order?',
        'new order after ms (from the PUT’s answer)',
        'first rank read ms',
        'target met?',
      ],
      rows,
    ),
    '',
  ];
}

/** A random player's values when the cache misses, against a plain `pg` query of the same rows. */
function missReport(runs: ScaleRun[]): string[] {
  const measured = runs.filter((r) => r.miss !== null);
  if (measured.length === 0) return [];
  const m0 = measured[0]!.miss!;
  return [
    `A random player's values when the cache misses: \`GET /players/{uuid}/stats\` (the active season, network totals) of players drawn at random from the whole network, a fresh pool of up to ${fmtInt(MISS_POOL)} players each round (so the service, at its default PLAYER_CACHE_MB ${DEFAULT_PLAYER_CACHE_MB}, answers nearly every read with a query; at the smaller sizes the pool is every player, and some reads hit), against bench/scale/plain-reads.ts: bare node:http answering the same paths with one \`pg\` query (a pool of the service's DATABASE_POOL_SIZE) of the player's rows from a plain table keyed (season, player, statistic) — \`CREATE TABLE … AS SELECT\` of every network value (season id, the player's game UUID, the statistic's key, the value) with that primary key, in the same database — as JSON. Both pinned to the service's core, the same paths and ${m0.conns} connections, ${MISS_ROUNDS} interleaved rounds of ${SECONDS} s (the order alternating) after ${WARMUP} s of each on another pool; req/s and p99 are the rounds' medians. Target: the service ≥ ${MISS_TARGET}x of the plain query's req/s at 1,000,000 players.`,
    '',
    table(
      [
        'players',
        'players per round',
        'service req/s',
        'service p99 ms',
        'plain `pg` req/s',
        'plain p99 ms',
        'rounds (service / plain)',
        'ratio',
        'target met?',
        'plain table built in',
      ],
      measured.map((r) => {
        const m = r.miss!;
        const ratio = median(m.rounds.map((x) => x.service.perSecond)) / median(m.rounds.map((x) => x.plain.perSecond));
        return [
          fmtInt(r.players),
          fmtInt(m.pool),
          fmtInt(median(m.rounds.map((x) => x.service.perSecond))),
          fmtMs(median(m.rounds.map((x) => x.service.p99))),
          fmtInt(median(m.rounds.map((x) => x.plain.perSecond))),
          fmtMs(median(m.rounds.map((x) => x.plain.p99))),
          m.rounds.map((x) => (x.service.perSecond / x.plain.perSecond).toFixed(2)).join(', '),
          `**${ratio.toFixed(2)}x**`,
          ratio >= MISS_TARGET ? 'yes' : '**no**',
          `${m.tableSeconds.toFixed(0)} s`,
        ];
      }),
    ),
    '',
  ];
}

function report(runs: ScaleRun[], machine: string): string {
  const out: string[] = [machine, ''];
  out.push(
    `\`npm run bench:scale\`. For each network size, a database seeded with SQL (two servers, half the players on both and a quarter on each alone; each value kept per server, \`server_stats\`, with the network total as their sum in \`player_stats\`, and with its gain since the season began as the writer keeps it: a random part of the value, split between the servers as the value is, baseline = value − gain; players with names of 6–13 characters, 0.1 % hidden, as players who opted out; ${STATS} statistics defined, values skewed with ties; a game session of an hour and an event per player (within the last 30 days), ${fmtInt(ONLINE)} players online; ${fmtInt(HISTORY_PLAYERS)} players × ${HISTORY_STATS} statistics × ${HISTORY_DAYS} daily history points; ${fmtInt(AUDIT_ROWS)} audit entries; ${KEYS + 2} API keys; 1,000 rejection buckets; 30 days of hourly activity), then the service started with its defaults (PLAYER_CACHE_MB ${DEFAULT_PLAYER_CACHE_MB}, RANK_CACHE_MB ${DEFAULT_RANK_CACHE_MB}, the access log on, written to a file; only the per-key rate limit raised above the load). Each route: ${WARMUP} s of load at 32 connections, then ${SECONDS} s at each of ${CONCURRENCIES.join(' and ')} connections (${WRK_NOTE}); each request picks a path from a pool of random players, statistics, pages, search terms. Rank boards load in the background after a start, one at a time: before the routes, the bench asks every board for the rank of a random player at one connection until each answers from memory (under ${FROM_MEMORY_MS} ms twice in a row), and reports when that was ("rank boards in memory after the start", below). Key routes use a website key with every read scope, admin routes an owner's session. \`server=\` routes name either server (a player's values and rank: a server the player plays on); the \`gains\` routes run with season s1 switched to \`gains\` (PUT /admin/seasons/{id}, timed below), which is switched back after them. The service pinned to one core, wrk to the other, PostgreSQL unpinned. "CPU ms/req": the service process / the PostgreSQL backends serving it, per request. Targets: key routes p99 < ${KEY_P99_MS} ms at 1,000,000 players and 32 connections and within 2x of their p99 at 10,000; large answers (admin players, 500 rows; \`/online\`, ${fmtInt(ONLINE)} players) < ${LARGE_P99_MS} ms; the service's peak RSS < ${RSS_TARGET_MB} MB through the whole run.`,
    '',
  );
  const header = ['route', 'conns'];
  for (const r of runs) header.push(`${fmtInt(r.players)}: p50 / p99 ms`, 'req/s', 'CPU ms/req');
  const lines: string[][] = [];
  const first = runs[0];
  if (first) {
    for (const [i, row] of first.rows.entries()) {
      const cells = [row.route.name, String(row.conns)];
      for (const r of runs) {
        const x = r.rows[i];
        if (!x) {
          cells.push('—', '—', '—');
          continue;
        }
        cells.push(
          x.died
            ? '**the service died**'
            : x.result.ok === 0
              ? `**none answered in ${SECONDS} s**`
              : `${fmtMs(x.result.p50)} / **${fmtMs(x.result.p99)}**`,
          fmtInt(x.result.perSecond),
          `${x.serviceMsPerReq.toFixed(2)} / ${x.pgMsPerReq.toFixed(2)}`,
        );
      }
      lines.push(cells);
    }
  }
  out.push(table(header, lines), '');
  out.push(
    table(
      [
        'players',
        'values per player',
        'stat rows',
        'seeded in',
        'rank boards in memory after the start',
        'service peak RSS (whole run)',
      ],
      runs.map((r) => [
        fmtInt(r.players),
        String(r.values),
        fmtInt(r.players * r.values),
        `${r.seedSeconds.toFixed(0)} s`,
        r.boardsSeconds === null ? '—' : `${r.boardsSeconds.toFixed(0)} s`,
        `**${mb(r.peakRss)}**`,
      ]),
    ),
    '',
  );
  // Verdicts at the largest scale against the smallest.
  const last = runs.at(-1);
  if (first && last && runs.length > 1) {
    const verdicts: string[] = [];
    for (const [i, row] of last.rows.entries()) {
      if (row.conns !== Math.max(...CONCURRENCIES)) continue;
      const small = first.rows[i]!;
      const limit = row.route.kind === 'large' ? LARGE_P99_MS : row.route.kind === 'key' ? KEY_P99_MS : null;
      const ratio = row.result.p99 / small.result.p99;
      // A route of which no request was answered within the load (or under which the service died) has no p99.
      const answered = row.result.ok > 0 && !row.died && small.result.ok > 0;
      const met =
        limit === null
          ? '—'
          : answered && row.result.p99 < limit && (row.route.kind !== 'key' || ratio <= 2)
            ? 'yes'
            : '**no**';
      verdicts.push(
        [row.route.name, fmtMs(small.result.p99), fmtMs(row.result.p99), `${ratio.toFixed(2)}x`, met].join(' | '),
      );
    }
    out.push(
      `p99 at 32 connections, ${fmtInt(first.players)} against ${fmtInt(last.players)} players:`,
      '',
      `| route | p99 at ${fmtInt(first.players)} | p99 at ${fmtInt(last.players)} | growth | target met? |`,
      '| --- | --- | --- | --- | --- |',
      ...verdicts.map((v) => `| ${v} |`),
      '',
    );
  }
  out.push(...switchReport(runs), ...missReport(runs));
  out.push('The statements behind the routes whose cost grows with the players (EXPLAIN ANALYZE, median of 5):', '');
  out.push(
    table(
      ['statement', ...runs.map((r) => `${fmtInt(r.players)} players, ms`)],
      (first?.explained ?? []).map((e, i) => [e.what, ...runs.map((r) => (r.explained[i]?.ms ?? 0).toFixed(2))]),
    ),
    '',
  );
  const storeRows: string[][] = [];
  for (const r of runs) {
    for (const s of r.storage) {
      storeRows.push([
        `PostgreSQL, ${fmtInt(r.players)} players`,
        s.what,
        fmtInt(s.rows),
        mb(s.bytes),
        s.rows > 0 ? fmtInt(s.bytes / s.rows) : '—',
      ]);
    }
  }
  out.push(
    'Storage: `pg_total_relation_size` (heap, TOAST, every index) after the seed and `VACUUM ANALYZE`, per row:',
    '',
    table(['database', 'row', 'rows', 'on disk', 'bytes per row'], storeRows),
  );
  return out.join('\n');
}

async function main(): Promise<void> {
  requireWrk('bench:scale');
  const machine = await machineLine();
  log(machine);
  const pin = pinForReads();
  log(pin ? `service on CPU ${pin.server}, wrk on ${pin.generator} (${CORES} cores)` : 'no CPU pinning');
  const runs: ScaleRun[] = [];
  for (const players of SCALES) runs.push(await runScale(players, pin));
  if (runs.length > 0) {
    const body = report(runs, machine);
    process.stdout.write(`${body}\n`);
    if (WRITE) await writeSection('## Statboard at scale', body);
  }
  if (PGLITE_PLAYERS > 0) {
    log(`PGlite: seeding ${fmtInt(PGLITE_PLAYERS)} players for the bytes per row`);
    const pglite = await pgliteStorage(PGLITE_PLAYERS);
    const body = [
      machine,
      '',
      `\`BENCH_SCALES= npm run bench:scale\`: the seed of "Statboard at scale" with ${fmtInt(PGLITE_PLAYERS)} players and ${pglite.values} values each, in the embedded database (PGlite, on disk), seeded in ${pglite.seconds.toFixed(0)} s; \`pg_total_relation_size\` (heap, TOAST, every index) after a checkpoint, per row:`,
      '',
      table(
        ['row', 'rows', 'on disk', 'bytes per row'],
        pglite.storage.map((s) => [s.what, fmtInt(s.rows), mb(s.bytes), s.rows > 0 ? fmtInt(s.bytes / s.rows) : '—']),
      ),
    ].join('\n');
    process.stdout.write(`${body}\n`);
    if (WRITE) await writeSection('## Statboard storage on the embedded database', body);
  }
}

await main();
