/**
 * Ranks benchmark: `/leaderboards/rank` (a player's rank and the entries around it) and `/leaderboards?offset=`
 * (pages past the top) at 100,000 players per statistic, beside the leaderboard top 100 and a statistic of
 * 10,000 players (costs must not grow with the players), against a Fastify hello-world in the same run.
 *
 *   npm run bench:ranks                       # writes "## Statboard ranks" of BENCHMARKS.md
 *   BENCH_SECONDS=5 BENCH_WRITE=0 npm run bench:ranks
 */
import { availableParallelism } from 'node:os';
import type { Db } from '../../apps/statboard/src/db/types.ts';
import { type RunningServer, startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter, RssSampler } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type BenchWorkspace, READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, fmtRatio, table } from '../lib/stats.ts';
import { randomInt } from '../lib/traffic.ts';

/** Enough for every board of the run in memory (~1,500 bytes per entry): what this bench measures. */
const RANK_CACHE_MB = 512;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,32').split(',').map(Number);
const WRITE = process.env.BENCH_WRITE !== '0';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const CORES = availableParallelism();
const PLAYERS = 100_000;
const SMALL = 10_000;
/** Statistics with every player's value (the big boards) and one with SMALL players' values. */
const BIG_STATS = ['rank.custom:rank.score', 'rank.custom:rank.kills', 'rank.custom:rank.deaths'];
const SMALL_STAT = 'rank.custom:rank.small';
const P99_TARGET_MS = 5;
/** Paths per target: random players and offsets, drawn once. */
const PATHS = 20_000;

function log(msg: string): void {
  process.stderr.write(`[bench:ranks] ${msg}\n`);
}

