/**
 * Public site benchmark (issue 31, point 5), on PostgreSQL: with BENCH_PLAYERS players (1,000,000), the home
 * page, a leaderboard page and a player page served from the page cache against @fastify/static serving the same
 * bytes in the same run (p99 and req/s); a random player's page that nothing cached against
 * `GET /api/v1/players/{uuid}/stats` for the same players (CPU of the service and of PostgreSQL per request), for
 * those players of 20 values and for players as the mod leaves them (MOD_STATS values, most of them 0);
 * each page's size gzipped; and uploads alone against uploads while the pages are read.
 *
 *   npm run bench:site                          # writes "## Public site" of BENCHMARKS.md
 *   BENCH_PLAYERS=2000 BENCH_SECONDS=2 BENCH_WARMUP=1 BENCH_ROUNDS=1 BENCH_WRITE=0 npm run bench:site   # smoke
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type RunningServer, startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad, LEAN_NOTE, postLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type BenchWorkspace, READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, fmtRatio, table } from '../lib/stats.ts';
import { makePlayers, modBatch, randomInt, statKeys } from '../lib/traffic.ts';
import { audience, pacedReads, writeShuffled } from './audience.ts';
import { FEATURED, type Seeded, seedPlayers, seedValues } from './seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WRITE = process.env.BENCH_WRITE !== '0';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 1_000_000);
/** Statistics per player; the first FEATURED (seed.ts) are the home page's boards. */
const STATS = 20;
/**
 * Players as the mod leaves them, in a workspace of their own (slug `mod`): its first upload of a session carries
 * every statistic of the game, most of them 0, so a player who played holds hundreds to thousands of values of which
 * a few dozen are not 0. MOD_PLAYERS players × MOD_STATS values, MOD_NONZERO of them not 0 (the FEATURED featured
 * ones always). The not-cached reads are measured for them too, beside the 20-value players above (the page's worst
 * case against the API: every value shown, none at 0).
 */
const MOD_PLAYERS = Number(process.env.BENCH_MOD_PLAYERS ?? 5000);
const MOD_STATS = 1000;
const MOD_NONZERO = 50;
const MOD_SLUG = 'mod';
/** The steady rate of the mod-shaped players' reads (each costs the API 5–10 times a 20-value one's). */
const MOD_RATE = Number(process.env.BENCH_MOD_RATE ?? 500);
const HOT_PLAYERS = 200;
const P99_TARGET_MS = 10;
const STATIC_RATIO_TARGET = 0.5;
const CPU_RATIO_TARGET = 1.5;
const INGEST_TARGET = 0.95;
const GZIP_TARGET = 30 * 1024;
const SLUG = 'bench';
/** Page views a second while uploads are measured: a busy site (720,000 an hour), not a load test. */
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 200);
/** Pairs of upload rounds (alone, beside the audience): odd, so that the median is one of them. */
const UPLOAD_ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 7);
/** The rate at which the not-cached reads are also measured, each at the same (a rate both sustain at 1 M players). */
const EQUAL_RATE = Number(process.env.BENCH_EQUAL_RATE ?? 1000);
/** The parts to run (BENCH_CASES, comma-separated): cached pages, not cached pages, uploads beside the pages. */
const CASES = new Set((process.env.BENCH_CASES ?? 'cached,uncached,uploads').split(','));

function log(msg: string): void {
  process.stderr.write(`[bench:site] ${msg}\n`);
}

/** The not-cached reads of one set of players: the rows of the median round, and the rounds' ratios. */
interface NotCached {
  rows: Row[];
  /** Page CPU over API CPU at 32 connections, each round's, sorted. */
  ratios: number[];
  /** The same reads at `rate` a second each: the rounds' ratios (sorted) and the median round's CPU. */
  equalRate: { rate: number; ratios: number[]; api: [number, number]; page: [number, number] };
}

interface Row {
  what: string;
  result: CaseResult;
  reference: CaseResult | null;
  /** CPU ms per request: the server process, PostgreSQL's backends. */
  cpu: [number, number];
}

