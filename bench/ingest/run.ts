/**
 * Ingest benchmark: mod-like batches against the running service (PostgreSQL and PGlite), in a workspace with two
 * servers where half the players play on both (issue 29), each case beside a "ceiling" measured in the same run:
 * `upsertRaw(…, true)` of bench/lib/raw-sql.ts, one multi-row INSERT … ON CONFLICT per batch with the same rows in
 * the same order into a plain table that carries the indexes a leaderboard store needs (the key, a player's
 * values, the board's order by value), sent straight to the database with `pg` at the same concurrency, in a
 * second database. The plain table with its key alone (issue 16's ceiling) is a diagnostic line.
 *
 *   npm run bench:ingest                      # writes "## Statboard ingest" of BENCHMARKS.md
 *   BENCH_SECONDS=10 BENCH_BATCHES=0,1,20,100 BENCH_CONCURRENCY=4,16 BENCH_PGLITE_CONCURRENCY=4,16 BENCH_DB=pg,pglite BENCH_WRITE=0 \
 *     npm run bench:ingest
 *   BENCH_SERVERS=1 …                         # one server, every player on it (the setup before issue 29)
 *   BENCH_DIAGNOSTICS=0 …                     # the cases only (no writer-alone and ceiling variants)
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChangeBus } from '../../apps/statboard/src/cache/bus.ts';
import { type IngestItem, IngestWriter } from '../../apps/statboard/src/modules/ingest/writer.ts';
import { LeaderWatch } from '../../apps/statboard/src/modules/webhooks/leaders.ts';
import { Outbox } from '../../apps/statboard/src/modules/webhooks/outbox.ts';
import { insertWebhook } from '../../apps/statboard/src/modules/webhooks/repo.ts';
import { WEBHOOK_EVENTS } from '../../apps/statboard/src/modules/webhooks/schemas.ts';
import { WebhookSubscriptions } from '../../apps/statboard/src/modules/webhooks/subscriptions.ts';
import { type RunningServer, startServer } from '../lib/child.ts';
import { LEAN_NOTE, loopLoad, postLoad } from '../lib/load.ts';
import { BackendPids, createDatabase, type ScratchDatabase } from '../lib/pg.ts';
import { CpuMeter, RssSampler } from '../lib/proc.ts';
import { openRawSide } from '../lib/raw-side.ts';
import { type RawValue, upsertRaw } from '../lib/raw-sql.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import {
  type BenchWorkspace,
  type DbTarget,
  openTarget,
  READY_PATH,
  SERVICE_SCRIPT,
  seedStatboard,
  serviceEnv,
} from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, fmtRatio, table } from '../lib/stats.ts';
import {
  BENCH_SERVERS,
  type BenchPlayer,
  makePlayers,
  modBatch,
  nextServer,
  nextStats,
  randomInt,
  STAT_KEYS,
} from '../lib/traffic.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Service and raw are measured back to back this many times per case; the row is the round with the median ratio. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds of the interleaved writer variants (history, webhooks): small differences need more of them. */
const DIAGNOSTIC_ROUNDS = Math.max(ROUNDS, 5);
/** The service's write slots on PostgreSQL (IngestService). */
const SERVICE_WRITE_SLOTS = 2;
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '4,32').split(',').map(Number);
/** PGlite has one connection (a FIFO lock), so one high concurrency says enough and keeps the run short. */
const PGLITE_CONCURRENCIES = (process.env.BENCH_PGLITE_CONCURRENCY ?? String(Math.max(...CONCURRENCIES)))
  .split(',')
  .map(Number);
const DATABASES = (process.env.BENCH_DB ?? 'pg,pglite').split(',') as ('pg' | 'pglite')[];
const WRITE = process.env.BENCH_WRITE !== '0';
const PLAYERS = 2_000;
/** Servers of the workspace (1 or 2): with 2, half the players play on both, the other half on one each. */
const SERVERS = Math.min(Math.max(Number(process.env.BENCH_SERVERS ?? 2), 1), BENCH_SERVERS.length);
/** The writer-alone and ceiling variants, and the one-server case (PostgreSQL); 0 skips them. */
const DIAGNOSTICS = process.env.BENCH_DIAGNOSTICS !== '0';
/** Stats per batch; 0 is a heartbeat (`stats: []`). */
const BATCH_SIZES = (process.env.BENCH_BATCHES ?? '0,1,20,100').split(',').map(Number);

interface Row {
  db: 'pg' | 'pglite';
  batch: number;
  conns: number;
  service: CaseResult;
  /** Cores used during the case: the service process, and PostgreSQL's backends (pg only). */
  serviceCores: number;
  pgCores: number | null;
  /** Cores of the load generator (this process) during the service case, and of the raw client. */
  genCores: number;
  rss: number;
  raw: CaseResult | null;
  rawCores: number | null;
  rawClientCores: number | null;
  /** service/raw of every round (sorted), for the spread. */
  ratios: number[];
}

const HISTORY_OFF =
  'service writer alone, 2 write slots, history off (HISTORY_ENABLED=false: the writer before history)';
const HISTORY_ON = 'service writer alone, 2 write slots, history on, observations as the mod sends them (the default)';
const HOOKED =
  'service writer alone, 2 write slots, history on, one webhook subscribed to every event (new players and leader changes looked for, as the service)';
const HOOKED_RACE =
  'service writer alone, 2 write slots, history on, one webhook subscribed to every event, players of level standing racing for rank 1 (a leader change in most statements)';
const HISTORY_EVERY =
  'service writer alone, 2 write slots, history on, every batch an hour after the last (a point for every value replaced)';

const RAW_PLAIN =
  "raw, into the plain table with its key alone (issue 16's ceiling: no index on the values, so updates are HOT)";
const RAW_ASYNC = 'ceiling, synchronous_commit = off (no WAL flush wait per commit)';
const ONE_SERVER =
  'service over HTTP, only the players who play on one server (their network total is their one server row)';

