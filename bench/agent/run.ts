/**
 * Agent benchmark (issue 30, "Speed"), two parts.
 *
 * 1. Uploads: `POST /ingest/server` with 500 players × 100 values per request (what statboard-agent sends after a
 *    server's autosave), BENCH_REQUESTS requests one after the other, against the indexed plain upsert of the same
 *    rows (bench/lib/raw-sql.ts `upsertRaw(…, indexed)` into `bench_raw_indexed`, a second database: one statement
 *    per player's 100 rows, sorted by key, over BENCH_CONCURRENCY `pg` connections, as bench/ingest sends one
 *    upsert per batch; on PGlite in-process through the service's Db), and against `POST /ingest/batch` of the
 *    same values (one batch of 100 per player, as the mods would send them, BENCH_CONCURRENCY at a time). The three
 *    alternate round by round, every value changed each round, round 0 (the inserts) not counted. Target: the
 *    server's uploads at ≥ 0.8x the indexed upsert's values per second. CPU per value: the service's process and
 *    its PostgreSQL backends (bench/lib/proc.ts CpuMeter, BackendPids); the upsert's backends and client.
 * 2. Watching: a server folder in a temporary directory (bench/lib/world.ts: server.properties, usercache.json,
 *    world/stats/<uuid>.json of BENCH_AGENT_PLAYERS players with 100–200 of the game's statistics each), the
 *    service seeded with an `ingest:server` key, and the agent started as an operator starts it: the package's bin
 *    through node, STATBOARD_KEY in its environment, `--server-dir DIR --url URL`, no RCON. Measured from its log
 *    (one line per upload): the first scan (from the start of the process until every player was uploaded), the
 *    agent's CPU and peak RSS then; an idle BENCH_AGENT_IDLE_SECONDS (its 15 s scans of an unchanged folder): CPU and
 *    RSS; then BENCH_AGENT_CHANGED files rewritten with grown values (an autosave): the time until they were
 *    uploaded, and the CPU meanwhile. On the first database of BENCH_DB that is PostgreSQL (else the first).
 *
 *   npm run bench:agent                       # writes "## Statboard agent" of BENCHMARKS.md
 *   BENCH_PARTS=watch …                        # one part only (uploads, watch)
 *   BENCH_DB=pg BENCH_ROUNDS=1 BENCH_REQUESTS=1 BENCH_AGENT_PLAYERS=200 BENCH_AGENT_IDLE_SECONDS=5 BENCH_WRITE=0 \
 *     npm run bench:agent                     # a smoke run
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../apps/statboard/src/config.ts';
import { CLI_ACTOR as ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { ROOT, startServer } from '../lib/child.ts';
import { BackendPids, createDatabase, type ScratchDatabase } from '../lib/pg.ts';
import { CpuMeter, cpuSeconds, peakRssBytes, rssBytes } from '../lib/proc.ts';
import { openRawSide, type RawSide } from '../lib/raw-side.ts';
import { type RawValue, upsertRaw } from '../lib/raw-sql.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type DbTarget, READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { fmtInt, fmtRatio, table } from '../lib/stats.ts';
import { writeServerFolder } from '../lib/world.ts';

const DATABASES = (process.env.BENCH_DB ?? 'pg,pglite').split(',') as ('pg' | 'pglite')[];
/** Which parts run: `uploads`, `watch` (both by default). */
const PARTS = (process.env.BENCH_PARTS ?? 'uploads,watch').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests of 500 players per round (the upserts and the batches: the same values). */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const AGENT_PLAYERS = Number(process.env.BENCH_AGENT_PLAYERS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_AGENT_IDLE_SECONDS ?? 60);
const CHANGED = Math.min(AGENT_PLAYERS, Number(process.env.BENCH_AGENT_CHANGED ?? 100));
const WRITE = process.env.BENCH_WRITE !== '0';
const PLAYERS = 500;
const STATS = 100;
const AGENT_BIN = join(ROOT, 'packages/agent/bin/statboard-agent.mjs');

