/**
 * Scale benchmark: every key read and the admin reads of the console at 10,000, 100,000 and 1,000,000 players
 * (seeded with SQL on PostgreSQL), p50 and p99 at 1 and 32 connections, the service with its defaults; the
 * service's peak RSS through the whole run; bytes on disk per stored value, history point, event and session.
 *
 *   npm run bench:scale                                   # writes "## Statboard at scale" of BENCHMARKS.md
 *   BENCH_SCALES=10000 BENCH_SECONDS=2 BENCH_WRITE=0 npm run bench:scale
 *   BENCH_SCALES= BENCH_PGLITE_PLAYERS=1000000 npm run bench:scale   # only the embedded database's bytes per row
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLAYER_CACHE_MB, DEFAULT_RANK_CACHE_MB } from '../../apps/statboard/src/config.ts';
import type { Db } from '../../apps/statboard/src/db/types.ts';
import { rankWindow } from '../../apps/statboard/src/modules/leaderboards/repo.ts';
import { listPublicPlayers } from '../../apps/statboard/src/modules/players/repo.ts';
import { type RunningServer, startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter, RssSampler } from '../lib/proc.ts';
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
 * The network, with SQL: players with names of 6–13 characters (0.1 % hidden), `values` values each (skewed, with
 * ties), a game session each (ONLINE of them online for the whole run), an event each, 30 daily history points
 * of HISTORY_STATS statistics for HISTORY_PLAYERS players, AUDIT_ROWS audit entries, KEYS API keys, rejections and
 * 30 days of hourly activity. Secondary indexes of the big tables are dropped for the load and re-created.
 */
async function seed(db: Db, ws: BenchWorkspace, players: number, values: number, keys: string[]): Promise<void> {
  const big = ['player_stats', 'players', 'events', 'game_sessions'];
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
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT $1, d.id, p.id, floor(power(random(), 3) * power(10, 1 + d.n % 6)),
       now() - random() * interval '30 days', now() - random() * interval '30 days'
     FROM (SELECT id, key, row_number() OVER (ORDER BY key) AS n FROM stat_definitions WHERE workspace_id = $2) d
     CROSS JOIN players p WHERE p.workspace_id = $2 AND d.key = ANY($3::text[])`,
    [ws.seasonId, ws.workspaceId, keys.slice(0, values)],
  );
  // A session each, of an hour, ended on one of the last 30 days; the first ONLINE players' open and heartbeated
  // into the future, so they stay online through the run.
  await db.query(
    `INSERT INTO game_sessions (workspace_id, player_id, session_id, server_id, season_id, mod_version, game_version,
       started_at, last_seen_at, ended_at)
     SELECT $1, p.id, gen_random_uuid(), $2, $3, '1.4.0', '1.21.1',
       CASE WHEN p.n <= $4 THEN now() - interval '1 hour' ELSE p.seen - interval '1 hour' END,
       CASE WHEN p.n <= $4 THEN now() + interval '1 day' ELSE p.seen END,
       CASE WHEN p.n <= $4 THEN NULL ELSE p.seen END
     FROM (SELECT id, row_number() OVER () AS n, now() - random() * interval '30 days' AS seen
           FROM players WHERE workspace_id = $1) p`,
    [ws.workspaceId, ws.serverId, ws.seasonId, ONLINE],
  );
  await db.query(
    `INSERT INTO events (workspace_id, id, player_id, session_id, server_id, season_id, type, occurred_at, payload,
       received_at)
     SELECT $1, gen_random_uuid(), p.id, gen_random_uuid(), $2, $3, 'mob_killed', now() - random() * interval '30 days',
       jsonb_build_object('mob', 'minecraft:zombie', 'weapon', 'minecraft:iron_sword', 'x', 120, 'y', 64, 'z', -33),
       now() - random() * interval '30 days'
     FROM players p WHERE p.workspace_id = $1`,
    [ws.workspaceId, ws.serverId, ws.seasonId],
  );
  await db.query(
    `INSERT INTO stat_history (player_id, season_id, stat_id, at, value)
     SELECT p.id, $2, d.id, date_trunc('day', now()) - g * interval '1 day', 1000 - g * 10
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
  for (const i of indexes) await db.query(i.def);
  // The counter of public players is kept by triggers, which the bulk load went through.
  for (const t of [...big, 'stat_definitions', 'stat_history', 'audit_log', 'api_keys']) {
    await db.query(`VACUUM ANALYZE ${t}`);
  }
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
    ['a stored value (`player_stats`)', 'player_stats'],
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

function routes(players: number, uuids: string[], names: string[], historyUuids: string[], keys: string[]): Route[] {
  const u = pick(uuids, 2_000);
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
  ];
}