/** Extra cases at 20 stats per batch and the highest concurrency that show where the time goes (PostgreSQL). */
interface Diagnostic {
  what: string;
  result: CaseResult;
  pgCores: number;
  /** `leaderboard.leader_changed` events stored per second (the webhook variants). */
  leaderChanges?: number;
  /**
   * Against the writer with history and no integrations run just before it in the same round, every round
   * (sorted): paired, so that the machine's drift between rounds cancels out.
   */
  pairedRatios?: number[];
  /** The ceiling measured right after it (the one-server case). */
  ceiling?: CaseResult;
}

/**
 * What the service wrote over its whole run (warm-up and every case, PostgreSQL's statistics read after it
 * stopped), per batch and per value, and what screening held: where the rest of the time goes.
 */
interface Anatomy {
  batches: number;
  values: number;
  /** Committed transactions of the service's database. */
  commits: number;
  /** Per table: rows inserted, updated, of them HOT (no new index entries), and its indexes. */
  tables: Map<string, { ins: number; upd: number; hot: number; indexes: number }>;
  /** Values held for review by rule, and rejections (and notes) by code. */
  held: Map<string, number>;
  rejections: Map<string, number>;
}

function log(msg: string): void {
  process.stderr.write(`[bench:ingest] ${msg}\n`);
}

/** The ceiling side: the same players, servers and keys, and one upsert per batch. */
interface Raw {
  /** The ceiling: one batch of `n` rows for a random player on loop `loop`'s connection, into the indexed table. */
  batch(loop: number, n: number): Promise<void>;
  /** The same into the plain table with its key alone (issue 16's ceiling; a diagnostic). */
  batchPlain(loop: number, n: number): Promise<void>;
  /** One batch of `n` rows for every player and server it plays on, into both tables (the service's warm-up). */
  warm(n: number): Promise<void>;
  /** Runs a statement on every connection (e.g. `SET synchronous_commit = off`). */
  setAll(sql: string): Promise<void>;
  connect(concurrency: number): Promise<void>;
  close(): Promise<void>;
}

async function prepareRaw(target: DbTarget, players: BenchPlayer[]): Promise<Raw> {
  const side = await openRawSide(target);
  // Players of their own (the same servers and standing), so that the service's counters are not moved.
  const rawPlayers = players.map((p) => ({ ...p, counters: [...p.counters], uploads: 0 }));
  // The batch's rows (player, key, value, observed_at): the ceiling's tables keep one value per player and key,
  // so the two servers of a player write the same rows (the service keeps a row per server besides the total).
  const rows = (p: BenchPlayer, server: number, n: number): RawValue[] => {
    const observedAt = new Date();
    // Sorted by key, as the writer sorts a player's rows, for the same lock order.
    return nextStats(p, n, server)
      .map((s) => ({ player: p.uuid, key: s.key, value: s.value, observedAt }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
  };
  const rowsFor = (n: number): RawValue[] => {
    const p = rawPlayers[randomInt(rawPlayers.length)]!;
    return rows(p, nextServer(p), n);
  };
  const pairs = rawPlayers.flatMap((p) => p.servers.map((server) => ({ p, server })));
  const warmOn = async (loops: number, upsert: (loop: number, r: RawValue[]) => Promise<void>, n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: loops }, async (_, loop) => {
        while (next < pairs.length) {
          const { p, server } = pairs[next++]!;
          await upsert(loop, rows(p, server, n));
        }
      }),
    );
  };

  const both = async (loop: number, r: RawValue[]) => {
    await upsertRaw(side.conn(loop), r, true);
    await upsertRaw(side.conn(loop), r);
  };
  return {
    connect: (concurrency) => side.connect(concurrency),
    batch: (loop, n) => upsertRaw(side.conn(loop), rowsFor(n), true),
    batchPlain: (loop, n) => upsertRaw(side.conn(loop), rowsFor(n)),
    // PGlite has one connection: its warm-up runs on one loop.
    warm: (n) => warmOn('url' in target ? side.loops() : 1, both, n),
    setAll: (sql) => side.setAll(sql),
    close: () => side.close(),
  };
}

/**
 * Sends one batch of `n` stats for every player on every server it plays on, 16 at a time (creates the players
 * and their server rows, warms the JIT). Honest uploads, so that screening holds none: in descending order of the
 * player's counter there, so that a player new to a server never enters the top 10 of a board that already has
 * 20 players (`first_sight`), as on a network that filled up over time.
 */