/** Players and values with SQL: skewed values with many ties (0–1,000 for the big boards, 0–100 for the small). */
async function seed(db: Db, ws: BenchWorkspace): Promise<string[]> {
  await db.query(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
     SELECT $1, gen_random_uuid(), 'Player' || g, now() FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, PLAYERS],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category) SELECT $1, k, split_part(k, ':', 1) FROM unnest($2::text[]) k`,
    [ws.workspaceId, [...BIG_STATS, SMALL_STAT]],
  );
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT $1, d.id, p.id, floor(power(random(), 3) * 1000), now(), now() - random() * interval '30 days'
     FROM stat_definitions d CROSS JOIN players p
     WHERE d.workspace_id = $2 AND p.workspace_id = $2 AND d.key = ANY($3::text[])`,
    [ws.seasonId, ws.workspaceId, BIG_STATS],
  );
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT $1, d.id, p.id, floor(power(random(), 3) * 100), now(), now() - random() * interval '30 days'
     FROM stat_definitions d, (SELECT id FROM players WHERE workspace_id = $2 ORDER BY id LIMIT $4) p
     WHERE d.workspace_id = $2 AND d.key = $3`,
    [ws.seasonId, ws.workspaceId, SMALL_STAT, SMALL],
  );
  for (const t of ['player_stats', 'players', 'stat_definitions']) await db.query(`VACUUM ANALYZE ${t}`);
  return (await db.query<{ uuid: string }>('SELECT uuid FROM players ORDER BY id')).map((r) => r.uuid);
}

interface Target {
  name: string;
  paths: readonly string[];
  server: 'hello' | 'service';
}

interface Row {
  target: string;
  conns: number;
  result: CaseResult;
  hello: CaseResult;
  serviceCores: number;
  pgCores: number;
  rss: number;
}

async function main(): Promise<void> {
  requireWrk('bench:ranks');
  const machine = await machineLine();
  log(machine);
  const pin = pinForReads();
  const start = (script: string, env: Record<string, string>, ready: string) =>
    startServer(script, env, ready, 60_000, pin?.server);
  const started = performance.now();
  const scratch = await createDatabase('statboard_bench_ranks');
  const backends = new BackendPids(scratch.name);
  let service: RunningServer | null = null;
  let hello: RunningServer | null = null;
  const rows: Row[] = [];
  const loads: { what: string; ms: number }[] = [];
  let seedSeconds = 0;
  let rssIdle = 0;
  try {
    log(`seeding ${PLAYERS.toLocaleString('en-US')} players × ${BIG_STATS.length} statistics`);
    const t0 = performance.now();
    let uuids: string[] = [];
    const ws = await seedStatboard({ url: scratch.url }, async (db, seeded) => {
      uuids = await seed(db, seeded);
    });
    seedSeconds = (performance.now() - t0) / 1000;
    service = await start(
      SERVICE_SCRIPT,
      { ...serviceEnv({ url: scratch.url }), LOG_LEVEL: 'warn', RANK_CACHE_MB: String(RANK_CACHE_MB) },
      READY_PATH,
    );
    hello = await start('bench/reads/hello.ts', {}, '/');
    const auth = { authorization: `Bearer ${ws.websiteToken}` };
    const svc = service;
    rssIdle = new RssSampler(svc.pid).stop();

    // The first read of each board loads it (every public value of the statistic, sorted in memory).
    for (const stat of [...BIG_STATS, SMALL_STAT]) {
      const t = performance.now();
      const res = await fetch(
        `${svc.url}/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(stat)}&player=${uuids[0]}`,
        { headers: auth },
      );
      if (res.status !== 200) throw new Error(`rank: ${res.status} ${await res.text()}`);
      await res.json();
      loads.push({
        what:
          stat === SMALL_STAT
            ? `${SMALL.toLocaleString('en-US')} players`
            : `${PLAYERS.toLocaleString('en-US')} players`,
        ms: performance.now() - t,
      });
    }
    const pick = <T>(n: number, f: () => T) => Array.from({ length: n }, f);
    const big = () => BIG_STATS[randomInt(BIG_STATS.length)]!;
    const rank = (stat: () => string, players: number) =>
      pick(
        PATHS,
        () =>
          `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(stat())}&player=${uuids[randomInt(players)]}&around=5`,
      );
    const targets: Target[] = [
      { name: 'Fastify hello-world (reference)', paths: ['/'], server: 'hello' },
      {
        name: `GET /api/v1/leaderboards?season=s1&stat=…&limit=100 (top 100 of ${PLAYERS.toLocaleString('en-US')})`,
        paths: BIG_STATS.map((k) => `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(k)}&limit=100`),
        server: 'service',
      },
      {
        name: `GET /api/v1/leaderboards/rank?…&around=5, a random player of ${PLAYERS.toLocaleString('en-US')}`,
        paths: rank(big, PLAYERS),
        server: 'service',
      },
      {
        name: `GET /api/v1/leaderboards/rank?…&around=5, a random player of ${SMALL.toLocaleString('en-US')}`,
        paths: rank(() => SMALL_STAT, SMALL),
        server: 'service',
      },
      {
        name: `GET /api/v1/leaderboards?…&limit=100&offset=<0–10000> (pages of ${PLAYERS.toLocaleString('en-US')})`,
        paths: pick(
          PATHS,
          () =>
            `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(big())}&limit=100&offset=${randomInt(10_001)}`,
        ),
        server: 'service',
      },
    ];
    const servers = { hello, service: svc };
    log(`warming up: ${WARMUP} s per target`);
    for (const t of targets) {
      await getLoad({
        url: servers[t.server].url,
        connections: Math.max(...CONCURRENCIES),
        seconds: WARMUP,
        headers: auth,
        paths: t.paths,
      });
    }
    for (const conns of CONCURRENCIES) {
      const byTarget = new Map<string, Row[]>();
      for (let round = 0; round < ROUNDS; round++) {
        let reference: CaseResult | null = null;
        for (const t of targets) {
          const srv = servers[t.server];
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
          const row: Row = { target: t.name, conns, result, hello: reference, serviceCores, pgCores, rss: maxRss };
          byTarget.set(t.name, [...(byTarget.get(t.name) ?? []), row]);
          log(
            `  c=${conns} round ${round + 1}/${ROUNDS} ${t.name}: ${fmtInt(result.perSecond)} req/s ` +
              `p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99)} (${fmtRatio(result.perSecond / reference.perSecond)})`,
          );
        }
      }
      for (const t of targets) {
        const all = byTarget.get(t.name) ?? [];
        // The round with the median p99 stands for the target (the worst round's p99 is shown beside it).
        const sorted = [...all].sort((x, y) => x.result.p99 - y.result.p99);
        const mid = sorted[sorted.length >> 1]!;
        rows.push({ ...mid, rss: Math.max(...all.map((r) => r.rss)) });
        worst.set(`${t.name}|${conns}`, sorted.at(-1)!.result.p99);
      }
    }
  } finally {
    await service?.stop();
    await hello?.stop();
    await scratch.drop();
  }
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  const md = table(
    [
      'read',
      'conns',
      'req/s',
      'vs hello-world',
      'p50 ms',
      'p99 ms (worst round)',
      'CPU ms/req: service / PG',
      'peak RSS',
    ],
    rows.map((r) => [
      r.target,
      String(r.conns),
      fmtInt(r.result.perSecond),
      r.target.startsWith('Fastify') ? '1.00x' : fmtRatio(r.result.perSecond / r.hello.perSecond),
      fmtMs(r.result.p50),
      `${fmtMs(r.result.p99)} (${fmtMs(worst.get(`${r.target}|${r.conns}`) ?? r.result.p99)})`,
      `${((r.serviceCores * 1000) / r.result.perSecond).toFixed(3)} / ${((r.pgCores * 1000) / r.result.perSecond).toFixed(3)}`,
      `${Math.round(r.rss / 1024 / 1024)} MB`,
    ]),
  );
  const loadMd = table(
    ['first read of a board (loads it: every public value, sorted)', 'ms'],
    loads.map((l) => [l.what, l.ms.toFixed(0)]),
  );
  const rankRows = rows.filter((r) => r.target.includes('/rank'));
  const worstRank = Math.max(...rankRows.map((r) => worst.get(`${r.target}|${r.conns}`) ?? r.result.p99));
  const verdict =
    worstRank < P99_TARGET_MS
      ? `every rank read's p99 (the worst round of each) is under ${P99_TARGET_MS} ms: **met** (worst ${fmtMs(worstRank)} ms).`
      : `a rank read's p99 reached ${fmtMs(worstRank)} ms in its worst round: **missed** (target ${P99_TARGET_MS} ms).`;
  process.stdout.write(`\n${md}\n\n${loadMd}\n\n${verdict}\n(${elapsed} s)\n`);
  if (WRITE) {
    await writeSection(
      '## Statboard ranks',
      [
        machine,
        '',
        `\`npm run bench:ranks\` (${elapsed} s). ${PLAYERS.toLocaleString('en-US')} players with a value of each of ` +
          `${BIG_STATS.length} statistics (skewed 0–1,000: long runs of ties), and a statistic of ` +
          `${SMALL.toLocaleString('en-US')} players, seeded with SQL in ${seedSeconds.toFixed(0)} s on PostgreSQL. ` +
          `RANK_CACHE_MB=${RANK_CACHE_MB}, sized to hold the boards in memory (the default holds about 33,000 entries; bench:scale measures boards answered by queries). Every request picks a random player (of the whole board) or ` +
          `offset; ${SECONDS} s per case after ${WARMUP} s of warm-up per target, ${ROUNDS} rounds (the row is ` +
          `the round with the median p99; the worst round's p99 in brackets); keep-alive HTTP (${WRK_NOTE}); the ` +
          `service pinned to one core of ${CORES}, wrk to the other. Idle RSS after the seed: ${Math.round(rssIdle / 1024 / 1024)} MB.`,
        '',
        md,
        '',
        loadMd,
        '',
        `**Target: rank with around=5 under ${P99_TARGET_MS} ms p99 at ${PLAYERS.toLocaleString('en-US')} players.** ${verdict}`,
        '',
        'Where the time goes: a rank is a binary search in the board kept in memory (O(log n)) and the JSON of ' +
          'the 11 entries shown (each made once and kept with its entry); a page past the top is a slice of the same ' +
          'board; neither asks the database, and both are answered on the fast path in front of Fastify when the ' +
          'board is current. The board is read from the database once (the load times above), then kept current: ' +
          'a change names its players, and the next read re-reads just those (one query) and moves them (an ' +
          'insertion in a sorted array). The cost per request is the same at 10,000 and 100,000 players: compare ' +
          'the two rank rows. At 32 connections on one core, p99 is the queue of requests waiting for that core.',
      ].join('\n'),
    );
    log('wrote "## Statboard ranks" in BENCHMARKS.md');
  }
}

const worst = new Map<string, number>();

await main();