function log(msg: string): void {
  process.stderr.write(`[bench:agent] ${msg}\n`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number | null) => (bytes === null ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`);
const secs = (s: number) => `${s.toFixed(s < 10 ? 2 : 1)} s`;
/** CPU seconds per value, in microseconds. */
const us = (cpu: number, values: number) => (values > 0 ? (cpu / values) * 1e6 : Number.NaN);
const fmtUs = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

interface Player {
  uuid: string;
  name: string;
  session: string;
}

const KEYS = Array.from({ length: STATS }, (_, s) =>
  s % 2 === 0 ? `minecraft.custom:minecraft.stat_${s}` : `minecraft.mined:minecraft.block_${s}`,
);
/** The keys with their index, sorted: the upsert's rows in the writer's lock order. */
const SORTED_KEYS = KEYS.map((key, s) => [key, s] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));

function statsOf(round: number, p: number): { key: string; value: number }[] {
  return KEYS.map((key, s) => ({ key, value: round * 1_000 + p + s }));
}

async function post(url: string, token: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
}

/** Runs `work` on CONCURRENCY loops until every job is done. */
async function pool<T>(jobs: T[], work: (job: T, loop: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      while (next < jobs.length) await work(jobs[next++]!, loop);
    }),
  );
}

/** The server's way: REQUESTS requests of 500 players, one after the other (as the agent sends). Values/s. */
async function serverRound(base: string, token: string, groups: Player[][], round: number): Promise<number> {
  const started = performance.now();
  for (const players of groups) {
    await post(`${base}/api/v1/ingest/server`, token, {
      observed_at: new Date().toISOString(),
      players: players.map((p, i) => ({ uuid: p.uuid, username: p.name, stats: statsOf(round, i) })),
    });
  }
  return (groups.length * PLAYERS * STATS) / ((performance.now() - started) / 1000);
}

/** The indexed plain upsert of the same rows: one statement per player, CONCURRENCY connections. Values/s. */
async function rawRound(raw: RawSide, groups: Player[][], round: number): Promise<number> {
  const observedAt = new Date();
  const statements: RawValue[][] = groups.flatMap((players) =>
    players.map((p, i) =>
      SORTED_KEYS.map(([key, s]) => ({ player: p.uuid, key, value: round * 1_000 + i + s, observedAt })),
    ),
  );
  const started = performance.now();
  await pool(statements, (rows, loop) => upsertRaw(raw.conn(loop), rows, true));
  return (statements.length * STATS) / ((performance.now() - started) / 1000);
}

/** The mods' way: the same values as one batch per player, CONCURRENCY at a time. Values/s. */
async function batchRound(base: string, token: string, groups: Player[][], round: number): Promise<number> {
  const bodies = groups.flatMap((players) =>
    players.map((p, i) => ({
      protocol_version: 1,
      client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
      player: { uuid: p.uuid, username: p.name },
      server: { hostname: 'mc.example.com', port: 25565 },
      session_id: p.session,
      observed_at: new Date().toISOString(),
      stats: statsOf(round, i),
      events: [],
    })),
  );
  const started = performance.now();
  await pool(bodies, (body) => post(`${base}/api/v1/ingest/batch`, token, body));
  return (bodies.length * STATS) / ((performance.now() - started) / 1000);
}

/** CPU seconds of each meter's processes while `fn` runs, with what `fn` returns. */
async function withCpu<T>(meters: CpuMeter[], fn: () => Promise<T>): Promise<{ result: T; cpu: number[] }> {
  for (const m of meters) await m.start();
  const result = await fn();
  const cpu: number[] = [];
  for (const m of meters) cpu.push(await m.stop());
  return { result, cpu };
}

/** A scratch database or PGlite data directory, and how to remove it. */
async function scratchTarget(
  db: 'pg' | 'pglite',
  tag: string,
): Promise<{ target: DbTarget; name: string | null; drop(): Promise<void> }> {
  if (db === 'pg') {
    const s: ScratchDatabase = await createDatabase(`bench_agent_${tag}`);
    return { target: { url: s.url }, name: s.name, drop: () => s.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), `bench-agent-${tag}-`));
  return { target: { dataDir: dir }, name: null, drop: () => rm(dir, { recursive: true, force: true }) };
}

/** Seeds the service's database with an integration key `ingest:server` restricted to the seeded server. */
async function seedWithAgentKey(target: DbTarget): Promise<{ agentToken: string; clientToken: string }> {
  let agentToken = '';
  const ws = await seedStatboard(target, async (handle, seeded) => {
    const services = buildServices(handle, loadConfig({}));
    const key = await services.keys.create(ACTOR, seeded.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [seeded.serverId],
    });
    agentToken = key.secret;
  });
  return { agentToken, clientToken: ws.clientToken };
}

interface UploadRow {
  cells: string[];
  /** CPU µs per value: the server uploads' node and PG, the upsert's PG and client. */
  serverNode: number;
  serverPg: number;
  rawPg: number;
}

async function uploadCase(db: 'pg' | 'pglite'): Promise<UploadRow> {
  const svc = await scratchTarget(db, 'svc');
  const raw = await scratchTarget(db, 'raw');
  const svcBackends = svc.name ? new BackendPids(svc.name) : null;
  const rawBackends = raw.name ? new BackendPids(raw.name) : null;
  let side: RawSide | null = null;
  let srv: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    log(`${db}: seeding`);
    const { agentToken, clientToken } = await seedWithAgentKey(svc.target);
    side = await openRawSide(raw.target);
    await side.connect(CONCURRENCY);
    srv = await startServer(SERVICE_SCRIPT, serviceEnv(svc.target), READY_PATH);
    const base = srv.url;
    // Separate players for each way, so each writes into the same state (its players exist after round 0).
    const make = (tag: string) =>
      Array.from({ length: REQUESTS }, (_, g) =>
        Array.from({ length: PLAYERS }, (_, i) => ({
          uuid: crypto.randomUUID(),
          name: `${tag}${g}_${i}`.slice(0, 16),
          session: crypto.randomUUID(),
        })),
      );
    const serverPlayers = make('s');
    const batchPlayers = make('b');
    // Round 0 creates the players, definitions and rows; it is not counted.
    log(`${db}: service pid ${srv.pid} at ${base}; round 0 (the inserts)`);
    log(`${db} round 0: server ${fmtInt(await serverRound(base, agentToken, serverPlayers, 0))} values/s`);
    log(`${db} round 0: indexed upsert ${fmtInt(await rawRound(side, serverPlayers, 0))} values/s`);
    log(`${db} round 0: batches ${fmtInt(await batchRound(base, clientToken, batchPlayers, 0))} values/s`);
    // The service's process and its backends; the upsert's backends and this process (its client; on PGlite,
    // the database itself too).
    const service = () => [new CpuMeter(() => [srv!.pid]), new CpuMeter(() => svcBackends?.list() ?? [])];
    const upsert = () => [new CpuMeter(() => rawBackends?.list() ?? []), new CpuMeter(() => [process.pid])];
    const server: number[] = [];
    const upserts: number[] = [];
    const batch: number[] = [];
    const cpu = { serverNode: 0, serverPg: 0, rawPg: 0, rawClient: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const s = await withCpu(service(), () => serverRound(base, agentToken, serverPlayers, round));
      const r = await withCpu(upsert(), () => rawRound(side!, serverPlayers, round));
      const b = await batchRound(base, clientToken, batchPlayers, round);
      server.push(s.result);
      upserts.push(r.result);
      batch.push(b);
      cpu.serverNode += s.cpu[0]!;
      cpu.serverPg += s.cpu[1]!;
      cpu.rawPg += r.cpu[0]!;
      cpu.rawClient += r.cpu[1]!;
      log(
        `${db} round ${round}: server ${fmtInt(s.result)} values/s, indexed upsert ${fmtInt(r.result)}, ` +
          `batches ${fmtInt(b)}`,
      );
    }
    const values = ROUNDS * REQUESTS * PLAYERS * STATS;
    const vsRaw = server.map((s, i) => s / upserts[i]!);
    const vsBatch = server.map((s, i) => s / batch[i]!);
    const row: UploadRow = {
      serverNode: us(cpu.serverNode, values),
      serverPg: us(cpu.serverPg, values),
      rawPg: us(db === 'pg' ? cpu.rawPg : cpu.rawClient, values),
      cells: [],
    };
    row.cells = [
      db === 'pg' ? 'PostgreSQL' : 'PGlite',
      fmtInt(median(server)),
      fmtInt(median(upserts)),
      `**${fmtRatio(median(vsRaw))}**`,
      `${fmtRatio(Math.min(...vsRaw))}–${fmtRatio(Math.max(...vsRaw))}`,
      fmtInt(median(batch)),
      fmtRatio(median(vsBatch)),
      db === 'pg' ? `${fmtUs(row.serverNode)} + ${fmtUs(row.serverPg)}` : `${fmtUs(row.serverNode)} (in-process)`,
      db === 'pg' ? `${fmtUs(row.rawPg)} + ${fmtUs(us(cpu.rawClient, values))}` : `${fmtUs(row.rawPg)} (in-process)`,
    ];
    return row;
  } finally {
    await srv?.stop();
    await side?.close();
    await svcBackends?.close();
    await rawBackends?.close();
    await svc.drop();
    await raw.drop();
  }
}

interface AgentResult {
  db: 'pg' | 'pglite';
  values: number;
  firstScanSeconds: number;
  firstScanCpu: number;
  firstScanPeakRss: number | null;
  serviceCpu: number;
  pgCpu: number;
  idleCpu: number;
  idleRss: number | null;
  idleUploads: number;
  changedSeconds: number | null;
  changedCpu: number | null;
}

/** statboard-agent watching a folder of AGENT_PLAYERS players' files, as an operator runs it. */
async function agentCase(db: 'pg' | 'pglite'): Promise<AgentResult> {
  const svc = await scratchTarget(db, 'watch');
  const backends = svc.name ? new BackendPids(svc.name) : null;
  const dir = await mkdtemp(join(tmpdir(), 'bench-agent-server-'));
  let srv: Awaited<ReturnType<typeof startServer>> | null = null;
  let agent: ReturnType<typeof spawn> | null = null;
  try {
    log(`${db}: writing a server folder of ${AGENT_PLAYERS} players to ${dir}`);
    const world = await writeServerFolder(dir, AGENT_PLAYERS);
    const { agentToken } = await seedWithAgentKey(svc.target);
    srv = await startServer(SERVICE_SCRIPT, serviceEnv(svc.target), READY_PATH);
    const serviceCpu = new CpuMeter(() => [srv!.pid]);
    const pgCpu = new CpuMeter(() => backends?.list() ?? []);
    await serviceCpu.start();
    await pgCpu.start();

    // The agent as an operator starts it; its log says what it uploaded.
    const started = performance.now();
    agent = spawn(process.execPath, [AGENT_BIN, '--server-dir', dir, '--url', srv.url], {
      cwd: ROOT,
      env: { ...process.env, STATBOARD_KEY: agentToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = agent.pid!;
    let uploaded = 0;
    let exited = false;
    const gone = new Promise<void>((resolve) => agent!.once('exit', () => resolve()));
    void gone.then(() => {
      exited = true;
    });
    createInterface({ input: agent.stdout! }).on('line', (line) => {
      const m = / uploaded (\d+) players, \d+ values in/.exec(line);
      if (m) uploaded += Number(m[1]);
      else log(`agent: ${line}`);
    });
    createInterface({ input: agent.stderr! }).on('line', (line) => log(`agent (stderr): ${line}`));
    const until = async (players: number, timeoutMs: number): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (uploaded < players) {
        if (exited) throw new Error('the agent exited');
        if (Date.now() > deadline) throw new Error(`only ${uploaded} of ${players} players uploaded in time`);
        await sleep(20);
      }
    };

    await until(AGENT_PLAYERS, 15 * 60_000);
    const firstScanSeconds = (performance.now() - started) / 1000;
    const firstScanCpu = cpuSeconds(pid) ?? Number.NaN;
    const firstScanPeakRss = peakRssBytes(pid);
    const result: AgentResult = {
      db,
      values: world.values,
      firstScanSeconds,
      firstScanCpu,
      firstScanPeakRss,
      serviceCpu: await serviceCpu.stop(),
      pgCpu: await pgCpu.stop(),
      idleCpu: 0,
      idleRss: null,
      idleUploads: 0,
      changedSeconds: null,
      changedCpu: null,
    };
    log(
      `${db}: first scan ${secs(firstScanSeconds)}, agent CPU ${secs(firstScanCpu)}, peak RSS ${mb(firstScanPeakRss)}`,
    );

    // Idle: nothing changes; the agent scans the folder every 15 s.
    const idleFrom = cpuSeconds(pid) ?? Number.NaN;
    const uploadedBefore = uploaded;
    await sleep(IDLE_SECONDS * 1000);
    result.idleCpu = (cpuSeconds(pid) ?? Number.NaN) - idleFrom;
    result.idleRss = rssBytes(pid);
    result.idleUploads = uploaded - uploadedBefore;
    log(`${db}: idle ${IDLE_SECONDS} s: agent CPU ${secs(result.idleCpu)}, RSS ${mb(result.idleRss)}`);

    // An autosave: CHANGED players' files written again with grown values.
    if (CHANGED > 0) {
      const changedFrom = cpuSeconds(pid) ?? Number.NaN;
      const target = uploaded + CHANGED;
      const t = performance.now();
      for (const p of world.players.slice(0, CHANGED)) await world.play(p.uuid);
      await until(target, 120_000);
      result.changedSeconds = (performance.now() - t) / 1000;
      result.changedCpu = (cpuSeconds(pid) ?? Number.NaN) - changedFrom;
      log(`${db}: ${CHANGED} changed files uploaded after ${secs(result.changedSeconds)}`);
    }
    agent.kill('SIGTERM');
    await gone;
    agent = null;
    return result;
  } finally {
    agent?.kill('SIGKILL');
    await srv?.stop();
    await backends?.close();
    await svc.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

const uploads: UploadRow[] = [];
if (PARTS.includes('uploads')) for (const db of DATABASES) uploads.push(await uploadCase(db));
const agentDb = DATABASES.includes('pg') ? 'pg' : DATABASES[0]!;
const watch = PARTS.includes('watch') && AGENT_PLAYERS > 0 ? await agentCase(agentDb) : null;

const pgRow = uploads.find((_, i) => DATABASES[i] === 'pg');
const whereTime: string[] = [];
if (pgRow) {
  whereTime.push(
    `On PostgreSQL a server upload cost ${fmtUs(pgRow.serverNode)} µs of CPU per value in the service's process ` +
      `and ${fmtUs(pgRow.serverPg)} µs in its PostgreSQL backends, against ${fmtUs(pgRow.rawPg)} µs in the ` +
      "backends for the indexed upsert alone: the difference in the backends is the writer's statement (definitions, " +
      "players, the verified values and what the screening reads), the rest is the service's own work (parsing, " +
      'checking, building the statement).',
  );
}
if (watch) {
  whereTime.push(
    `During the agent's first scan the agent used ${secs(watch.firstScanCpu)} of CPU (${fmtUs(us(watch.firstScanCpu, watch.values))} ` +
      `µs per value: starting node and tsx, reading, parsing and hashing the files, sending JSON), the service ` +
      `${secs(watch.serviceCpu)}` +
      (watch.db === 'pg' ? ` and PostgreSQL ${secs(watch.pgCpu)}.` : ' (with its PGlite).'),
  );
}

