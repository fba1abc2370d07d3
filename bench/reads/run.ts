/**
 * Reads benchmark: leaderboards and a player's statistics over 1 M stat rows (PostgreSQL), against a Fastify
 * hello-world in its own process measured in the same run.
 *
 *   npm run bench:reads                       # writes "## Statboard reads" of BENCHMARKS.md
 *   BENCH_SECONDS=10 BENCH_CONCURRENCY=1,16 BENCH_WRITE=0 npm run bench:reads
 */
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, Queryable } from '../../apps/statboard/src/db/types.ts';
import { topValues } from '../../apps/statboard/src/modules/leaderboards/repo.ts';
import { type RunningServer, startServer } from '../lib/child.ts';
import { type Pinning, pinForReads } from '../lib/cpus.ts';
import { getLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter, countOccurrences, RssSampler } from '../lib/proc.ts';
import { playerStats } from '../lib/raw-sql.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type BenchWorkspace, READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, fmtRatio, table } from '../lib/stats.ts';
import { randomInt, STAT_KEYS } from '../lib/traffic.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,32').split(',').map(Number);
const WRITE = process.env.BENCH_WRITE !== '0';
/** Rounds per concurrency: hello-world and every read back to back; each row is its round with the median ratio. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Seconds of load on each target before the first round (BENCH_WARMUP). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
/** The machine's CPUs, read before this process pins itself to the load generator's share. */
const CORES = availableParallelism();
const PLAYERS = 10_000;
const HOT_PLAYERS = 200;
const STATS = 100;
const P99_TARGET_MS = 5;
/** The player cache sized to hold every player's answer (~11 KB each with 100 values): the default holds fewer. */
const PLAYER_CACHE_MB = 128;
const RATIO_TARGET = 0.5;

function log(msg: string): void {
  process.stderr.write(`[bench:reads] ${msg}\n`);
}

/**
 * PLAYERS × STATS values in the active season, straight with SQL. Value ranges differ per statistic (from
 * 0–10, where nearly everyone ties, to 0–1,000,000) and are skewed to small values, so ties occur at the top
 * of some leaderboards and everywhere in the long tail. The secondary indexes of `player_stats` are dropped
 * for the load and re-created from their own definitions.
 */
async function seedValues(db: Db, ws: BenchWorkspace, keys: string[]): Promise<void> {
  await db.query(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
     SELECT $1, gen_random_uuid(), 'Player' || g, now() FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, PLAYERS],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category)
     SELECT $1, k, split_part(k, ':', 2) FROM unnest($2::text[]) k`,
    [ws.workspaceId, keys],
  );
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = 'player_stats' AND indexname NOT LIKE '%pkey'`,
  );
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT $1, d.id, p.id,
       floor(power(random(), 3) * power(10, 1 + d.n % 6)),
       now() - random() * interval '30 days', now() - random() * interval '30 days'
     FROM (SELECT id, row_number() OVER (ORDER BY key) AS n FROM stat_definitions WHERE workspace_id = $2) d
     CROSS JOIN players p WHERE p.workspace_id = $2`,
    [ws.seasonId, ws.workspaceId],
  );
  for (const i of indexes) await db.query(i.def);
  for (const t of ['player_stats', 'players', 'stat_definitions']) await db.query(`VACUUM ANALYZE ${t}`);
}

interface Explained {
  what: string;
  /** Median execution time reported by EXPLAIN ANALYZE, ms. */
  ms: number;
  rows: number;
}

/** The repos' own statements, prefixed with EXPLAIN ANALYZE: the database's share of one request. */
async function explainReads(db: Db, ws: BenchWorkspace): Promise<Explained[]> {
  let last: { ms: number; rows: number } = { ms: 0, rows: 0 };
  const explaining: Queryable = {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const [row] = await db.query<{ 'QUERY PLAN': { 'Execution Time': number; Plan: { 'Actual Rows': number } }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      const plan = row?.['QUERY PLAN'][0];
      last = { ms: plan?.['Execution Time'] ?? Number.NaN, rows: plan?.Plan['Actual Rows'] ?? 0 };
      return [] as T[];
    },
    exec: () => Promise.resolve(),
  };
  const median = async (run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await run();
      times.push(last.ms);
    }
    return { ms: times.sort((a, b) => a - b)[2]!, rows: last.rows };
  };
  // Value ranges go 10^(1 + n % 6) with n the key's position: the first key has 0–100, the fifth 0–1,000,000
  // and the sixth 0–10 (a whole tail of ties at the top).
  const defs = await db.query<{ id: string; key: string; n: number; ties: number }>(
    `SELECT d.id, d.key, d.n::int AS n,
       (SELECT count(*)::int FROM player_stats s WHERE s.season_id = $2 AND s.stat_id = d.id
          AND s.value = (SELECT max(value) FROM player_stats WHERE season_id = $2 AND stat_id = d.id)) AS ties
     FROM (SELECT id, key, row_number() OVER (ORDER BY key) AS n FROM stat_definitions WHERE workspace_id = $1) d
     WHERE d.n IN (5, 6) ORDER BY d.n`,
    [ws.workspaceId, ws.seasonId],
  );
  const out: Explained[] = [];
  for (const d of defs) {
    for (const limit of [10, 100]) {
      const r = await median(() =>
        topValues(explaining, { seasonId: ws.seasonId, statId: d.id, order: 'desc', onlyUuids: null, limit }),
      );
      out.push({
        what: `leaderboard top ${limit}, ${d.ties.toLocaleString('en-US')} player${d.ties === 1 ? '' : 's'} tied at the top`,
        ...r,
      });
    }
  }
  const [player] = await db.query<{ id: string }>('SELECT id FROM players WHERE workspace_id = $1 LIMIT 1', [
    ws.workspaceId,
  ]);
  if (player) {
    const r = await median(() => playerStats(explaining, ws.seasonId, player.id));
    out.push({ what: `a player's ${STATS} values`, ...r });
  }
  return out;
}