async function warmService(url: string, token: string, players: BenchPlayer[], n: number): Promise<void> {
  const pairs = players
    .flatMap((p) => p.servers.map((server) => ({ p, server })))
    .sort((a, b) => b.p.counters[b.server]! - a.p.counters[a.server]!);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < pairs.length) {
        const { p, server } = pairs[next++]!;
        const res = await fetch(`${url}/api/v1/ingest/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: modBatch(p, n, server),
        });
        if (res.status !== 200) throw new Error(`warm-up batch answered ${res.status}: ${await res.text()}`);
      }
    }),
  );
}

/** What IngestService hands to its writer for one mod batch: through the player's servers in turn, as over HTTP. */
function writerItem(ws: BenchWorkspace, p: BenchPlayer, n: number): IngestItem {
  const server = nextServer(p);
  return {
    workspaceId: ws.workspaceId,
    seasonId: ws.seasonId,
    serverId: ws.serverIds[server]!,
    player: { uuid: p.uuid, username: p.username },
    sessionId: p.sessions[server]!,
    observedAt: new Date(),
    client: { modVersion: '1.2.0', gameVersion: '1.21.4', loaderVersion: '0.16.9' },
    stats: nextStats(p, n, server),
    events: [],
  };
}

/** Tables one batch writes (ingest/repo.ts `writeGroup`). */
const WRITTEN_TABLES = [
  'server_stats',
  'player_stats',
  'stat_history',
  'server_stat_history',
  'players',
  'game_sessions',
];

type AnatomyRead = Omit<Anatomy, 'batches' | 'values'>;

/**
 * The service database's counters: PostgreSQL's statistics of the tables a batch writes and its commits
 * (PostgreSQL only: PGlite's are not kept), the values screening held (the review queue) and the rejections.
 */
async function readAnatomy(target: DbTarget, kind: 'pg' | 'pglite'): Promise<AnatomyRead> {
  const db = await openTarget(target, 1);
  try {
    const tables = new Map<string, { ins: number; upd: number; hot: number; indexes: number }>();
    let commits = 0;
    if (kind === 'pg') {
      const rows = await db.query<{ t: string; ins: string; upd: string; hot: string; indexes: number }>(
        `SELECT s.relname AS t, s.n_tup_ins AS ins, s.n_tup_upd AS upd, s.n_tup_hot_upd AS hot,
           (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
         FROM pg_stat_user_tables s WHERE s.relname = ANY($1::text[])`,
        [WRITTEN_TABLES],
      );
      for (const r of rows)
        tables.set(r.t, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), indexes: r.indexes });
      const db2 = await db.query<{ n: string }>(
        'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
      );
      commits = Number(db2[0]!.n);
    }
    const held = await db.query<{ k: string; n: number }>(
      'SELECT rule AS k, count(*)::int AS n FROM review_values GROUP BY rule ORDER BY rule',
    );
    const rejections = await db.query<{ k: string; n: number }>(
      'SELECT code AS k, sum(count)::int AS n FROM ingest_rejections GROUP BY code ORDER BY code',
    );
    return {
      commits,
      tables,
      held: new Map(held.map((r) => [r.k, r.n])),
      rejections: new Map(rejections.map((r) => [r.k, r.n])),
    };
  } finally {
    await db.close();
  }
}

/** What the service did between two reads, for `batches` batches carrying `values` values. */
function anatomyBetween(a: AnatomyRead, b: AnatomyRead, batches: number, values: number): Anatomy {
  const tables = new Map<string, { ins: number; upd: number; hot: number; indexes: number }>();
  for (const [t, x] of b.tables) {
    const y = a.tables.get(t) ?? { ins: 0, upd: 0, hot: 0 };
    tables.set(t, { ins: x.ins - y.ins, upd: x.upd - y.upd, hot: x.hot - y.hot, indexes: x.indexes });
  }
  return { batches, values, commits: b.commits - a.commits, tables, held: b.held, rejections: b.rejections };
}

async function benchDatabase(
  kind: 'pg' | 'pglite',
): Promise<{ rows: Row[]; diagnostics: Diagnostic[]; anatomy: Anatomy }> {
  const players = makePlayers(PLAYERS, 'varied', SERVERS);
  const scratch: ScratchDatabase[] = [];
  const dirs: string[] = [];
  let svcTarget: DbTarget;
  let rawTarget: DbTarget;
  if (kind === 'pg') {
    const a = await createDatabase('statboard_bench_ingest');
    const b = await createDatabase('statboard_bench_raw');
    scratch.push(a, b);
    svcTarget = { url: a.url };
    rawTarget = { url: b.url };
  } else {
    const a = await mkdtemp(join(tmpdir(), 'statboard-bench-ingest-'));
    const b = await mkdtemp(join(tmpdir(), 'statboard-bench-raw-'));
    dirs.push(a, b);
    svcTarget = { dataDir: a };
    rawTarget = { dataDir: b };
  }
  let server: RunningServer | null = null;
  let raw: Raw | null = null;
  const svcBackends = kind === 'pg' ? new BackendPids(scratch[0]!.name) : null;
  const rawBackends = kind === 'pg' ? new BackendPids(scratch[1]!.name) : null;
  try {
    log(`${kind}: seeding`);
    const ws = await seedStatboard(svcTarget, undefined, { servers: SERVERS });
    raw = await prepareRaw(rawTarget, players);
    // The service's database after seeding (its connections closed, so its statistics are complete).
    const before = await readAnatomy(svcTarget, kind);
    server = await startServer(SERVICE_SCRIPT, serviceEnv(svcTarget), READY_PATH);
    const srv = server;
    log(
      `${kind}: service pid ${srv.pid} at ${srv.url}; warming up (every player once on each of its servers, and ` +
        `all ${STAT_KEYS.length} keys)`,
    );
    await warmService(srv.url, ws.clientToken, players.slice(0, 1), STAT_KEYS.length);
    await warmService(srv.url, ws.clientToken, players, 20);
    let batches = players[0]!.servers.length + players.reduce((n, p) => n + p.servers.length, 0);
    let values = players[0]!.servers.length * STAT_KEYS.length + (batches - players[0]!.servers.length) * 20;
    await raw.connect(8);
    await raw.warm(20);

    const rows: Row[] = [];
    for (const batch of BATCH_SIZES) {
      for (const conns of kind === 'pg' ? CONCURRENCIES : PGLITE_CONCURRENCIES) {
        const rounds: Row[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          // The service…
          const svcCpu = new CpuMeter(() => [srv.pid]);
          const pgCpu = new CpuMeter(() => svcBackends?.list() ?? []);
          const genCpu = new CpuMeter(() => [process.pid]);
          await svcCpu.start();
          await pgCpu.start();
          await genCpu.start();
          const rss = new RssSampler(srv.pid);
          // POSTs with a body each (a random player's batch): the lean client.
          const service = await postLoad({
            url: `${srv.url}/api/v1/ingest/batch`,
            connections: conns,
            seconds: SECONDS,
            headers: { authorization: `Bearer ${ws.clientToken}`, 'content-type': 'application/json' },
            body: () => {
              const p = players[randomInt(players.length)]!;
              return modBatch(p, batch, nextServer(p));
            },
          });
          batches += service.ok + service.failed;
          values += (service.ok + service.failed) * batch;
          const maxRss = rss.stop();
          const serviceCores = (await svcCpu.stop()) / service.seconds;
          const genCores = (await genCpu.stop()) / service.seconds;
          const pgCores = kind === 'pg' ? (await pgCpu.stop()) / service.seconds : null;
          if (service.failed > 0) log(`  ! service answered non-2xx/errors: ${JSON.stringify(service.statuses)}`);

          // …and the raw ceiling right after, at the same concurrency.
          let rawResult: CaseResult | null = null;
          let rawCores: number | null = null;
          let rawClientCores: number | null = null;
          if (batch > 0) {
            await raw.connect(conns);
            const meter = kind === 'pg' ? new CpuMeter(() => rawBackends!.list()) : new CpuMeter(() => [process.pid]);
            const clientMeter = new CpuMeter(() => [process.pid]);
            await meter.start();
            await clientMeter.start();
            rawResult = await loopLoad(conns, SECONDS, (loop) => raw!.batch(loop, batch));
            rawCores = (await meter.stop()) / rawResult.seconds;
            rawClientCores = (await clientMeter.stop()) / rawResult.seconds;
            if (rawResult.failed > 0) log(`  ! raw ceiling had ${rawResult.failed} failed statements`);
          }
          rounds.push({
            db: kind,
            batch,
            conns,
            service,
            serviceCores,
            pgCores,
            genCores,
            rss: maxRss,
            raw: rawResult,
            rawCores,
            rawClientCores,
            ratios: [],
          });
        }
        // The round with the median ratio (or throughput, without a raw ceiling) stands for the case.
        const score = (r: Row) => (r.raw ? r.service.perSecond / r.raw.perSecond : r.service.perSecond);
        const sorted = [...rounds].sort((x, y) => score(x) - score(y));
        const row: Row = {
          ...sorted[sorted.length >> 1]!,
          rss: Math.max(...rounds.map((r) => r.rss)),
          ratios: rounds
            .filter((r) => r.raw)
            .map(score)
            .sort((x, y) => x - y),
        };
        rows.push(row);
        log(
          `  ${kind} batch=${batch} conns=${conns}: ${fmtInt(row.service.perSecond)} batches/s ` +
            `p50 ${fmtMs(row.service.p50)} p99 ${fmtMs(row.service.p99)}` +
            (row.raw
              ? ` | raw ${fmtInt(row.raw.perSecond)}/s → ${fmtRatio(row.service.perSecond / row.raw.perSecond)} ` +
                `(rounds ${row.ratios.map(fmtRatio).join(', ')})`
              : '') +
            ` | cores: node ${cores(row.serviceCores)}, PG ${cores(row.pgCores)}, load generator ${cores(row.genCores)}` +
            (row.raw ? `; raw: PG ${cores(row.rawCores)}, client ${cores(row.rawClientCores)}` : ''),
        );
      }
    }
    const diagnostics: Diagnostic[] = [];
    const top = Math.max(...CONCURRENCIES);
    const single = players.filter((p) => p.servers.length === 1);
    if (kind === 'pg' && DIAGNOSTICS && SERVERS > 1 && BATCH_SIZES.includes(20)) {
      // One server: the same case (20 stats, the highest concurrency) with the players who play on one server
      // only, and the ceiling right after it.
      const pgCpu = new CpuMeter(() => svcBackends!.list());
      await pgCpu.start();
      const result = await postLoad({
        url: `${srv.url}/api/v1/ingest/batch`,
        connections: top,
        seconds: SECONDS,
        headers: { authorization: `Bearer ${ws.clientToken}`, 'content-type': 'application/json' },
        body: () => {
          const p = single[randomInt(single.length)]!;
          return modBatch(p, 20, nextServer(p));
        },
      });
      const pgCores = (await pgCpu.stop()) / result.seconds;
      batches += result.ok + result.failed;
      values += (result.ok + result.failed) * 20;
      await raw.connect(top);
      const ceiling = await loopLoad(top, SECONDS, (loop) => raw!.batch(loop, 20));
      diagnostics.push({ what: ONE_SERVER, result, pgCores, ceiling });
      log(
        `  diagnostic ${ONE_SERVER}: ${fmtInt(result.perSecond)} batches/s p99 ${fmtMs(result.p99)} | ceiling ` +
          `${fmtInt(ceiling.perSecond)}/s → ${fmtRatio(result.perSecond / ceiling.perSecond)}`,
      );
    }
    // The service stops here (the variants below run in this process): its connections close, so PostgreSQL's
    // statistics of its database are complete, and its screening counts are flushed.
    await srv.stop();
    server = null;
    // A backend writes its statistics as it exits, after its client has gone.
    for (let i = 0; i < 100 && (await svcBackends?.list())?.length; i++) await sleep(50);
    const after = await readAnatomy(svcTarget, kind);
    const anatomy = anatomyBetween(before, after, batches, values);
    const held = [...anatomy.held].map(([rule, n]) => `${rule} ${count(n)}`).join(', ');
    const rejected = [...anatomy.rejections].map(([code, n]) => `${code} ${count(n)}`).join(', ');
    log(
      `${kind}: screening held ${held === '' ? 'no value' : `values (${held})`}; rejections and notes: ` +
        `${rejected === '' ? 'none' : rejected}`,
    );
    if (kind === 'pg' && DIAGNOSTICS) {
      const conns = top;
      const measure = async (what: string, backends: BackendPids, fn: (loop: number) => Promise<void>) => {
        const meter = new CpuMeter(() => backends.list());
        await meter.start();
        const result = await loopLoad(conns, SECONDS, fn);
        diagnostics.push({ what, result, pgCores: (await meter.stop()) / result.seconds });
        log(
          `  diagnostic ${what}: ${fmtInt(result.perSecond)} batches/s p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99)}`,
        );
      };
      // The service's write path alone (group commit, one statement per group: players, stats, sessions,
      // events), in this process without HTTP, JSON, validation and authentication.
      const db = await openTarget(svcTarget, 20);
      try {
        for (const slots of [SERVICE_WRITE_SLOTS, conns]) {
          const writer = new IngestWriter(db, ChangeBus.local(), slots);
          await measure(
            `service writer alone, ${slots} write slots${slots === SERVICE_WRITE_SLOTS ? ' (as the service)' : ''}`,
            svcBackends!,
            () => writer.submit(writerItem(ws, players[randomInt(players.length)]!, 20)),
          );
        }
        // History: the writer before it (the same statement without history) against the writer with it, in
        // interleaved rounds (the median round of each): as the mod uploads (observations a minute or so apart, a
        // point per value and hour), and the worst case, every batch an hour after the player's last one (a
        // point for every value written).
        // The worst case has players of its own: its observations lie in the future, which the others' would
        // never overwrite.
        const later = new Map<string, number>();
        const future = Date.now() + 86_400_000;
        const own = makePlayers(PLAYERS);
        // The race has players of its own, all level and ahead: the top of every board changes hands constantly.
        const racing = makePlayers(PLAYERS, 'level');
        const warmWriter = new IngestWriter(db, ChangeBus.local(), SERVICE_WRITE_SLOTS);
        for (const p of [...own, ...racing]) await warmWriter.submit(writerItem(ws, p, 20));
        // Integrations: one enabled webhook subscribed to every event; no sender runs, so deliveries stay queued.
        await insertWebhook(
          db,
          ws.workspaceId,
          { url: 'https://93.184.216.34/hook', description: null, events: [...WEBHOOK_EVENTS], enabled: true },
          'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        );
        const variants: {
          what: string;
          history: boolean;
          hooks?: boolean;
          players: BenchPlayer[];
          at: (p: BenchPlayer) => Date;
        }[] = [
          { what: HISTORY_OFF, history: false, players, at: () => new Date() },
          { what: HISTORY_ON, history: true, players, at: () => new Date() },
          { what: HOOKED, history: true, hooks: true, players, at: () => new Date() },
          { what: HOOKED_RACE, history: true, hooks: true, players: racing, at: () => new Date() },
          {
            what: HISTORY_EVERY,
            history: true,
            players: own,
            at: (p) => {
              const n = (later.get(p.uuid) ?? 0) + 1;
              later.set(p.uuid, n);
              return new Date(future + n * 3_600_000);
            },
          },
        ];
        const results = new Map<string, Diagnostic[]>();
        for (let round = 0; round < DIAGNOSTIC_ROUNDS; round++) {
          for (const v of variants) {
            const bus = ChangeBus.local();
            const writer = new IngestWriter(
              db,
              bus,
              SERVICE_WRITE_SLOTS,
              {
                maxBatches: Number.POSITIVE_INFINITY,
                maxBytes: Number.POSITIVE_INFINITY,
                deadlineMs: 0,
                history: v.history,
              },
              v.hooks ? { leaders: new LeaderWatch(bus, new WebhookSubscriptions(bus)), outbox: new Outbox() } : null,
            );
            const leaderEvents = async () =>
              (
                await db.query<{ n: number }>(
                  "SELECT count(*)::int AS n FROM webhook_messages WHERE type = 'leaderboard.leader_changed'",
                )
              )[0]!.n;
            const eventsBefore = v.hooks ? await leaderEvents() : 0;
            const meter = new CpuMeter(() => svcBackends!.list());
            await meter.start();
            const result = await loopLoad(conns, SECONDS, () => {
              const p = v.players[randomInt(v.players.length)]!;
              return writer.submit({ ...writerItem(ws, p, 20), observedAt: v.at(p) });
            });
            const d: Diagnostic = { what: v.what, result, pgCores: (await meter.stop()) / result.seconds };
            if (v.hooks) d.leaderChanges = ((await leaderEvents()) - eventsBefore) / result.seconds;
            results.set(v.what, [...(results.get(v.what) ?? []), d]);
            log(
              `  diagnostic ${v.what} round ${round + 1}: ${fmtInt(result.perSecond)} batches/s p99 ${fmtMs(result.p99)}`,
            );
          }
        }
        const base = results.get(HISTORY_ON) ?? [];
        for (const v of variants) {
          const rounds = results.get(v.what) ?? [];
          const all = [...rounds].sort((a, b) => a.result.perSecond - b.result.perSecond);
          const median = { ...all[all.length >> 1]! };
          if (v.hooks) {
            median.pairedRatios = rounds
              .map((d, i) => d.result.perSecond / base[i]!.result.perSecond)
              .sort((a, b) => a - b);
            median.leaderChanges = rounds.reduce((n, d) => n + (d.leaderChanges ?? 0), 0) / rounds.length;
          }
          diagnostics.push(median);
        }
      } finally {
        await db.close();
      }
      await raw.connect(conns);
      await measure(RAW_PLAIN, rawBackends!, (loop) => raw!.batchPlain(loop, 20));
      await raw.setAll('SET synchronous_commit = off');
      await measure(RAW_ASYNC, rawBackends!, (loop) => raw!.batch(loop, 20));
    }
    return { rows, diagnostics, anatomy };
  } finally {
    await server?.stop();
    await raw?.close();
    await svcBackends?.close();
    await rawBackends?.close();
    for (const s of scratch) await s.drop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
}

function cores(n: number | null): string {
  return n === null ? '—' : n.toFixed(2);
}

function render(rows: Row[]): string {
  return table(
    [
      'database',
      'stats/batch',
      'conns',
      'batches/s',
      'stat rows/s',
      'p50 ms',
      'p99 ms',
      'ceiling batches/s',
      'ceiling p50 / p99 ms',
      'service/ceiling (rounds)',
      'cores: node / PG / load gen. (ceiling: PG / client)',
      'max RSS',
    ],
    rows.map((r) => [
      r.db === 'pg' ? 'PostgreSQL' : 'PGlite',
      r.batch === 0 ? '0 (heartbeat)' : String(r.batch),
      String(r.conns),
      fmtInt(r.service.perSecond),
      fmtInt(r.service.perSecond * r.batch),
      fmtMs(r.service.p50),
      fmtMs(r.service.p99),
      r.raw ? fmtInt(r.raw.perSecond) : '—',
      r.raw ? `${fmtMs(r.raw.p50)} / ${fmtMs(r.raw.p99)}` : '—',
      r.raw
        ? `**${fmtRatio(r.service.perSecond / r.raw.perSecond)}**` +
          (r.ratios.length > 1 ? ` (${fmtRatio(r.ratios[0]!)}–${fmtRatio(r.ratios[r.ratios.length - 1]!)})` : '')
        : '—',
      r.db === 'pg'
        ? `${cores(r.serviceCores)} / ${cores(r.pgCores)} / ${cores(r.genCores)} (${cores(r.rawCores)} / ${cores(r.rawClientCores)})`
        : `${cores(r.serviceCores)} / — / ${cores(r.genCores)} (ceiling in-process ${cores(r.rawCores)})`,
      `${Math.round(r.rss / 1024 / 1024)} MB`,
    ]),
  );
}

/** A count: 87, 61,613. */
const count = (n: number) => n.toLocaleString('en-US');

/** Per value or per batch, two decimals. */
const per = (n: number, d: number) => (d > 0 ? (n / d).toFixed(2) : '—');

/** Rows written and index entries added, per value, of a table (a HOT update adds no index entry). */
function written(a: Anatomy, t: string): { rows: number; entries: number; hot: number } {
  const x = a.tables.get(t) ?? { ins: 0, upd: 0, hot: 0, indexes: 0 };
  return { rows: x.ins + x.upd, entries: (x.ins + x.upd - x.hot) * x.indexes, hot: x.upd > 0 ? x.hot / x.upd : 0 };
}

/** "Where the rest goes": the CPU of both sides per batch in the 20-stat case, and what the service wrote. */
function restGoes(pg20: Row, a: Anatomy): string {
  const ms = (c: number | null, perSecond: number) => (c === null ? '—' : ((c / perSecond) * 1000).toFixed(2));
  const server = written(a, 'server_stats');
  const network = written(a, 'player_stats');
  const history = written(a, 'stat_history');
  const players = written(a, 'players');
  const sessions = written(a, 'game_sessions');
  const entries = (server.entries + network.entries + history.entries) / a.values;
  const heap = (server.rows + network.rows + history.rows) / a.values;
  return (
    `**Where the rest goes** (PostgreSQL). In the case above PostgreSQL spent ` +
    `${ms(pg20.pgCores, pg20.service.perSecond)} ms of CPU per service batch against ` +
    `${ms(pg20.rawCores, pg20.raw!.perSecond)} ms per ceiling batch, and the service process ` +
    `${ms(pg20.serviceCores, pg20.service.perSecond)} ms (HTTP, JSON, validation, screening, the writer). ` +
    `Over the service's whole run (${fmtInt(a.batches)} batches, ${fmtInt(a.values)} values; PostgreSQL's ` +
    'statistics of its tables, read after it stopped) one value wrote ' +
    `${per(server.rows, a.values)} rows of \`server_stats\` (the player's value on that server; ` +
    `${Math.round(server.hot * 100)} % of its updates HOT, ${a.tables.get('server_stats')?.indexes ?? '?'} indexes), ` +
    `${per(network.rows, a.values)} of \`player_stats\` (the network total the boards read; ` +
    `${Math.round(network.hot * 100)} % HOT, ${a.tables.get('player_stats')?.indexes ?? '?'} indexes) and ` +
    `${per(history.rows, a.values)} history points: ${heap.toFixed(2)} row versions and ${entries.toFixed(1)} ` +
    'index entries per value, where the ceiling writes 1 and 3. One batch also wrote ' +
    `${per(players.rows, a.batches)} \`players\` rows (last seen) and ${per(sessions.rows, a.batches)} ` +
    `\`game_sessions\` rows (the heartbeat; ${per(players.entries + sessions.entries, a.batches)} index entries), ` +
    `and committed ${per(a.commits, a.batches)} transactions (the screening's read of what the player has on that ` +
    "server, and the writer's statement, shared by the batches of a group), where the ceiling commits 1."
  );
}

