/**
 * What metrics cost: the same service, on the same database, with METRICS_PORT unset (nothing counted) and set
 * (every request counted by route, method and status, its duration observed, cache reads counted), under the
 * same GET load, in interleaved rounds (the order alternating), both running throughout and only one loaded at a
 * time. The reads are the cheapest the service answers, where a fixed cost per request shows most: cached key
 * reads on the fast path (leaderboards, a player's statistics) and Fastify's path (seasons, players pages).
 * Also the time and size of a scrape. Writes the "## Statboard metrics" section of BENCHMARKS.md.
 * Run: npm run bench:metrics
 */

import { freePort, type RunningServer, startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad, requireWrk, WRK_NOTE } from '../lib/load.ts';
import { createDatabase } from '../lib/pg.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { type CaseResult, fmtInt, fmtMs, fmtRatio, table } from '../lib/stats.ts';
import { makePlayers, modBatch, STAT_KEYS } from '../lib/traffic.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PLAYERS = 500;
const STATS = 20;

function log(msg: string): void {
  process.stderr.write(`[bench:metrics] ${msg}\n`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Case {
  name: string;
  paths: string[];
}

async function main(): Promise<void> {
  requireWrk('bench:metrics');
  const machine = await machineLine();
  log(machine);
  const pin = pinForReads();
  const scratch = await createDatabase('statboard_bench_metrics');
  const servers: RunningServer[] = [];
  try {
    const ws = await seedStatboard({ url: scratch.url });
    const metricsPort = await freePort();
    const start = (env: Record<string, string>) =>
      startServer(SERVICE_SCRIPT, { ...serviceEnv({ url: scratch.url }), ...env }, READY_PATH, 60_000, pin?.server);
    const off = await start({});
    servers.push(off);
    const on = await start({ METRICS_PORT: String(metricsPort) });
    servers.push(on);
    log(`seeding ${PLAYERS} players × ${STATS} statistics through ingest`);
    const players = makePlayers(PLAYERS);
    for (const p of players) {
      const res = await fetch(`${off.url}/api/v1/ingest/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.clientToken}`, 'content-type': 'application/json' },
        body: modBatch(p, STATS),
      });
      if (res.status !== 200) throw new Error(`seeding: ingest answered ${res.status}: ${await res.text()}`);
    }
    const auth = { authorization: `Bearer ${ws.websiteToken}` };
    const stat = encodeURIComponent(STAT_KEYS[0]!);
    const cases: Case[] = [
      {
        name: 'GET /api/v1/leaderboards?…&limit=10 (fast path, cached)',
        paths: [`/api/v1/leaderboards?season=s1&stat=${stat}&limit=10`],
      },
      {
        name: `GET /api/v1/players/{uuid}/stats, one of ${PLAYERS} (fast path, cached)`,
        paths: players.map((p) => `/api/v1/players/${p.uuid}/stats`),
      },
      { name: 'GET /api/v1/seasons (Fastify, cached)', paths: ['/api/v1/seasons'] },
      {
        name: 'GET /api/v1/players?page=1…5 (Fastify, a query)',
        paths: [1, 2, 3, 4, 5].map((n) => `/api/v1/players?page=${n}`),
      },
    ];
    for (const c of cases) {
      for (const s of [off, on]) {
        const res = await fetch(s.url + c.paths[0], { headers: auth });
        if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
      }
    }
    const rows: string[][] = [];
    const summary: { name: string; ratio: number }[] = [];
    for (const c of cases) {
      const results: Record<'off' | 'on', CaseResult[]> = { off: [], on: [] };
      const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] };
      const ratios: number[] = [];
      // Warm-up of both (JIT), not measured.
      for (const s of [off, on])
        await getLoad({ url: s.url, connections: CONNECTIONS, seconds: 2, headers: auth, paths: c.paths });
      for (let round = 0; round < ROUNDS; round++) {
        const order: ('off' | 'on')[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
        const got: Partial<Record<'off' | 'on', CaseResult>> = {};
        for (const v of order) {
          const s = v === 'off' ? off : on;
          const before = cpuSeconds(s.pid) ?? 0;
          const r = await getLoad({
            url: s.url,
            connections: CONNECTIONS,
            seconds: SECONDS,
            headers: auth,
            paths: c.paths,
          });
          if (r.failed > 0) throw new Error(`${c.name} (${v}): ${r.failed} failed requests`);
          cpu[v].push((((cpuSeconds(s.pid) ?? 0) - before) * 1e6) / r.ok);
          results[v].push(r);
          got[v] = r;
        }
        ratios.push(got.on!.perSecond / got.off!.perSecond);
      }
      const mid = (v: 'off' | 'on') => {
        const sorted = [...results[v]].sort((a, b) => a.perSecond - b.perSecond);
        return sorted[Math.floor(sorted.length / 2)]!;
      };
      const [a, b] = [mid('off'), mid('on')];
      const ratio = median(ratios);
      summary.push({ name: c.name, ratio });
      log(
        `${c.name}: off ${fmtInt(a.perSecond)}/s p99 ${fmtMs(a.p99)}, on ${fmtInt(b.perSecond)}/s p99 ${fmtMs(b.p99)} → ${fmtRatio(ratio)}`,
      );
      rows.push([
        c.name,
        `${fmtInt(a.perSecond)} / ${fmtMs(a.p99)} / ${median(cpu.off).toFixed(0)} µs`,
        `${fmtInt(b.perSecond)} / ${fmtMs(b.p99)} / ${median(cpu.on).toFixed(0)} µs`,
        `**${fmtRatio(ratio)}** (${ratios
          .sort((x, y) => x - y)
          .map((r) => r.toFixed(2))
          .join(', ')})`,
      ]);
    }
    // A scrape, as Prometheus makes it, after all that traffic.
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      times.push(performance.now() - t0);
      bytes = text.length;
    }
    const medians = summary.map((x) => x.ratio);
    const [lo, hi] = [Math.min(...medians), Math.max(...medians)];
    const verdict =
      lo >= 0.95
        ? 'no measurable cost: the spread between the rounds, two processes on a shared machine, is larger than ' +
          'any difference, and the CPU per request of the two is alike'
        : 'see the rounds';
    const body = [
      machine,
      '',
      `Method: the service twice on one PostgreSQL database (${PLAYERS} players × ${STATS} statistics, uploaded ` +
        `through ingest), one with \`METRICS_PORT\` set and one without, both with the access log on (the ` +
        `default); ${WRK_NOTE}, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} interleaved rounds ` +
        `(the order alternating), medians; ratio = with metrics / without, per round.` +
        (pin ? ` The services on CPU ${pin.server}, wrk on ${pin.generator}.` : ' No CPU pinning.'),
      '',
      table(
        ['read', 'without metrics: req/s / p99 / CPU per request', 'with metrics', 'with / without (rounds)'],
        rows,
      ),
      '',
      `**Cost**: the medians are ${fmtRatio(lo)}–${fmtRatio(hi)} of the service without metrics (${verdict}). ` +
        `Counting a request is a map lookup of its series ` +
        `(route, method, status: children cached, no label hashing), one counter increment and one histogram ` +
        `observation; a cache read adds one increment. With \`METRICS_PORT\` unset, none of it runs (one null ` +
        `check per request). A scrape after this run: ${fmtMs(median(times))} ms median, ${fmtInt(bytes)} bytes ` +
        `(it grows with the routes and statuses seen, not with traffic or players).`,
    ].join('\n');
    await writeSection('## Statboard metrics', body);
    log('wrote the "## Statboard metrics" section of BENCHMARKS.md');
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    await scratch.drop();
  }
}

await main();
