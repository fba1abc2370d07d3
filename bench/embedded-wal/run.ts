import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../lib/child.ts';
import { rssBytes } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { makePlayers, modBatch } from '../lib/traffic.ts';

/**
 * The embedded database under steady uploads for a long time: `pg_wal`, the data directory and the service's
 * memory, sampled every minute, then the restart time after a SIGKILL (the WAL replay). Once with the service's
 * periodic checkpoint (the default), once with it off (EMBEDDED_CHECKPOINT_SECONDS=0), for comparison.
 *
 * BENCH_WAL_SECONDS (default 3600) and BENCH_WAL_OFF_SECONDS (default 600) set the two durations;
 * BENCH_WAL_PLAYERS (16) players each upload a batch of BENCH_WAL_STATS (100) changed values every second.
 */
const ON_SECONDS = Number(process.env.BENCH_WAL_SECONDS ?? 3600);
const OFF_SECONDS = Number(process.env.BENCH_WAL_OFF_SECONDS ?? 600);
const PLAYERS = Number(process.env.BENCH_WAL_PLAYERS ?? 16);
const STATS = Number(process.env.BENCH_WAL_STATS ?? 100);
const SAMPLE_MS = 60_000;

const log = (msg: string) => process.stderr.write(`[bench:embedded-wal] ${msg}\n`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

function duBytes(path: string): number {
  try {
    return Number(execFileSync('du', ['-sb', path]).toString().split('\t')[0]);
  } catch {
    return 0;
  }
}

interface Sample {
  minute: number;
  wal: number;
  data: number;
  rss: number;
  batches: number;
}

interface PhaseResult {
  label: string;
  seconds: number;
  batches: number;
  failed: number;
  samples: Sample[];
  maxWal: number;
  restartMs: number;
  walAtKill: number;
}

async function phase(label: string, seconds: number, checkpointSeconds: number): Promise<PhaseResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'statboard-wal-'));
  try {
    const ws = await seedStatboard({ dataDir });
    const env = { ...serviceEnv({ dataDir }), EMBEDDED_CHECKPOINT_SECONDS: String(checkpointSeconds) };
    const server = await startServer(SERVICE_SCRIPT, env, READY_PATH);
    log(`${label}: service pid ${server.pid}, ${seconds} s of uploads`);
    const players = makePlayers(PLAYERS);
    let batches = 0;
    let failed = 0;
    const end = Date.now() + seconds * 1000;
    const uploader = async (i: number) => {
      const p = players[i]!;
      while (Date.now() < end) {
        const started = Date.now();
        try {
          const res = await fetch(`${server.url}/api/v1/ingest/batch`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ws.clientToken}`, 'content-type': 'application/json' },
            body: modBatch(p, STATS),
          });
          await res.arrayBuffer();
          if (res.ok) batches++;
          else failed++;
        } catch {
          failed++;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
      }
    };
    const wal = join(dataDir, 'pglite', 'pg_wal');
    const samples: Sample[] = [];
    const sample = () => {
      const s: Sample = {
        minute: samples.length + 1,
        wal: duBytes(wal),
        data: duBytes(dataDir),
        rss: rssBytes(server.pid) ?? 0,
        batches,
      };
      samples.push(s);
      log(
        `${label}: minute ${s.minute}: pg_wal ${mib(s.wal)} MiB, data ${mib(s.data)} MiB, RSS ${mib(s.rss)} MiB, ${batches} batches`,
      );
    };
    const sampler = setInterval(sample, SAMPLE_MS);
    await Promise.all(players.map((_, i) => uploader(i)));
    clearInterval(sampler);
    const walAtKill = duBytes(wal);
    process.kill(server.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    // The restart replays the WAL written since the last checkpoint before it answers ready.
    const t = performance.now();
    const again = await startServer(SERVICE_SCRIPT, env, READY_PATH, 600_000);
    const restartMs = performance.now() - t;
    log(
      `${label}: restart after SIGKILL ready in ${restartMs.toFixed(0)} ms (pg_wal ${mib(walAtKill)} MiB at the kill)`,
    );
    await again.stop();
    return {
      label,
      seconds,
      batches,
      failed,
      samples,
      maxWal: Math.max(walAtKill, ...samples.map((s) => s.wal)),
      restartMs,
      walAtKill,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The start of a bare service on an empty embedded database: the baseline of the restart times. */
async function emptyStart(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'statboard-wal-empty-'));
  try {
    await seedStatboard({ dataDir });
    const t = performance.now();
    const s = await startServer(SERVICE_SCRIPT, serviceEnv({ dataDir }), READY_PATH);
    const ms = performance.now() - t;
    await s.stop();
    return ms;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const started = Date.now();
const machine = await machineLine();
const baseline = await emptyStart();
const on = await phase('checkpoint every 60 s (default)', ON_SECONDS, 60);
const off = await phase('checkpoint off (EMBEDDED_CHECKPOINT_SECONDS=0)', OFF_SECONDS, 0);

const row = (r: PhaseResult) =>
  `| ${r.label} | ${r.seconds} s | ${r.batches.toLocaleString('en-US')} (${r.failed} failed) | ` +
  `${mib(r.maxWal)} MiB | ${mib(r.walAtKill)} MiB | ${mib(r.samples.at(-1)?.data ?? 0)} MiB | ` +
  `${mib(Math.max(...r.samples.map((s) => s.rss), 0))} MiB | **${(r.restartMs / 1000).toFixed(1)} s** |`;
const walRate = (r: PhaseResult) => {
  const first = r.samples[0];
  const last = r.samples.at(-1);
  return first && last && last.minute > first.minute
    ? (last.data - first.data) / ((last.minute - first.minute) * 60)
    : 0;
};
const everyTen = on.samples.filter((s) => s.minute % 10 === 0 || s.minute === 1);

await writeSection(
  '## Embedded database: WAL and recovery',
  `${machine}

\`npm run bench:embedded-wal\` (${Math.round((Date.now() - started) / 1000)} s). The service on the embedded database
(PGlite) under steady uploads: ${PLAYERS} players, each a batch of ${STATS} changed values every second, for the
duration shown; \`pg_wal\`, the data directory and the service's RSS sampled every minute; then SIGKILL and a
restart, timed until \`/health/ready\` answers (the WAL written since the last checkpoint is replayed first). For
scale, the start of the service on an empty embedded database took ${(baseline / 1000).toFixed(1)} s.

| checkpoints | uploads for | batches acknowledged | max pg_wal | pg_wal at the kill | data dir at the end | max RSS | restart after SIGKILL |
| --- | --- | --- | --- | --- | --- | --- | --- |
${row(on)}
${row(off)}

With checkpoints, pg_wal over time: ${everyTen.map((s) => `${s.minute} min ${mib(s.wal)} MiB`).join(', ')}.
The data directory grew by about ${(walRate(on) / 1024).toFixed(0)} KiB/s with checkpoints.

**What bounds it.** Single-user PostgreSQL checkpoints only when it closes. The service runs \`CHECKPOINT\` every
\`EMBEDDED_CHECKPOINT_SECONDS\` (60) through the database's one lock and starts PGlite with \`max_wal_size=256MB\`,
so old segments are removed or recycled at each checkpoint: \`pg_wal\` stays bounded and a crash replays at
most one interval of WAL, however long the service has run. Without checkpoints both grow with uptime.`,
);
log('wrote "## Embedded database: WAL and recovery" in BENCHMARKS.md');