/** "What limits it", from this run's numbers. */
function analysis(rows: Row[], diagnostics: Diagnostic[], anatomy: Anatomy | undefined): string {
  const conns = Math.max(...CONCURRENCIES);
  const at = (db: Row['db'], batch: number) => rows.find((r) => r.db === db && r.batch === batch && r.conns === conns);
  const out: string[] = ['**What limits it.**'];
  const pg20 = at('pg', 20);
  if (pg20?.raw) {
    const ratio = pg20.service.perSecond / pg20.raw.perSecond;
    out.push(
      `PostgreSQL, 20 stats per batch, ${conns} connections, ${SERVERS} server${SERVERS > 1 ? 's' : ''}: the ` +
        `service reaches ${fmtRatio(ratio)} of the ceiling (target ≥ 0.8x: ${ratio >= 0.8 ? 'met' : 'not met'}). ` +
        'During that case the service process used ' +
        `${cores(pg20.serviceCores)} cores and PostgreSQL ${cores(pg20.pgCores)} of ${availableParallelism()}, ` +
        `while the ceiling alone drove PostgreSQL to ${cores(pg20.rawCores)} cores: ` +
        (pg20.serviceCores + (pg20.pgCores ?? 0) < availableParallelism() * 0.6
          ? 'the service is bound by round trips and commit waits rather than by CPU' +
            (loadavg()[0]! > availableParallelism()
              ? ` (but other processes loaded the machine: load average ${loadavg()[0]!.toFixed(1)} at the end).`
              : '.')
          : 'with the HTTP load generator on the same cores, the machine is CPU-bound: every core-second the ' +
            'service spends on HTTP, JSON and validation (which the raw path does not have) is taken from PostgreSQL.'),
    );
  }
  const writer4 = diagnostics.find((d) => d.what.includes('(as the service)'));
  const writerN = diagnostics.find(
    (d) => d.what.startsWith('service writer') && !d.what.includes('(as the service)') && !d.what.includes('history'),
  );
  if (pg20?.raw && writer4) {
    out.push(
      `The write path alone (IngestWriter in-process, no HTTP) does ${fmtInt(writer4.result.perSecond)} batches/s: ` +
        `HTTP, JSON parsing, validation and authentication (the API key, server and active season come from ` +
        `caches) ${
          pg20.service.perSecond <= writer4.result.perSecond
            ? `take the service from there to ${fmtInt(pg20.service.perSecond)}`
            : `should cost throughput, yet this run measured the service at ${fmtInt(pg20.service.perSecond)}: the two differ by less than the noise of this run`
        }. The writer itself is at ${fmtRatio(writer4.result.perSecond / pg20.raw.perSecond)} ` +
        'of the ceiling: a group is one autocommitted statement too (data-modifying CTEs), but it writes each ' +
        'value twice (the row of its server and the network total), one `players` row and one `game_sessions` ' +
        'row per batch (the heartbeat) and the events, and sends the cache NOTIFY for other instances; the ' +
        "ceiling writes the values once. The writer-alone variants send through the players' servers in turn, " +
        'as over HTTP.' +
        (writerN
          ? ` More write slots (${writerN.what.match(/\d+ write slots/)?.[0]}: ${fmtInt(writerN.result.perSecond)} batches/s) ` +
            `change ${Math.abs(writerN.result.perSecond / writer4.result.perSecond - 1) < 0.2 ? 'little' : 'it'}.`
          : ''),
    );
  }
  const off = diagnostics.find((d) => d.what === HISTORY_OFF);
  const on = diagnostics.find((d) => d.what === HISTORY_ON);
  const every = diagnostics.find((d) => d.what === HISTORY_EVERY);
  if (off && on && every) {
    const r = on.result.perSecond / off.result.perSecond;
    out.push(
      `**History** (same run, interleaved rounds, the writer alone at 20 stats per batch): with history on, the ` +
        `writer does ${fmtInt(on.result.perSecond)} batches/s against ${fmtInt(off.result.perSecond)} without ` +
        `(${fmtRatio(r)}; target: within 10 %, ${r >= 0.9 ? 'met' : 'not met'}). A point is written only when a ` +
        'value moves into a later hour, so as the mod uploads (every minute or so) the cost is the wider row and ' +
        `returned columns. In the worst case, where every value replaced also writes a point, it does ` +
        `${fmtInt(every.result.perSecond)} batches/s (${fmtRatio(every.result.perSecond / off.result.perSecond)}).`,
    );
  }
  const hooked = diagnostics.find((d) => d.what === HOOKED);
  const race = diagnostics.find((d) => d.what === HOOKED_RACE);
  const paired = (d: Diagnostic) => {
    const r = d.pairedRatios ?? [];
    return { median: r[r.length >> 1] ?? 0, range: r.map((x) => fmtRatio(x)).join(', ') };
  };
  if (on && hooked) {
    const r = paired(hooked);
    out.push(
      `**Webhooks** (same run; each round runs the writer without integrations and then with them, and the ratio ` +
        `is taken within the round, so the machine's drift between rounds cancels out): with one webhook ` +
        `subscribed to every event, the writer does **${fmtRatio(r.median)}** of its throughput without ` +
        `integrations (rounds ${r.range}; target: within 5 %, ${r.median >= 0.95 ? 'met' : 'not met'}), at ` +
        `${(hooked.leaderChanges ?? 0).toFixed(1)} leader changes/s: players of varied standing, as on a real ` +
        'network, where rank 1 rarely changes hands. New players are found by the statement that inserts them; a ' +
        'leader change is looked for only where a value beats the rank 1 the writer remembers, so a batch without ' +
        "one costs a map lookup per value and no SQL, and one with a candidate adds one read of that board's top " +
        '(index) to the same statement.' +
        (race
          ? ` The worst case, players of level standing racing for rank 1 on every board (every counter from the ` +
            `same value, ahead of the others, all growing alike), stores ${fmtInt(race.leaderChanges ?? 0)} ` +
            `leader changes/s, one in most statements: ${fmtRatio(paired(race).median)} (rounds ` +
            `${paired(race).range}). Each change costs its board-top read and two inserted rows (the message ` +
            'and its delivery), about 0.4 ms of the statement (auto_explain).'
          : ''),
    );
  }
  if (pg20?.raw && anatomy) out.push(restGoes(pg20, anatomy));
  const plain = diagnostics.find((d) => d.what === RAW_PLAIN);
  if (pg20?.raw && plain) {
    out.push(
      `**The indexes.** The same upsert into the plain table with its key alone (issue 16's ceiling: nothing ` +
        `indexes the values, so an update is HOT and writes no index entry) does ${fmtInt(plain.result.perSecond)} ` +
        `batches/s using ${cores(plain.pgCores)} PostgreSQL cores; the ceiling's indexes (every changed value a ` +
        `non-HOT update with three new index entries) take it to ${fmtRatio(pg20.raw.perSecond / plain.result.perSecond)} ` +
        `of that, and the service is at ${fmtRatio(pg20.service.perSecond / plain.result.perSecond)} of it.`,
    );
  }
  const one = diagnostics.find((d) => d.what === ONE_SERVER);
  if (pg20?.raw && one?.ceiling) {
    out.push(
      `**One server or two.** Only the players who play on one server (half of them; their network total is their ` +
        `one server's row), same case: ${fmtInt(one.result.perSecond)} batches/s, ` +
        `${fmtRatio(one.result.perSecond / one.ceiling.perSecond)} of the ceiling measured right after it, against ` +
        `${fmtRatio(pg20.service.perSecond / pg20.raw.perSecond)} with every player. \`BENCH_SERVERS=1\` runs the ` +
        'whole benchmark with one server.',
    );
  }
  const async = diagnostics.find((d) => d.what === RAW_ASYNC);
  if (pg20?.raw && async) {
    out.push(
      `With \`synchronous_commit = off\` the ceiling does ${fmtInt(async.result.perSecond)} batches/s ` +
        `(${fmtRatio(async.result.perSecond / pg20.raw.perSecond)} of the durable one): that is the share of ` +
        'waiting for the WAL flush at commit.',
    );
  }
  const lite20 = at('pglite', 20);
  const lite1 = at('pglite', 1);
  if (lite20?.raw && lite1?.raw) {
    out.push(
      `PGlite: ${fmtRatio(lite20.service.perSecond / lite20.raw.perSecond)} at 20 and ` +
        `${fmtRatio(lite1.service.perSecond / lite1.raw.perSecond)} at 1 stat per batch. Its single connection ` +
        'is a FIFO lock and PostgreSQL runs as WASM inside the service process, so HTTP, JSON and the database ' +
        'share one Node.js thread; small batches suffer most. The service process holds the database in memory ' +
        '(see RSS).',
    );
  }
  return out.join(' ');
}

