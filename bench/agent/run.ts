/**
 * Agent uploads benchmark: `POST /ingest/server` with 500 players × 100 values per request (what statboard-agent
 * sends after a server's autosave) against `POST /ingest/batch` of the same values (500 batches of 100, as 500
 * mods would send them, at BENCH_CONCURRENCY), against the running service, alternating round by round with new
 * values each time (every value changes). Target: the server's uploads at ≥ 0.8x the batches' values per second.
 *
 *   npm run bench:agent                       # writes "## Statboard agent uploads" of BENCHMARKS.md
 *   BENCH_DB=pglite BENCH_ROUNDS=1 BENCH_REQUESTS=1 BENCH_WRITE=0 npm run bench:agent   # a smoke run
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/statboard/src/config.ts';
import { CLI_ACTOR as ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { startServer } from '../lib/child.ts';
import { createDatabase } from '../lib/pg.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type DbTarget, READY_PATH, SERVICE_SCRIPT, seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { fmtInt, fmtRatio, table } from '../lib/stats.ts';

const DATABASES = (process.env.BENCH_DB ?? 'pg,pglite').split(',') as ('pg' | 'pglite')[];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests of 500 players per round (the batches: the same values). */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WRITE = process.env.BENCH_WRITE !== '0';
const PLAYERS = 500;
const STATS = 100;

function log(msg: string): void {
  process.stderr.write(`[bench:agent] ${msg}\n`);
}

interface Player {
  uuid: string;
  name: string;
  session: string;
}

const KEYS = Array.from({ length: STATS }, (_, s) =>
  s % 2 === 0 ? `minecraft.custom:minecraft.stat_${s}` : `minecraft.mined:minecraft.block_${s}`,
);

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
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        await post(`${base}/api/v1/ingest/batch`, token, body);
      }
    }),
  );
  return (bodies.length * STATS) / ((performance.now() - started) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function runCase(db: 'pg' | 'pglite'): Promise<string[]> {
  const scratch = db === 'pg' ? await createDatabase('bench_agent') : null;
  const dataDir = db === 'pglite' ? await mkdtemp(join(tmpdir(), 'bench-agent-')) : null;
  const target: DbTarget = scratch ? { url: scratch.url } : { dataDir: dataDir! };
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
  const srv = await startServer(SERVICE_SCRIPT, serviceEnv(target), READY_PATH);
  try {
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
    // Round 0 creates the players and definitions; it is not counted.
    await serverRound(srv.url, agentToken, serverPlayers, 0);
    await batchRound(srv.url, ws.clientToken, batchPlayers, 0);
    const server: number[] = [];
    const batch: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      server.push(await serverRound(srv.url, agentToken, serverPlayers, round));
      batch.push(await batchRound(srv.url, ws.clientToken, batchPlayers, round));
      log(`${db} round ${round}: server ${fmtInt(server.at(-1)!)} values/s, batches ${fmtInt(batch.at(-1)!)} values/s`);
    }
    const ratios = server.map((s, i) => s / batch[i]!);
    return [
      db === 'pg' ? 'PostgreSQL' : 'PGlite',
      fmtInt(median(server)),
      fmtInt(median(batch)),
      fmtRatio(median(ratios)),
      `${fmtRatio(Math.min(...ratios))}–${fmtRatio(Math.max(...ratios))}`,
    ];
  } finally {
    await srv.stop();
    await scratch?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const db of DATABASES) rows.push(await runCase(db));
const body = [
  await machineLine(),
  '',
  `\`POST /ingest/server\` with ${PLAYERS} players × ${STATS} values per request, ${REQUESTS} requests one after ` +
    `the other (as statboard-agent sends), against \`POST /ingest/batch\` of the same values (${REQUESTS * PLAYERS} ` +
    `batches of ${STATS}, ${CONCURRENCY} at a time), alternating, ${ROUNDS} rounds, every value changed each round; ` +
    'the service as `npm start` runs it. Target: ≥ 0.8x.',
  '',
  table(['database', 'server uploads (values/s)', 'batches (values/s)', 'ratio (median)', 'ratios'], rows),
].join('\n');
process.stdout.write(`${body}\n`);
if (WRITE) await writeSection('## Statboard agent uploads', body);
