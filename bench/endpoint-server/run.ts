// endpoint-server bench: req/s and p99 of a 10-key endpoint against a bare node:http server answering the
// same JSON; the same with ServerTap placeholders (fake ServerTap answering in 1 ms); RSS under load.
// Several rounds per case, bare and endpoint-server back to back (order alternating), medians reported:
// the machine may be shared, so only same-round ratios and medians mean much.
// Writes the "## endpoint-server" section of BENCHMARKS.md. Run: npm run bench:endpoint
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nbt from 'prismarine-nbt';
import { requireWrk } from '../lib/load.ts';
import {
  type Child,
  cpuMs,
  type LoadResult,
  rssMb,
  runLoad,
  startBareServer,
  startEndpointServer,
  startFakeServerTap,
} from './servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 10;
const UUID = '8667ba71-b85a-4004-af54-457a9734eed7';
const root = fileURLToPath(new URL('../..', import.meta.url));

function long(ms: number): nbt.Long {
  const big = BigInt(ms);
  return { type: 'long', value: [Number(BigInt.asIntN(32, big >> 32n)), Number(BigInt.asIntN(32, big & 0xffffffffn))] };
}

function buildFolder(servertapUrl: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'endpoint-bench-'));
  writeFileSync(path.join(dir, 'server.properties'), 'level-name=world\n');
  writeFileSync(
    path.join(dir, 'usercache.json'),
    JSON.stringify([{ name: 'Steve', uuid: UUID, expiresOn: '2024-06-01 10:00:00 +0000' }]),
  );
  mkdirSync(path.join(dir, 'world/playerdata'), { recursive: true });
  const data = nbt.writeUncompressed({
    type: 'compound',
    name: '',
    value: {
      Paper: {
        type: 'compound',
        value: { LastLogin: long(Date.UTC(2024, 4, 1, 10)), LastSeen: long(Date.UTC(2024, 4, 1, 12)) },
      },
    },
  });
  writeFileSync(path.join(dir, `world/playerdata/${UUID}.dat`), gzipSync(data));
  const local = [
    'name: "{username}"',
    'login: "{last_login}"',
    'seen: "{last_seen}"',
    'title: "Player {username}"',
    'status: "last seen {last_seen}"',
    'server: "Survival"',
    'rank: "member"',
    'since: "{last_login}"',
    'note: "a \\"quoted\\" value"',
    'profile: "https://example.org/u/{username}"',
  ];
  const ext = [
    'name: "{username}"',
    'health: "{ext:player_health}"',
    'level: "{ext:player_level}"',
    'world: "{ext:player_world}"',
    'balance: "{papi:vault_eco_balance}"',
    'kills: "{ext:statistic_player_kills}"',
    'deaths: "{ext:statistic_deaths}"',
    'online: "{ext:server_online}"',
    'seen: "{last_seen}"',
    'tps: "{ext:server_tps_1}"',
  ];
  const indent = (lines: string[]) => lines.map((l) => `      ${l}`).join('\n');
  writeFileSync(
    path.join(dir, 'config.yml'),
    `bind_address: 127.0.0.1\nport: 0\nservertap:\n  url: ${servertapUrl}\n  key: bench\nendpoints:\n` +
      `  local:\n    require_player: true\n    object:\n${indent(local)}\n` +
      `  tap:\n    require_player: true\n    object:\n${indent(ext)}\n`,
  );
  return dir;
}

interface Sample extends LoadResult {
  /** Server CPU time per answered request, in µs (user + system, all threads of the server process). */
  readonly cpuUsPerRequest: number;
}