/** Whether screening held anything (it should not: the uploads are honest), per database. */
function screeningLine(anatomies: Map<'pg' | 'pglite', Anatomy>): string {
  const parts = [...anatomies].map(([kind, a]) => {
    const held = [...a.held].map(([rule, n]) => `${count(n)} by \`${rule}\``).join(', ');
    const notes = [...a.rejections].map(([code, n]) => `${code} ${count(n)}`).join(', ');
    return (
      `${kind === 'pg' ? 'PostgreSQL' : 'PGlite'}: ${held === '' ? 'no value held' : `values held: ${held}`}` +
      (notes === '' ? '' : ` (rejections and notes: ${notes})`)
    );
  });
  return (
    '**Screening.** Every upload is honest (a counter per player and server that grows by 1 an upload, first ' +
    `uploads to a server in descending order), so the screening stage passes them all: ${parts.join('; ')}.`
  );
}

async function main(): Promise<void> {
  const machine = await machineLine();
  log(machine);
  const started = performance.now();
  const rows: Row[] = [];
  const diagnostics: Diagnostic[] = [];
  const anatomies = new Map<'pg' | 'pglite', Anatomy>();
  for (const kind of DATABASES) {
    const out = await benchDatabase(kind);
    rows.push(...out.rows);
    diagnostics.push(...out.diagnostics);
    anatomies.set(kind, out.anatomy);
  }
  let md = render(rows);
  if (diagnostics.length > 0) {
    const conns = Math.max(...CONCURRENCIES);
    const http = rows.find((r) => r.db === 'pg' && r.batch === 20 && r.conns === conns);
    const rawRow = http?.raw;
    md += `\n\nWhere the time goes (PostgreSQL, 20 stats per batch, ${conns} concurrent):\n\n`;
    md += table(
      ['path', 'batches/s', 'p50 ms', 'p99 ms', 'PG cores'],
      [
        ...(http
          ? [
              [
                'service over HTTP (above)',
                fmtInt(http.service.perSecond),
                fmtMs(http.service.p50),
                fmtMs(http.service.p99),
                cores(http.pgCores),
              ],
            ]
          : []),
        ...diagnostics.map((d) => [
          d.ceiling ? `${d.what}; ceiling right after: ${fmtInt(d.ceiling.perSecond)}` : d.what,
          fmtInt(d.result.perSecond),
          fmtMs(d.result.p50),
          fmtMs(d.result.p99),
          cores(d.pgCores),
        ]),
        ...(rawRow && http
          ? [['ceiling (above)', fmtInt(rawRow.perSecond), fmtMs(rawRow.p50), fmtMs(rawRow.p99), cores(http.rawCores)]]
          : []),
      ],
    );
  }
  const pgAnatomy = anatomies.get('pg');
  if (pgAnatomy && pgAnatomy.tables.size > 0) {
    md += `\n\nWhat the service wrote (PostgreSQL, its whole run: ${fmtInt(pgAnatomy.batches)} batches, ${fmtInt(pgAnatomy.values)} values):\n\n`;
    md += table(
      ['table', 'rows inserted', 'rows updated', 'of them HOT', 'indexes', 'rows per batch', 'rows per value'],
      WRITTEN_TABLES.filter((t) => pgAnatomy.tables.has(t)).map((t) => {
        const x = pgAnatomy.tables.get(t)!;
        return [
          `\`${t}\``,
          count(x.ins),
          count(x.upd),
          count(x.hot),
          String(x.indexes),
          per(x.ins + x.upd, pgAnatomy.batches),
          per(x.ins + x.upd, pgAnatomy.values),
        ];
      }),
    );
  }
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(`\n${md}\n\n(${elapsed} s)\n`);
  if (WRITE) {
    await writeSection(
      '## Statboard ingest',
      [
        machine,
        '',
        `\`npm run bench:ingest\` (${elapsed} s). ${PLAYERS.toLocaleString('en-US')} players, ` +
          (SERVERS > 1
            ? `two servers in the workspace (${BENCH_SERVERS.map((b) => `${b.hostname}:${b.port}`).join(', ')}): ` +
              'half the players play on both (their batches alternate between them), the other half on one each, ' +
              'split evenly; a counter per player and server that only grows, one game session per server. '
            : 'one server, every player on it with one game session. ') +
          `Batches exactly as the Fabric mod sends them over ${STAT_KEYS.length} distinct keys, ${SECONDS} s per case, ` +
          `keep-alive HTTP with one request in flight per connection (${LEAN_NOTE}). The "ceiling" = the same ` +
          "multi-row `INSERT … ON CONFLICT (key, player) DO UPDATE SET value = excluded.value, observed_at = excluded.observed_at, updated_at = (now() if the value changed) WHERE excluded.observed_at >= t.observed_at` into a plain table `(player uuid, key text, value float8, observed_at timestamptz, updated_at timestamptz)` that carries the indexes a leaderboard store needs (its key `(key, player)`, a player's values `(player)`, the board's order `(key, value DESC, updated_at)`), one statement per batch with the batch's rows in the same order (a player's two servers write the same rows: the table keeps one value per player and key), sent straight to the database with `pg` over " +
          'as many connections from this process (PGlite: in-process through the same `Db`), in a second database. Each case is ' +
          `${ROUNDS} rounds of service then ceiling, back to back; the row is the round with the median ratio, the ` +
          'range in brackets. "cores" = CPU seconds per wall second of the service process, of the PostgreSQL ' +
          'backends serving it and of the load generator (and of the backends and the client of the ceiling). ' +
          'RSS = maximum VmRSS of the service process. The service runs at its default configuration, with its ' +
          'in-process rate limiter on (a limit no client reaches).',
        '',
        md,
        '',
        analysis(rows, diagnostics, anatomies.get('pg')),
        '',
        screeningLine(anatomies),
      ].join('\n'),
    );
    log('wrote "## Statboard ingest" in BENCHMARKS.md');
  }
}

await main();