async function measure(
  server: RunningServer,
  paths: readonly string[],
  backends: BackendPids | null,
  headers: Record<string, string> = {},
): Promise<{ result: CaseResult; cpu: [number, number] }> {
  const m = await withCpu(server, backends, () =>
    getLoad({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, headers, paths }),
  );
  const result = m.value;
  const per = (s: number) => (result.ok > 0 ? (s * 1000) / result.ok : Number.NaN);
  if (result.failed > 0) log(`  ! ${result.failed} failed requests`);
  return { result, cpu: [per(m.service), per(m.pg)] };
}

/** Reads every path once, 16 at a time. */
async function readAll(url: string, paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 16) {
    await Promise.all(paths.slice(i, i + 16).map(async (p) => (await fetch(url + p)).arrayBuffer()));
  }
}

/** Runs `f` while measuring the CPU seconds of the server and of PostgreSQL's backends (none: 0). */
async function withCpu<T>(
  server: RunningServer,
  backends: BackendPids | null,
  f: () => Promise<T>,
): Promise<{ value: T; service: number; pg: number }> {
  const procCpu = new CpuMeter(() => [server.pid]);
  const pgCpu = new CpuMeter(() => backends?.list() ?? []);
  await procCpu.start();
  await pgCpu.start();
  const value = await f();
  return { value, service: await procCpu.stop(), pg: await pgCpu.stop() };
}

/** A round of uploads: their rate, the CPU seconds of the service and PostgreSQL, and the audience beside. */
interface Upload {
  result: CaseResult;
  service: number;
  pg: number;
  /** Page views a second served beside (0: alone). */
  views: number;
  /** The audience's own CPU seconds. */
  reader: number;
}

/** CPU ms per upload of a round, service + PostgreSQL. */
function perUpload(u: Upload): string {
  const n = u.result.ok || 1;
  return `${((u.service * 1000) / n).toFixed(2)} + ${((u.pg * 1000) / n).toFixed(2)} ms of CPU an upload`;
}

/** The median round by `by` (the upper one of an even number). */
function medianBy<T>(rounds: readonly T[], by: (r: T) => number): T {
  return [...rounds].sort((a, b) => by(a) - by(b))[rounds.length >> 1]!;
}

/**
 * Round `r` of a pair: `a` and `b` one after the other, `a` first in even rounds and `b` first in odd ones, so that
 * a drift of the machine over the minutes weighs on both. Answers [a's, b's].
 */
async function inTurn<A, B>(r: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (r % 2 === 0) {
    const x = await a();
    return [x, await b()];
  }
  const y = await b();
  return [await a(), y];
}

/**
 * What the not-cached reads of one set of players measured, as a sentence starting with `opening` (the target's
 * verdict after the 32-connection ratio when `target`).
 */
function notCachedVerdict(n: NotCached, opening: string, target: boolean): string {
  const median = (xs: readonly number[]) => xs[xs.length >> 1]!;
  const ratio = median(n.ratios);
  const e = n.equalRate;
  return (
    `${opening} ${fmtRatio(ratio)} the CPU (service and PostgreSQL) of its statistics through the API (median of ` +
    `${n.ratios.length} interleaved rounds at ${CONNECTIONS} connections: ${n.ratios.map(fmtRatio).join(', ')}` +
    `${target ? `; target ≤ ${CPU_RATIO_TARGET}x: ${ratio <= CPU_RATIO_TARGET ? 'met' : 'not met'}` : ''}). ` +
    `Both read by a steady audience at ${fmtInt(e.rate)} requests a second (the same rate for both; not asking for ` +
    `gzip): the API ${e.api.map((c) => c.toFixed(2)).join(' + ')} ms, the page ` +
    `${e.page.map((c) => c.toFixed(2)).join(' + ')} ms of CPU a request, ${fmtRatio(median(e.ratios))} (rounds: ` +
    `${e.ratios.map(fmtRatio).join(', ')}).`
  );
}