const body = [await machineLine()];
if (uploads.length > 0) {
  body.push(
    '',
    `**Uploads.** \`POST /ingest/server\` with ${PLAYERS} players × ${STATS} values per request, ${REQUESTS} requests ` +
      'one after the other (as statboard-agent sends), against the indexed plain upsert of the same rows ' +
      "(bench/lib/raw-sql.ts `upsertRaw` into `bench_raw_indexed`: a plain table with `player_stats`'s three " +
      `indexes, in a second database; one statement per player's ${STATS} rows, ${CONCURRENCY} \`pg\` connections; ` +
      "on PGlite in-process through the service's own `Db`), and against `POST /ingest/batch` of the same values " +
      `(${REQUESTS * PLAYERS} batches of ${STATS}, ${CONCURRENCY} at a time, as mods would send them). The three ` +
      `alternate, ${ROUNDS} rounds, every value changed each round, round 0 (the inserts) not counted; the service as ` +
      "`npm start` runs it. **Target: server uploads ≥ 0.8x the indexed upsert.** CPU per value: the service's " +
      "process + its PostgreSQL backends; the upsert's backends + its client (this process).",
    '',
    table(
      [
        'database',
        'server uploads (values/s)',
        'indexed upsert (values/s)',
        'server / upsert (median)',
        'rounds',
        'batches (values/s)',
        'server / batches',
        'CPU µs/value: server uploads',
        'CPU µs/value: upsert',
      ],
      uploads.map((u) => u.cells),
    ),
  );
}
if (watch) {
  body.push(
    '',
    `**Watching.** statboard-agent beside a server folder of ${fmtInt(AGENT_PLAYERS)} players' files ` +
      `(world/stats/<uuid>.json with 100–200 of the game's statistics each, ${fmtInt(watch.values)} values, and ` +
      "usercache.json; bench/lib/world.ts), started as an operator starts it: the package's bin through node, " +
      `STATBOARD_KEY in its environment, \`--server-dir DIR --url URL\`, no RCON; the service on ` +
      `${watch.db === 'pg' ? 'PostgreSQL' : 'PGlite'}. First scan: from the start of the process until its log ` +
      `counted every player uploaded; CPU of the agent's process (/proc) and its peak RSS (VmHWM). Idle: ` +
      `${IDLE_SECONDS} s with nothing changed (its scans every 15 s). Then ${CHANGED} files written again with ` +
      'grown values (an autosave): the time until the log counted them uploaded.',
    '',
    table(
      [
        'players (values)',
        'first scan',
        'agent CPU',
        'peak RSS',
        `idle ${IDLE_SECONDS} s: CPU`,
        'RSS after idle',
        `${CHANGED} changed files: uploaded after`,
        'agent CPU',
      ],
      [
        [
          `${fmtInt(AGENT_PLAYERS)} (${fmtInt(watch.values)})`,
          secs(watch.firstScanSeconds),
          secs(watch.firstScanCpu),
          mb(watch.firstScanPeakRss),
          secs(watch.idleCpu) + (watch.idleUploads > 0 ? ` (${watch.idleUploads} players uploaded!)` : ''),
          mb(watch.idleRss),
          watch.changedSeconds === null ? '—' : secs(watch.changedSeconds),
          watch.changedCpu === null ? '—' : secs(watch.changedCpu),
        ],
      ],
    ),
  );
}
if (whereTime.length > 0) body.push('', `**Where the time goes.** ${whereTime.join(' ')}`);
process.stdout.write(`${body.join('\n')}\n`);
if (WRITE) await writeSection('## Statboard agent', body.join('\n'));