/** One load run against `url`, with the CPU the serving process `pid` used meanwhile. */
async function sample(url: string, pid: number): Promise<Sample> {
  const before = cpuMs(pid);
  const result = await runLoad(url, SECONDS, CONNECTIONS);
  const cpu = cpuMs(pid) - before;
  return { ...result, cpuUsPerRequest: result.requests > 0 ? (cpu * 1000) / result.requests : 0 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface Pair {
  readonly bare: Sample[];
  readonly server: Sample[];
  /** endpoint-server req/s over bare req/s, per round (both measured back to back). */
  readonly ratios: number[];
}

/**
 * ROUNDS rounds of bare-then-server or server-then-bare (alternating, so drift in machine load hits both
 * sides alike), after a warm-up of each.
 */
async function compare(bare: { url: string; pid: number }, server: { url: string; pid: number }): Promise<Pair> {
  await runLoad(bare.url, WARMUP_SECONDS, CONNECTIONS);
  await runLoad(server.url, WARMUP_SECONDS, CONNECTIONS);
  const pair: Pair = { bare: [], server: [], ratios: [] };
  for (let round = 0; round < ROUNDS; round++) {
    let b: Sample;
    let e: Sample;
    if (round % 2 === 0) {
      b = await sample(bare.url, bare.pid);
      e = await sample(server.url, server.pid);
    } else {
      e = await sample(server.url, server.pid);
      b = await sample(bare.url, bare.pid);
    }
    pair.bare.push(b);
    pair.server.push(e);
    pair.ratios.push(e.requestsPerSecond / b.requestsPerSecond);
    console.log(
      `  round ${round + 1}: bare ${fmt(b.requestsPerSecond)} req/s, endpoint-server ${fmt(e.requestsPerSecond)} req/s` +
        ` (${(e.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x)`,
    );
  }
  return pair;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const spread = (values: readonly number[], f: (n: number) => string) =>
  `${f(Math.min(...values))}–${f(Math.max(...values))}`;

/** Peak RSS of some processes, sampled every 50 ms while it runs. */
function rssSampler(pids: readonly number[]): { peaks: number[]; stop(): void } {
  const peaks = pids.map((pid) => rssMb(pid));
  const timer = setInterval(() => {
    pids.forEach((pid, i) => {
      peaks[i] = Math.max(peaks[i] ?? 0, rssMb(pid));
    });
  }, 50);
  return { peaks, stop: () => clearInterval(timer) };
}

async function main(): Promise<void> {
  requireWrk('bench:endpoint');
  const children: Child[] = [];
  let folder = '';
  try {
    const tap = await startFakeServerTap(1);
    children.push(tap);
    folder = buildFolder(tap.url);
    const server = await startEndpointServer(path.join(folder, 'config.yml'));
    children.push(server);
    const pid = server.child.pid ?? 0;
    const localUrl = `${server.url}/api/local/Steve`;
    const tapUrl = `${server.url}/api/tap/Steve`;
    const localBody = await (await fetch(localUrl)).text();
    const tapBody = await (await fetch(tapUrl)).text();
    const bareLocal = await startBareServer(localBody);
    children.push(bareLocal);
    const bareTap = await startBareServer(tapBody);
    children.push(bareTap);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleRss = rssMb(pid);
    const bareIdleRss = rssMb(bareLocal.child.pid ?? 0);
    const rss = rssSampler([pid, bareLocal.child.pid ?? 0, bareTap.child.pid ?? 0]);

    console.log('local placeholders: bare node:http vs endpoint-server…');
    const local = await compare({ url: bareLocal.url, pid: bareLocal.child.pid ?? 0 }, { url: localUrl, pid });
    const localPeak = rss.peaks[0] ?? 0;
    console.log('ServerTap placeholders: bare node:http vs endpoint-server…');
    const tapPair = await compare({ url: bareTap.url, pid: bareTap.child.pid ?? 0 }, { url: tapUrl, pid });
    rss.stop();
    const [serverPeak = 0, bareLocalPeak = 0, bareTapPeak = 0] = rss.peaks;

    const row = (name: string, samples: readonly Sample[]) => {
      const rps = samples.map((r) => r.requestsPerSecond);
      const p99 = samples.map((r) => r.p99Ms);
      const cpu = samples.map((r) => r.cpuUsPerRequest);
      const failures = samples.reduce((n, r) => n + r.errors + r.non2xx, 0);
      return (
        `| ${name} | **${fmt(median(rps))}** (${spread(rps, fmt)}) | ${median(p99)} ms | ` +
        `${Math.round(median(cpu))} µs | ${failures} |`
      );
    };
    const ratio = (pair: Pair) =>
      `**${median(pair.ratios).toFixed(2)}×** (rounds ${spread(pair.ratios, (n) => n.toFixed(2))})`;
    const section = [
      '## endpoint-server',
      '',
      `Run \`npm run bench:endpoint\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores,` +
        ` wrk ${CONNECTIONS} connections, keep-alive, no pipelining; ${ROUNDS} rounds of ${SECONDS} s per case after a` +
        ` ${WARMUP_SECONDS} s warm-up, bare and endpoint-server back to back in each round, order alternating;` +
        ' every server in its own process). req/s: median (min–max of the rounds); p99 and server CPU per request:' +
        ' median; CPU counts all threads of the server process, from /proc.',
      '',
      '| case | req/s | p99 | server CPU / request | errors + non-2xx |',
      '|---|---|---|---|---|',
      row('bare node:http, same JSON as the 10-key local endpoint', local.bare),
      row(
        'endpoint-server `/api/local/Steve` (10 keys: username, last_login, last_seen from NBT + usercache)',
        local.server,
      ),
      row('bare node:http, same JSON as the ServerTap endpoint', tapPair.bare),
      row(
        'endpoint-server `/api/tap/Steve` (8 external placeholders, fake ServerTap answering in 1 ms)',
        tapPair.server,
      ),
      '',
      `- Local placeholders: ${ratio(local)} the bare server, same round (target ≥ 0.8×).`,
      `- ServerTap placeholders: ${ratio(tapPair)} the bare server; each render is one ServerTap request` +
        ' (placeholders batched), and identical requests in flight share one call.',
      `- RSS of the endpoint server (VmRSS): ${idleRss.toFixed(1)} MB idle, ${localPeak.toFixed(1)} MB peak during the` +
        ` local rounds, **${serverPeak.toFixed(1)} MB** peak overall (target < 80 MB). For scale, the bare node:http` +
        ` servers: ${bareIdleRss.toFixed(1)} MB idle, ${Math.max(bareLocalPeak, bareTapPeak).toFixed(1)} MB peak.`,
      '',
      'Notes: wrk shares the cores with the servers (and, on a shared machine, with everything else), so',
      'absolute req/s swing between runs; the same-round ratio and the server CPU per request are the steadier',
      'numbers. VmRSS counts the pages of the node binary a process touches (about 35 MB for any node process);',
      'a `time_zone` other than `UTC` loads ICU zone data on first use (about 8 MB more). The ServerTap case is',
      'bound by the round trip to ServerTap; identical renders in flight share one task and one ServerTap call.',
      '',
    ].join('\n');
    console.log(section);
    const file = path.join(root, 'BENCHMARKS.md');
    let existing = '';
    try {
      existing = readFileSync(file, 'utf8');
    } catch {
      existing = '# Benchmarks\n\n';
    }
    const start = existing.indexOf('## endpoint-server');
    let next: string;
    if (start === -1) next = `${existing.replace(/\n*$/, '\n\n')}${section}`;
    else {
      const after = existing.indexOf('\n## ', start + 1);
      next = existing.slice(0, start) + section + (after === -1 ? '' : existing.slice(after + 1));
    }
    writeFileSync(file, next);
  } finally {
    for (const child of children.reverse()) await child.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

await main();