const BARE_TOP100 = 'bare node:http, a fixed answer of the top-100 size (reference for the body size alone)';
const MISS =
  'GET /api/v1/players/{uuid}/stats (100 values), a random one of all players, every request a query (player cache off: PLAYER_CACHE_MB=0)';

interface Target {
  name: string;
  /** Each request reads one of these, picked at random. */
  paths: readonly string[];
  /**
   * `plain`: the service with its player cache off (PLAYER_CACHE_MB=0); `bare`: bare node:http answering a fixed
   * body of the top-100 answer's size.
   */
  server: 'hello' | 'service' | 'plain' | 'bare';
  /**
   * Cached reads: every path is read once right before each round (not measured), since the other targets'
   * rounds take longer than an entry lives (30 s) when nobody reads it. Under steady reads entries do not
   * expire into misses (refresh-ahead); a miss costs one query, shown by the MISS row.
   */
  warm?: boolean;
}

interface Row {
  target: string;
  conns: number;
  result: CaseResult;
  hello: CaseResult;
  serviceCores: number;
  pgCores: number;
  rss: number;
  /** The ratio to hello-world of every round (sorted), for the spread. */
  ratios: number[];
}

async function main(): Promise<void> {
  requireWrk('bench:reads');
  const machine = await machineLine();
  log(machine);
  const pin = pinForReads();
  log(pin ? `servers on CPU ${pin.server}, the bench process and wrk on ${pin.generator}` : 'no CPU pinning');
  const logFile = join(tmpdir(), `statboard-bench-reads-${process.pid}.log`);
  const start = (script: string, env: Record<string, string>, ready: string, stdoutFile?: string) =>
    startServer(script, env, ready, 60_000, pin?.server, stdoutFile);
  const started = performance.now();
  const keys = STAT_KEYS.slice(0, STATS);
  const scratch = await createDatabase('statboard_bench_reads');
  let service: RunningServer | null = null;
  let hello: RunningServer | null = null;
  let plain: RunningServer | null = null;
  let bare: RunningServer | null = null;
  const backends = new BackendPids(scratch.name);
  const rows: Row[] = [];
  let seedSeconds = 0;
  let totalRows = 0;
  let explained: Explained[] = [];
  try {
    log(`seeding ${PLAYERS.toLocaleString('en-US')} players × ${STATS} statistics`);
    const t0 = performance.now();
    let uuids: string[] = [];
    const ws = await seedStatboard({ url: scratch.url }, async (db, seeded) => {
      await seedValues(db, seeded, keys);
      uuids = (await db.query<{ uuid: string }>('SELECT uuid FROM players')).map((r) => r.uuid);
      totalRows = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM player_stats'))[0]?.n ?? 0;
      explained = await explainReads(db, seeded);
    });
    seedSeconds = (performance.now() - t0) / 1000;
    log(`seeded ${totalRows.toLocaleString('en-US')} stat rows in ${seedSeconds.toFixed(1)} s`);

    // The service with its defaults but a player cache that holds all 10,000 answers (~11 KB each with 100
    // values); bench:scale measures the defaults.
    // Its access log (one line per request, the default) goes to a file, as an operator's would.
    service = await start(
      SERVICE_SCRIPT,
      { ...serviceEnv({ url: scratch.url }), PLAYER_CACHE_MB: String(PLAYER_CACHE_MB) },
      READY_PATH,
      logFile,
    );
    hello = await start('bench/reads/hello.ts', {}, '/');
    // No cached player answers: every read of a player is a query.
    plain = await start(SERVICE_SCRIPT, { ...serviceEnv({ url: scratch.url }), PLAYER_CACHE_MB: '0' }, READY_PATH);
    const auth = { authorization: `Bearer ${ws.websiteToken}` };
    const leaderboard = (limit: number) =>
      keys.map((k) => `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(k)}&limit=${limit}`);
    const playerPaths = uuids.map((u) => `/api/v1/players/${u}/stats`);
    const targets: Target[] = [
      { name: 'Fastify hello-world (reference)', paths: ['/'], server: 'hello' },
      {
        name: 'GET /api/v1/leaderboards?season=s1&stat=…&limit=10',
        paths: leaderboard(10),
        server: 'service',
        warm: true,
      },
      {
        name: 'GET /api/v1/leaderboards?season=s1&stat=…&limit=100',
        paths: leaderboard(100),
        server: 'service',
        warm: true,
      },
      { name: BARE_TOP100, paths: ['/'], server: 'bare' },
      {
        name: MISS,
        paths: playerPaths,
        server: 'plain',
      },
      {
        // A website reading any player's page, with the cache sized for all of them.
        name: `GET /api/v1/players/{uuid}/stats (${STATS} values), a random one of all ${PLAYERS.toLocaleString('en-US')} players, warm cache (PLAYER_CACHE_MB=${PLAYER_CACHE_MB} holds them all)`,
        paths: playerPaths,
        server: 'service',
        warm: true,
      },
      {
        // Profile pages of a website: a hot set of players read again and again (served from the cache).
        name: `GET /api/v1/players/{uuid}/stats (${STATS} values), one of ${HOT_PLAYERS} popular players`,
        paths: playerPaths.slice(0, HOT_PLAYERS),
        server: 'service',
        warm: true,
      },
    ];

    // Check the answers once, and warm up (JIT, PostgreSQL's buffers) before measuring.
    const svc = service;
    const lb = (await (await fetch(svc.url + leaderboard(100)[0], { headers: auth })).json()) as {
      entries?: unknown[];
    };
    const anyPlayer = playerPaths[randomInt(playerPaths.length)]!;
    const st = (await (await fetch(svc.url + anyPlayer, { headers: auth })).json()) as { stats?: unknown[] };
    if (lb.entries?.length !== 100 || st.stats?.length !== STATS) {
      throw new Error(`unexpected answers: ${JSON.stringify(lb).slice(0, 300)} ${JSON.stringify(st).slice(0, 300)}`);
    }
    bare = await start('bench/reads/bare.ts', { BODY_BYTES: String(JSON.stringify(lb).length) }, '/');
    const servers = { hello, service: svc, plain, bare };
    // Every target under the highest load for WARMUP seconds first: V8 needs 10–20 s of load before a
    // server's code is optimized and its heap has grown to size, and the first seconds' tails are not the
    // steady state's.
    log(`warming up: ${WARMUP} s per target`);
    for (const t of targets) {
      const url = servers[t.server].url;
      const warm = { url, connections: Math.max(...CONCURRENCIES), seconds: WARMUP, headers: auth };
      await getLoad({ ...warm, paths: t.paths });
    }
    for (const conns of CONCURRENCIES) {
      // Rounds: the hello-world, then every read, back to back; each read is compared with its own round's
      // hello-world, and the round with the median ratio stands for it.
      const byTarget = new Map<string, Row[]>();
      for (let round = 0; round < ROUNDS; round++) {
        let reference: CaseResult | null = null;
        for (const t of targets) {
          const srv = servers[t.server];
          if (t.warm) await readAll(srv.url, t.paths, auth);
          const procCpu = new CpuMeter(() => [srv.pid]);
          const pgCpu = new CpuMeter(() => backends.list());
          await procCpu.start();
          await pgCpu.start();
          const rss = new RssSampler(srv.pid);
          const result = await getLoad({
            url: srv.url,
            connections: conns,
            seconds: SECONDS,
            headers: auth,
            paths: t.paths,
          });
          const maxRss = rss.stop();
          const serviceCores = (await procCpu.stop()) / result.seconds;
          const pgCores = (await pgCpu.stop()) / result.seconds;
          if (result.failed > 0) log(`  ! ${t.name}: ${result.failed} errors or answers of 400 or more`);
          reference ??= result;
          const row: Row = {
            target: t.name,
            conns,
            result,
            hello: reference,
            serviceCores,
            pgCores,
            rss: maxRss,
            ratios: [],
          };
          byTarget.set(t.name, [...(byTarget.get(t.name) ?? []), row]);
          log(
            `  c=${conns} round ${round + 1}/${ROUNDS} ${t.name}: ${fmtInt(result.perSecond)} req/s ` +
              `p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99)} (${fmtRatio(result.perSecond / reference.perSecond)})`,
          );
        }
      }
      for (const t of targets) {
        const all = byTarget.get(t.name) ?? [];
        const ratio = (r: Row) => r.result.perSecond / r.hello.perSecond;
        const sorted = [...all].sort((x, y) =>
          t.server === 'hello' ? x.result.perSecond - y.result.perSecond : ratio(x) - ratio(y),
        );
        const mid = sorted[sorted.length >> 1]!;
        rows.push({ ...mid, rss: Math.max(...all.map((r) => r.rss)), ratios: all.map(ratio).sort((x, y) => x - y) });
      }
    }
  } finally {
    await service?.stop();
    await hello?.stop();
    await plain?.stop();
    await bare?.stop();
    await backends.close();
    await scratch.drop();
  }

  const md = table(
    ['request', 'conns', 'req/s', 'vs hello-world (rounds)', 'p50 ms', 'p99 ms', 'CPU ms/req: server / PG', 'max RSS'],
    rows.map((r) => [
      r.target,
      String(r.conns),
      fmtInt(r.result.perSecond),
      r.result === r.hello
        ? '1.00x'
        : `**${fmtRatio(r.result.perSecond / r.hello.perSecond)}**` +
          (r.ratios.length > 1 ? ` (${fmtRatio(r.ratios[0]!)}–${fmtRatio(r.ratios[r.ratios.length - 1]!)})` : ''),
      fmtMs(r.result.p50),
      fmtMs(r.result.p99),
      `${cpuPerRequest(r.serviceCores, r.result)} / ${cpuPerRequest(r.pgCores, r.result)}`,
      `${Math.round(r.rss / 1024 / 1024)} MB`,
    ]),
  );
  const explainMd = table(
    ['statement (EXPLAIN ANALYZE, median of 5)', 'rows', 'execution ms'],
    explained.map((e) => [e.what, String(e.rows), e.ms.toFixed(3)]),
  );
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  const logLines = await countOccurrences(logFile, '"request completed"');
  log(`the service wrote ${logLines.toLocaleString('en-US')} access lines to ${logFile}`);
  process.stdout.write(`\n${md}\n\n${explainMd}\n\n(${elapsed} s)\n`);
  if (WRITE) {
    await writeSection(
      '## Statboard reads',
      [
        machine,
        '',
        `\`npm run bench:reads\` (${elapsed} s). ${totalRows.toLocaleString('en-US')} stat rows ` +
          `(${PLAYERS.toLocaleString('en-US')} players × ${STATS} statistics in the active season, skewed values ` +
          `with ties) seeded with SQL in ${seedSeconds.toFixed(0)} s. Website key with read scopes; the statistic ` +
          `and the player change on every request. ${SECONDS} s per case, keep-alive HTTP (${WRK_NOTE}); ` +
          `the hello-world runs in its own process. Every target first gets ${WARMUP} s of load at the highest ` +
          'concurrency (V8 optimizes and sizes its heap), then each concurrency is ' +
          `${ROUNDS} rounds of the hello-world ` +
          "then every read, back to back: a read's ratio is to its own round's hello-world, the row is the round " +
          'with the median ratio and the range is in brackets. The service runs with its defaults (the access ' +
          `log on: ${logLines.toLocaleString('en-US')} lines written to a file during the run), only the per-key ` +
          'rate limit raised above the load (its in-process counting is measured). ' +
          pinNote(pin) +
          ` Targets: ≥ ${RATIO_TARGET}x of hello-world req/s, p99 under ${P99_TARGET_MS} ms. "CPU ms/req" = CPU ` +
          'time of the server process and of the PostgreSQL backends serving it (from /proc), per completed request.',
        '',
        md,
        '',
        "The database's share, the repos' own statements run with EXPLAIN ANALYZE on the seeded data:",
        '',
        explainMd,
        '',
        analysis(rows, explained),
      ].join('\n'),
    );
    log('wrote "## Statboard reads" in BENCHMARKS.md');
  }
}