/** EXPLAIN ANALYZE of the statements behind the routes whose cost grows with the players. */
async function explainAtScale(db: Db, ws: BenchWorkspace, uuid: string, statId: string): Promise<Explained[]> {
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
  return out;
}

interface Explained {
  what: string;
  ms: number;
}

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
    const ws = await seedStatboard({ url: scratch.url }, async (db, w) => {
      await seed(db, w, players, values, keys);
      const sample = await db.query<{ uuid: string; username: string }>(
        'SELECT uuid, username FROM players WHERE public ORDER BY random() LIMIT 5000',
      );
      uuids = sample.map((r) => r.uuid);
      names = sample.map((r) => r.username);
      historyUuids = (
        await db.query<{ uuid: string }>(
          'SELECT uuid FROM players WHERE workspace_id = $1 AND public ORDER BY id LIMIT $2',
          [w.workspaceId, HISTORY_PLAYERS],
        )
      ).map((r) => r.uuid);
      st = await storage(db);
      const [mid] = await db.query<{ id: string }>('SELECT id FROM stat_definitions WHERE key = $1', [keys[0]]);
      explained = await explainAtScale(db, w, uuids[0]!, mid!.id);
    });
    // An owner signed in: the admin reads' cookie.
    {
      const { buildServices } = await import('../../apps/statboard/src/services.ts');
      const { loadConfig } = await import('../../apps/statboard/src/config.ts');
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
    service = await startServer(
      SERVICE_SCRIPT,
      serviceEnv({ url: scratch.url }),
      READY_PATH,
      60_000,
      pin?.server,
      logFile,
    );
    const svc = service;
    const peak = new RssSampler(svc.pid);
    const keyAuth = { authorization: `Bearer ${ws.websiteToken}` };
    const adminAuth = { cookie };
    const all = routes(players, uuids, names, historyUuids, keys).filter((r) => !ROUTES || ROUTES.test(r.name));
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
    for (const r of all) {
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
    }
    const peakRss = peak.stop();
    return { players, values, rows, seedSeconds, boardsSeconds, peakRss, storage: st, explained };
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

function report(runs: ScaleRun[], machine: string): string {
  const out: string[] = [machine, ''];
  out.push(
    `\`npm run bench:scale\`. For each network size, a database seeded with SQL (players with names of 6–13 characters, 0.1 % hidden, as players who opted out; ${STATS} statistics defined, values skewed with ties; a game session of an hour and an event per player (within the last 30 days), ${fmtInt(ONLINE)} players online; ${fmtInt(HISTORY_PLAYERS)} players × ${HISTORY_STATS} statistics × ${HISTORY_DAYS} daily history points; ${fmtInt(AUDIT_ROWS)} audit entries; ${KEYS + 2} API keys; 1,000 rejection buckets; 30 days of hourly activity), then the service started with its defaults (PLAYER_CACHE_MB ${DEFAULT_PLAYER_CACHE_MB}, RANK_CACHE_MB ${DEFAULT_RANK_CACHE_MB}, the access log on, written to a file; only the per-key rate limit raised above the load). Each route: ${WARMUP} s of load at 32 connections, then ${SECONDS} s at each of ${CONCURRENCIES.join(' and ')} connections (${WRK_NOTE}); each request picks a path from a pool of random players, statistics, pages, search terms. Rank boards load in the background after a start, one at a time: before the routes, the bench asks every board for the rank of a random player at one connection until each answers from memory (under ${FROM_MEMORY_MS} ms twice in a row), and reports when that was ("rank boards in memory after the start", below). Key routes use a website key with every read scope, admin routes an owner's session. The service pinned to one core, wrk to the other, PostgreSQL unpinned. "CPU ms/req": the service process / the PostgreSQL backends serving it, per request. Targets: key routes p99 < ${KEY_P99_MS} ms at 1,000,000 players and 32 connections and within 2x of their p99 at 10,000; large answers (admin players, 500 rows; \`/online\`, ${fmtInt(ONLINE)} players) < ${LARGE_P99_MS} ms; the service's peak RSS < ${RSS_TARGET_MB} MB through the whole run.`,
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
          `${fmtMs(x.result.p50)} / **${fmtMs(x.result.p99)}**`,
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
      const met =
        limit === null ? '—' : row.result.p99 < limit && (row.route.kind !== 'key' || ratio <= 2) ? 'yes' : '**no**';
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
