// endpoint-server bench: req/s and p99 of a 10-key endpoint against a bare node:http server answering the
// same JSON; the same with ServerTap placeholders (fake ServerTap answering in 1 ms); RSS under load.
// Writes the "## endpoint-server" section of BENCHMARKS.md. Run: npm run bench:endpoint
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nbt from 'prismarine-nbt';
import {
  type Child,
  type LoadResult,
  rssMb,
  runLoad,
  startBareServer,
  startEndpointServer,
  startFakeServerTap,
} from './servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
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

async function measure(url: string, pid?: number): Promise<LoadResult & { maxRssMb: number }> {
  await runLoad(url, 1, CONNECTIONS); // warm-up
  let maxRssMb = pid ? rssMb(pid) : 0;
  const timer = pid
    ? setInterval(() => {
        maxRssMb = Math.max(maxRssMb, rssMb(pid));
      }, 100)
    : undefined;
  const result = await runLoad(url, SECONDS, CONNECTIONS);
  if (timer) clearInterval(timer);
  return { ...result, maxRssMb };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
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
    const idleRss = rssMb(pid);

    console.log('local placeholders: bare node:http…');
    const baseLocal = await measure(bareLocal.url);
    console.log('local placeholders: endpoint-server…');
    const esLocal = await measure(localUrl, pid);
    console.log('ServerTap placeholders: bare node:http…');
    const baseTap = await measure(bareTap.url);
    console.log('ServerTap placeholders: endpoint-server…');
    const esTap = await measure(tapUrl, pid);

    const row = (name: string, r: LoadResult) =>
      `| ${name} | ${fmt(r.requestsPerSecond)} | ${r.p99Ms} ms | ${r.errors + r.non2xx} |`;
    const ratio = (a: LoadResult, b: LoadResult) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
    const maxRss = Math.max(esLocal.maxRssMb, esTap.maxRssMb);
    const section = [
      '## endpoint-server',
      '',
      `Run \`npm run bench:endpoint\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores,` +
        ` autocannon ${CONNECTIONS} connections, ${SECONDS} s per case after a 1 s warm-up; every server in its own process).`,
      '',
      '| case | req/s | p99 | errors/non-2xx |',
      '|---|---|---|---|',
      row('bare node:http, same JSON as the 10-key local endpoint', baseLocal),
      row(
        'endpoint-server `/api/local/Steve` (10 keys: username, last_login, last_seen from NBT + usercache)',
        esLocal,
      ),
      row('bare node:http, same JSON as the ServerTap endpoint', baseTap),
      row('endpoint-server `/api/tap/Steve` (8 external placeholders, fake ServerTap answering in 1 ms)', esTap),
      '',
      `- Local placeholders: **${ratio(esLocal, baseLocal)}×** the bare server (target ≥ 0.8×).`,
      `- ServerTap placeholders: **${ratio(esTap, baseTap)}×** the bare server; each render is one ServerTap request` +
        ' (placeholders batched), and identical requests in flight share one call.',
      `- RSS of the endpoint server: ${idleRss.toFixed(1)} MB idle, **${maxRss.toFixed(1)} MB** peak under load (target < 80 MB).`,
      '',
      'Limits: numbers swing with machine load (other processes share the cores); ServerTap cases pay one extra',
      'HTTP round trip per render; peak RSS is driven by V8 young-generation growth under load.',
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