function pinNote(pin: Pinning | null): string {
  return pin
    ? `Each server runs pinned to CPU ${pin.server} (taskset) and the bench process with its load generator to ` +
        `CPU ${pin.generator}, as when clients run on other machines; PostgreSQL is not pinned (BENCH_PIN=0 turns ` +
        'pinning off).'
    : 'No CPU pinning (BENCH_PIN=0, or no taskset): the servers, the load generator and PostgreSQL share the cores.';
}

/** Reads every path once, 16 at a time. */
async function readAll(url: string, paths: readonly string[], headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < paths.length; i += 16) {
    await Promise.all(paths.slice(i, i + 16).map(async (p) => (await fetch(url + p, { headers })).text()));
  }
}

/** CPU milliseconds per completed request, from cores used over the case. */
function cpuPerRequest(cores: number, r: CaseResult): string {
  return r.perSecond > 0 ? ((cores / r.perSecond) * 1000).toFixed(2) : '—';
}

/** "What limits it", from this run's numbers. */
function analysis(rows: Row[], explained: Explained[]): string {
  const out: string[] = ['**What limits it.**'];
  const max = Math.max(...CONCURRENCIES);
  const min = Math.min(...CONCURRENCIES);
  const ratio = (r: Row) => r.result.perSecond / r.hello.perSecond;
  const ratios = (rs: Row[]) => rs.map((r) => fmtRatio(ratio(r))).join(', ');
  const bare = rows.filter((r) => r.target === BARE_TOP100);
  const misses = rows.filter((r) => r.target === MISS);
  // The service as deployed: cached reads.
  const cached = rows.filter((r) => r.result !== r.hello && ![BARE_TOP100, MISS].includes(r.target));
  const ref = rows.find((r) => r.conns === max && r.result === r.hello);
  for (const conns of [...new Set([min, max])]) {
    const rs = cached.filter((r) => r.conns === conns);
    if (rs.length === 0) continue;
    const okRatio = rs.every((r) => ratio(r) >= RATIO_TARGET);
    const okP99 = rs.every((r) => r.result.p99 < P99_TARGET_MS);
    out.push(
      `At ${conns} connection${conns === 1 ? '' : 's'} the cached reads (top 10, top 100, random player, popular ` +
        `player) reach ${ratios(rs)} of hello-world (target ≥ ${RATIO_TARGET}x: ${okRatio ? 'met' : 'not met'}) ` +
        `with p99 ${rs.map((r) => fmtMs(r.result.p99)).join(', ')} ms (target under ${P99_TARGET_MS} ms: ` +
        `${okP99 ? 'met' : 'not met'}).`,
    );
  }
  const busy = cached.filter((r) => r.conns === max);
  if (busy.length > 0) {
    out.push(
      `At ${max} connections the service process uses ${busy.map((r) => r.serviceCores.toFixed(2)).join(', ')} ` +
        `of its core: ${busy.map((r) => cpuPerRequest(r.serviceCores, r.result)).join(', ')} ms of CPU per ` +
        `request against ${ref ? cpuPerRequest(ref.serviceCores, ref.result) : '—'} ms for the hello-world. A ` +
        "cached answer (API key, season, definition, the serialized leaderboard or player's values) costs no " +
        'query, and entries read steadily are reloaded in the background before they expire.',
    );
  }
  const missBusy = misses.find((r) => r.conns === max);
  if (missBusy) {
    out.push(
      `A read that misses on every request (player cache off) reaches ${ratios(misses)}: each is one ` +
        `statement, ${cpuPerRequest(missBusy.pgCores, missBusy.result)} ms of PostgreSQL CPU and ` +
        `${cpuPerRequest(missBusy.serviceCores, missBusy.result)} ms of the service's at ${max} connections, ` +
        `with PostgreSQL at ${missBusy.pgCores.toFixed(2)} cores of ${CORES}. ` +
        (explained.length > 0
          ? `The statements themselves take ${explained.map((e) => e.ms.toFixed(2)).join(', ')} ms (table ` +
            'above); with `updated_at` in `player_stats_top_idx`, ties at the top no longer make the leaderboard ' +
            'read every tied row.'
          : ''),
    );
  }
  const bareBusy = bare.find((r) => r.conns === max);
  if (bareBusy) {
    out.push(
      `A bare node:http server answering a fixed body of the top-100 size reaches ${fmtRatio(ratio(bareBusy))} ` +
        `of the hello-world at ${max} connections with p99 ${fmtMs(bareBusy.result.p99)} ms ` +
        `(p50 ${fmtMs(bareBusy.result.p50)}): what the answer's size alone costs.`,
    );
  }
  return out.join(' ');
}

await main();