async function main(): Promise<void> {
  requireWrk('bench:site');
  const machine = await machineLine();
  log(machine);
  const pin = pinForReads();
  const started = performance.now();
  const keys = statKeys(STATS);
  const scratch = await createDatabase('statboard_bench_site');
  const backends = new BackendPids(scratch.name);
  const dir = await mkdtemp(join(tmpdir(), 'statboard-bench-site-'));
  const running: RunningServer[] = [];
  const start = async (script: string, env: Record<string, string>, ready: string) => {
    const s = await startServer(script, env, ready, 120_000, pin?.server);
    running.push(s);
    return s;
  };
  const rows: Row[] = [];
  const sizes: { page: string; bytes: number; gzip: number }[] = [];
  let ingest: {
    alone: Upload;
    withPages: Upload;
    ratios: number[];
    unbounded: CaseResult;
  } | null = null;
  /** The not-cached reads of the 20-value players, and of the mod-shaped ones. */
  let random: NotCached | null = null;
  let modShaped: NotCached | null = null;
  try {
    // The mod-shaped players' workspace first (players and statistics), its values written with the others'.
    const modKeys = statKeys(MOD_STATS);
    const modOf = (seeded: BenchWorkspace): Seeded => ({
      ws: seeded,
      players: MOD_PLAYERS,
      keys: modKeys,
      nonZero: MOD_NONZERO,
    });
    let mod: Seeded | null = null;
    let modUuids: string[] = [];
    if (CASES.has('uncached')) {
      log(
        `seeding ${fmtInt(MOD_PLAYERS)} players × ${fmtInt(MOD_STATS)} statistics (${MOD_NONZERO} not 0) in /p/${MOD_SLUG}`,
      );
      const seeded = await seedStatboard({ url: scratch.url }, (db, w) => seedPlayers(db, modOf(w)), {
        workspace: { name: 'Mod players', slug: MOD_SLUG },
      });
      mod = modOf(seeded);
    }
    log(`seeding ${PLAYERS.toLocaleString('en-US')} players × ${STATS} statistics`);
    let uuids: string[] = [];
    const ws = await seedStatboard({ url: scratch.url }, async (db, seeded) => {
      const main: Seeded = { ws: seeded, players: PLAYERS, keys, nonZero: STATS };
      await seedPlayers(db, main);
      await seedValues(db, mod ? [main, mod] : [main]);
      const uuidsOf = async (s: Seeded) =>
        (await db.query<{ uuid: string }>('SELECT uuid FROM players WHERE workspace_id = $1', [s.ws.workspaceId])).map(
          (r) => r.uuid,
        );
      uuids = await uuidsOf(main);
      if (mod) modUuids = await uuidsOf(mod);
    });
    const env = { ...serviceEnv({ url: scratch.url }), PUBLIC_PAGE_LIMIT_PER_MINUTE: '0' };
    const service = await start(SERVICE_SCRIPT, env, READY_PATH);
    // Nothing cached that a random read could hit: the player cache off (the page cache cannot hold 1 M pages).
    const plain = await start(SERVICE_SCRIPT, { ...env, PLAYER_CACHE_MB: '0' }, READY_PATH);
    const board = (k: string, page: number) => `/p/${SLUG}/leaderboards/${encodeURIComponent(k)}?page=${page}`;
    const pages = {
      home: [`/p/${SLUG}/`],
      board: keys.slice(0, FEATURED).flatMap((k) => [1, 2, 3].map((p) => board(k, p))),
      player: uuids.slice(0, HOT_PLAYERS).map((u) => `/p/${SLUG}/players/${u}`),
    };
    // The same bytes for @fastify/static: each page as the service renders it, saved as a file.
    const files: Record<keyof typeof pages, string[]> = { home: [], board: [], player: [] };
    for (const [kind, paths] of Object.entries(pages) as [keyof typeof pages, string[]][]) {
      for (const [i, path] of paths.entries()) {
        const res = await fetch(service.url + path);
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.toString().slice(0, 200)}`);
        const name = `${kind}-${i}.html`;
        await writeFile(join(dir, name), body);
        files[kind].push(`/${name}`);
        if (i === 0) sizes.push({ page: kind, bytes: body.length, gzip: gzipSync(body).length });
      }
    }
    const statics = await start('bench/site/static.ts', { STATIC_ROOT: dir }, '/ready');
    log(`warming up: ${WARMUP} s per target`);
    for (const kind of CASES.has('cached') ? (Object.keys(pages) as (keyof typeof pages)[]) : []) {
      await getLoad({ url: service.url, connections: CONNECTIONS, seconds: WARMUP, paths: pages[kind] });
      await getLoad({ url: statics.url, connections: CONNECTIONS, seconds: WARMUP, paths: files[kind] });
    }
    const names = {
      home: 'the home page (3 boards of 10, who is online)',
      board: 'a leaderboard page (50 entries; pages 1–3 of 3 boards)',
      player: `a player's page (${STATS} values, ranks, 30-day chart; one of ${HOT_PLAYERS} players)`,
    };
    for (const kind of CASES.has('cached') ? (Object.keys(pages) as (keyof typeof pages)[]) : []) {
      const rounds: { result: CaseResult; cpu: [number, number]; reference: CaseResult }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const reference = (await measure(statics, files[kind], null)).result;
        // Every page read once first (not measured): "cached" means each is in the page cache.
        await readAll(service.url, pages[kind]);
        const m = await measure(service, pages[kind], backends);
        rounds.push({ ...m, reference });
        log(
          `  ${kind} round ${r + 1}: ${fmtInt(m.result.perSecond)} req/s p99 ${fmtMs(m.result.p99)} ms; static ${fmtInt(reference.perSecond)} req/s p99 ${fmtMs(reference.p99)} ms`,
        );
      }
      const mid = medianBy(rounds, (m) => m.result.perSecond);
      rows.push({ what: `cached: ${names[kind]}`, result: mid.result, reference: mid.reference, cpu: mid.cpu });
    }
    // Random players of all: nothing cached (page cache misses, player cache off on this instance). The API and
    // the pages in interleaved rounds (their order alternating), so that what else the machine does in a minute
    // (autovacuum, a checkpoint) weighs on both: the ratio is the median of the rounds', the CPU of its round.
    const notCached = async (o: {
      /** The players, for the log and the table. */
      label: string;
      slug: string;
      uuids: readonly string[];
      token: string;
      /** The steady audience's requests a second. */
      rate: number;
      server: RunningServer;
    }): Promise<NotCached> => {
      // Every player's address, each request one at random: a page read twice in a round is rare (the page
      // cache keeps a few thousand of a million), as it is for a random visitor.
      const randomPages = o.uuids.map((u) => `/p/${o.slug}/players/${u}`);
      const randomStats = o.uuids.map((u) => `/api/v1/players/${u}/stats`);
      const auth = { authorization: `Bearer ${o.token}` };
      const { server } = o;
      await getLoad({ url: server.url, connections: CONNECTIONS, seconds: WARMUP, paths: randomPages });
      await getLoad({ url: server.url, connections: CONNECTIONS, seconds: WARMUP, paths: randomStats, headers: auth });
      const pairs: { api: Awaited<ReturnType<typeof measure>>; page: Awaited<ReturnType<typeof measure>> }[] = [];
      const total = (m: { cpu: [number, number] }) => m.cpu[0] + m.cpu[1];
      for (let r = 0; r < ROUNDS; r++) {
        const [api, page] = await inTurn(
          r,
          () => measure(server, randomStats, backends, auth),
          () => measure(server, randomPages, backends),
        );
        const pair = { api, page };
        pairs.push(pair);
        log(
          `  not cached (${o.label}) round ${r + 1}: API ${pair.api.cpu.map((c) => c.toFixed(2)).join(' + ')} ms, page ` +
            `${pair.page.cpu.map((c) => c.toFixed(2)).join(' + ')} ms of CPU a request (${fmtRatio(total(pair.page) / total(pair.api))})`,
        );
      }
      const ratio = (p: (typeof pairs)[number]) => total(p.page) / total(p.api);
      const mid = medianBy(pairs, ratio);
      // The same reads at one steady rate (a second view of the ratio): at 32 connections each goes as fast as it
      // can, the API at more than twice the pages' rate, and CPU per request falls as the rate rises (a wake-up of
      // the event loop and of PostgreSQL serves more requests), so the two are measured at different rates there.
      const pagesFile = await writeShuffled(join(dir, `random-pages-${o.slug}.txt`), randomPages);
      const statsFile = await writeShuffled(join(dir, `random-stats-${o.slug}.txt`), randomStats);
      const paced = async (file: string, headers: Record<string, string> = {}): Promise<[number, number]> => {
        // Loaded before the measured window (its start-up reads 1,000,000 addresses).
        const readers = await audience(server.url, file, o.rate, SECONDS, { headers, gzip: false });
        const m = await withCpu(server, backends, () => readers.go());
        if (m.value.failed > 0) log(`  ! ${m.value.failed} failed at ${o.rate}/s: ${JSON.stringify(m.value.statuses)}`);
        const per = (x: number) => (x * 1000) / m.value.served;
        return [per(m.service), per(m.pg)];
      };
      const steady: { api: [number, number]; page: [number, number] }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const [api, page] = await inTurn(
          r,
          () => paced(statsFile, auth),
          () => paced(pagesFile),
        );
        steady.push({ api, page });
        log(
          `  not cached (${o.label}) at ${o.rate}/s round ${r + 1}: API ${api.map((c) => c.toFixed(2)).join(' + ')} ms, page ` +
            `${page.map((c) => c.toFixed(2)).join(' + ')} ms (${fmtRatio(total({ cpu: page }) / total({ cpu: api }))})`,
        );
      }
      const steadyRatio = (p: (typeof steady)[number]) => total({ cpu: p.page }) / total({ cpu: p.api });
      const steadyMid = medianBy(steady, steadyRatio);
      return {
        rows: [
          { what: `not cached: GET /api/v1/players/{uuid}/stats, ${o.label}`, ...mid.api, reference: null },
          { what: `not cached: the page of ${o.label}`, ...mid.page, reference: null },
        ],
        ratios: pairs.map(ratio).sort((x, y) => x - y),
        equalRate: {
          rate: o.rate,
          ratios: steady.map(steadyRatio).sort((x, y) => x - y),
          api: steadyMid.api,
          page: steadyMid.page,
        },
      };
    };
    if (CASES.has('uncached')) {
      random = await notCached({
        label: 'a random player',
        slug: SLUG,
        uuids,
        token: ws.websiteToken,
        rate: EQUAL_RATE,
        server: plain,
      });
      rows.push(...random.rows);
      if (mod) {
        modShaped = await notCached({
          label: `a random player of ${fmtInt(MOD_STATS)} values (${MOD_NONZERO} not 0)`,
          slug: MOD_SLUG,
          uuids: modUuids,
          token: mod.ws.websiteToken,
          rate: MOD_RATE,
          // A few thousand players' pages would be read several times each within their 30 s: no page kept, and
          // no answer of the API either (the player cache off, as on `plain`).
          server: await start(SERVICE_SCRIPT, { ...env, PLAYER_CACHE_MB: '0', PAGE_CACHE_MB: '0' }, READY_PATH),
        });
        rows.push(...modShaped.rows);
      }
    }

    // Uploads alone, then while the pages are read (50 statistics a batch, as bench:ingest sends them), in
    // interleaved rounds whose order alternates (alone first, then beside first), so that a drift of the machine
    // over the minutes weighs on both. The pages are read by a steady audience (READ_RATE page views a second, more
    // than a large network's site sees at its peak), not by a load generator: on 2 shared cores any unbounded load
    // takes its CPU from the uploads whatever it reads. The unbounded case is measured too, beside it, without a
    // target. Each round also measures the CPU of the service and of PostgreSQL, and the audience's own.
    if (CASES.has('uploads')) {
      const players = makePlayers(Math.min(PLAYERS, 10_000));
      const upload = () =>
        postLoad({
          url: `${service.url}/api/v1/ingest/batch`,
          connections: 16,
          seconds: SECONDS,
          headers: { authorization: `Bearer ${ws.clientToken}`, 'content-type': 'application/json' },
          body: () => modBatch(players[randomInt(players.length)]!, 50),
        });
      const all = [...pages.home, ...pages.board, ...pages.player];
      const allFile = join(dir, 'paced-paths.txt');
      await writeFile(allFile, all.join('\n'));
      const measured = async (beside: boolean): Promise<Upload> => {
        const readers = beside ? await audience(service.url, allFile, READ_RATE, SECONDS) : null;
        const m = await withCpu(service, backends, () =>
          Promise.all([
            upload(),
            readers ? readers.go() : Promise.resolve({ views: 0, cpu: 0, failed: 0, statuses: {} }),
          ]),
        );
        const [result, reader] = m.value;
        if (reader.failed > 0) {
          log(`  ! ${reader.failed} page views failed while uploads were measured: ${JSON.stringify(reader.statuses)}`);
        }
        if (result.failed > 0) log(`  ! ${result.failed} uploads failed: ${JSON.stringify(result.statuses)}`);
        return { result, service: m.service, pg: m.pg, views: reader.views, reader: reader.cpu };
      };
      // Warm-up: the uploads' first batches create their players, sessions and the statistics the site's seed does
      // not have; then both together twice, so that the rounds measure a network in its steady state: a site read
      // all along, its pages rendered within their age and its boards following the uploads. (A pause with no
      // reader before the rounds, as an earlier version had, left every page expired and every board with more
      // changed players than it follows one by one: the first round beside the pages then rendered them all and
      // read the boards again whole, 0.2–0.5x, whichever round it was.)
      await upload();
      for (let i = 0; i < 2; i++) await Promise.all([upload(), pacedReads(service.url, allFile, READ_RATE, SECONDS)]);
      const pairs: { alone: Upload; withPages: Upload }[] = [];
      for (let r = 0; r < UPLOAD_ROUNDS; r++) {
        const [alone, withPages] = await inTurn(
          r,
          () => measured(false),
          () => measured(true),
        );
        const pair = { alone, withPages };
        pairs.push(pair);
        log(
          `  uploads round ${r + 1}: alone ${fmtInt(pair.alone.result.perSecond)}/s (${perUpload(pair.alone)}), with ` +
            `${fmtInt(pair.withPages.views)} page views/s ${fmtInt(pair.withPages.result.perSecond)}/s ` +
            `(${perUpload(pair.withPages)}; the audience ${pair.withPages.reader.toFixed(2)} s of CPU)`,
        );
      }
      const ratio = (p: (typeof pairs)[number]) => p.withPages.result.perSecond / p.alone.result.perSecond;
      const mid = medianBy(pairs, ratio);
      const [unbounded] = await Promise.all([
        upload(),
        getLoad({ url: service.url, connections: 8, seconds: SECONDS, paths: all }),
      ]);
      ingest = {
        alone: mid.alone,
        withPages: mid.withPages,
        ratios: pairs.map(ratio).sort((x, y) => x - y),
        unbounded,
      };
    }
  } finally {
    for (const s of running) await s.stop();
    await backends.close();
    await scratch.drop();
    await rm(dir, { recursive: true, force: true });
  }

  const md = table(
    ['request', 'req/s', 'vs @fastify/static, same bytes', 'p50 ms', 'p99 ms', 'CPU ms/req: service / PG'],
    rows.map((r) => [
      r.what,
      fmtInt(r.result.perSecond),
      r.reference ? `**${fmtRatio(r.result.perSecond / r.reference.perSecond)}**` : '—',
      fmtMs(r.result.p50),
      fmtMs(r.result.p99),
      `${r.cpu[0].toFixed(2)} / ${r.cpu[1].toFixed(2)}`,
    ]),
  );
  const sizeMd = table(
    ['page', 'HTML bytes', 'gzipped'],
    sizes.map((s) => [s.page, fmtInt(s.bytes), `${fmtInt(s.gzip)}${s.gzip <= GZIP_TARGET ? '' : ' (over 30 KB)'}`]),
  );
  const cached = rows.filter((r) => r.reference);
  const ingestRatio = ingest ? ingest.withPages.result.perSecond / ingest.alone.result.perSecond : Number.NaN;
  const verdict = [
    cached.length
      ? `Cached pages at ${CONNECTIONS} connections: p99 ${cached.map((r) => fmtMs(r.result.p99)).join(', ')} ms ` +
        `(target under ${P99_TARGET_MS}: ${cached.every((r) => r.result.p99 < P99_TARGET_MS) ? 'met' : 'not met'}; ` +
        `@fastify/static's in the same rounds ${cached.map((r) => fmtMs(r.reference!.p99)).join(', ')} ms), ` +
        `${cached.map((r) => fmtRatio(r.result.perSecond / r.reference!.perSecond)).join(', ')} of @fastify/static ` +
        `(target ≥ ${STATIC_RATIO_TARGET}x: ${cached.every((r) => r.result.perSecond / r.reference!.perSecond >= STATIC_RATIO_TARGET) ? 'met' : 'not met'}).`
      : '',
    random ? notCachedVerdict(random, "A random player's page costs", true) : '',
    modShaped
      ? notCachedVerdict(
          modShaped,
          `For players as the mod leaves them (${fmtInt(MOD_PLAYERS)} players of a workspace of their own, each with ` +
            `${fmtInt(MOD_STATS)} values of which ${MOD_NONZERO} are not 0: the page lists those and counts the rest), ` +
            'the page costs',
          false,
        )
      : '',
    ingest
      ? `Uploads (16 connections, 50 statistics each): ${fmtInt(ingest.alone.result.perSecond)} req/s alone, ` +
        `${fmtInt(ingest.withPages.result.perSecond)} req/s while ${fmtInt(ingest.withPages.views)} page views a ` +
        `second are served (${fmtRatio(ingestRatio)}, the median of ${ingest.ratios.length} pairs of rounds in ` +
        `alternating order: ${ingest.ratios.map(fmtRatio).join(', ')}; target ≥ ${INGEST_TARGET}x: ` +
        `${ingestRatio >= INGEST_TARGET ? 'met' : 'not met'}). In that pair, alone ${perUpload(ingest.alone)}; ` +
        `beside the pages ${perUpload(ingest.withPages)}, and the audience's own process ` +
        `${((ingest.withPages.reader / SECONDS) * 100).toFixed(1)} % of a core. With pages read as fast as 8 ` +
        `connections can (a load test, not an audience): ${fmtInt(ingest.unbounded.perSecond)} req/s ` +
        `(${fmtRatio(ingest.unbounded.perSecond / ingest.alone.result.perSecond)}), the two sharing the same 2 cores.`
      : '',
  ].join(' ');
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(`\n${md}\n\n${sizeMd}\n\n${verdict}\n\n(${elapsed} s)\n`);
  if (WRITE) {
    await writeSection(
      '## Public site',
      [
        machine,
        '',
        `\`npm run bench:site\` (${elapsed} s): ${PLAYERS.toLocaleString('en-US')} players × ${STATS} statistics on ` +
          `PostgreSQL, the site on with ${FEATURED} featured statistics. ${SECONDS} s per case at ${CONNECTIONS} ` +
          `connections (${WRK_NOTE}), the median of ${ROUNDS} rounds after ${WARMUP} s of warm-up; @fastify/static ` +
          "serves each page's bytes saved as files, in its own process, in the same rounds. The not-cached " +
          `cases alternate, API and page, in ${ROUNDS} rounds after their warm-up (the ratio is the median round's), ` +
          'each request a player drawn at random from all of them, on an instance with no player cache (the ' +
          `mod-shaped players' on one with no page cache either: ${fmtInt(MOD_PLAYERS)} players' pages would be ` +
          'read several times each within their 30 s). ' +
          `Uploads use ${LEAN_NOTE}, in ${UPLOAD_ROUNDS} pairs of rounds (alone, beside the pages) whose order ` +
          `alternates; the audience reading the pages beside them (${READ_RATE} page views a second on a clock, ` +
          'kept-alive connections asking for gzip as browsers do) is a lean client in a process of its own, started ' +
          'before each round (bench/site/paced-reader.ts).',
        '',
        md,
        '',
        sizeMd,
        '',
        verdict,
      ].join('\n'),
    );
    log('wrote "## Public site" in BENCHMARKS.md');
  }
}

await main();
