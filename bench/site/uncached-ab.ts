/**
 * bench:site's "not cached" cases only (a random player's page, and `GET /players/{uuid}/stats` of random
 * players, on an instance with PLAYER_CACHE_MB=0; CPU ms per request of the service and of PostgreSQL, as
 * bench/site/run.ts measures them), for two builds of the service in interleaved rounds: a before/after of a
 * change to those reads. Seeds BENCH_PLAYERS (100,000) players × 20 statistics once and keeps the database
 * (its name and website key are logged: pass them as AB_DB and AB_TOKEN to reuse it; drop it when done).
 *
 *   cp -r apps/statboard/dist apps/statboard/.bench-data     # the "before" build (its folder must sit there)
 *   npm run build -w statboard                               # the "after" build, in dist/
 *   BENCH_ROUNDS=8 node --import tsx bench/site/uncached-ab.ts
 *
 * AB_BUILDS: the scripts (comma-separated; `script|flags` runs one with node flags of its own, e.g.
 * `apps/statboard/dist/server.js|--max-semi-space-size=16`), AB_NODE_ARGS: extra node flags for all (e.g.
 * --cpu-prof), AB_ONLY: api,page,
 * AB_RATE: both read by a steady audience at this many requests a second (see RATE below) instead of 32 connections,
 * AB_ENV: more of the service's settings (a JSON object).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer } from '../lib/child.ts';
import { pinForReads } from '../lib/cpus.ts';
import { getLoad } from '../lib/load.ts';
import { ADMIN_URL, BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter } from '../lib/proc.ts';
import { seedStatboard, serviceEnv } from '../lib/statboard.ts';
import { statKeys } from '../lib/traffic.ts';
import { audience, writeShuffled } from './audience.ts';
import { type Seeded, seedPlayers, seedValues } from './seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
/**
 * Values per player (BENCH_STATS, 20) and how many of them are not 0 (BENCH_NONZERO, all): the mod's first upload of
 * a session carries every statistic of the game, most of them 0 (`BENCH_STATS=1000 BENCH_NONZERO=50`: players as
 * the mod leaves them, see bench/site/run.ts).
 */
const STATS = Number(process.env.BENCH_STATS ?? 20);
const NONZERO = Number(process.env.BENCH_NONZERO ?? STATS);
const CONNECTIONS = 32;
const SLUG = 'bench';
const builds = (process.env.AB_BUILDS ?? 'apps/statboard/.bench-data/server.js,apps/statboard/dist/server.js').split(
  ',',
);
const profArgs = process.env.AB_NODE_ARGS ?? '';
const only = process.env.AB_ONLY ?? 'api,page';
/**
 * AB_RATE: requests a second of a steady audience (bench/site/audience.ts) instead of 32 connections as fast as
 * they go: both reads measured at the same rate (CPU per request falls as the rate rises, each wake-up of the event
 * loop serving more requests, so reads measured at different rates are not alike).
 */
const RATE = Number(process.env.AB_RATE ?? 0);

const log = (m: string) => process.stderr.write(`[ab] ${m}\n`);

async function main() {
  const pin = pinForReads();
  const keys = statKeys(STATS);
  let name = process.env.AB_DB;
  let websiteToken = process.env.AB_TOKEN ?? '';
  if (!name) {
    const scratch = await createDatabase('statboard_bench_site_ab');
    name = scratch.name;
    const ws = await seedStatboard({ url: scratch.url }, async (db, w) => {
      const seeded: Seeded = { ws: w, players: PLAYERS, keys, nonZero: NONZERO };
      await seedPlayers(db, seeded);
      await seedValues(db, [seeded]);
    });
    websiteToken = ws.websiteToken;
    log(`seeded: AB_DB=${name} AB_TOKEN=${websiteToken}`);
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  const uuids = (await c.query<{ uuid: string }>('SELECT uuid FROM players')).rows.map((r) => r.uuid);
  await c.end();
  const backends = new BackendPids(name);
  const env = {
    ...serviceEnv({ url: url.toString() }),
    PUBLIC_PAGE_LIMIT_PER_MINUTE: '0',
    PLAYER_CACHE_MB: '0',
    // AB_ENV: more of the service's settings, a JSON object (e.g. {"PAGE_CACHE_MB":"0"}: no page kept either).
    ...(JSON.parse(process.env.AB_ENV ?? '{}') as Record<string, string>),
  };
  // Every player's address, each request one at random: a page read twice in a round is rare (the page cache
  // keeps a few thousand), as it is for a random visitor.
  const randomPages = uuids.map((u) => `/p/${SLUG}/players/${u}`);
  const randomStats = uuids.map((u) => `/api/v1/players/${u}/stats`);
  const auth = { authorization: `Bearer ${websiteToken}` };
  // The same addresses for the steady audience.
  const dir = await mkdtemp(join(tmpdir(), 'statboard-ab-'));
  const pagesFile = await writeShuffled(join(dir, 'pages.txt'), randomPages);
  const statsFile = await writeShuffled(join(dir, 'stats.txt'), randomStats);
  /** Per build: each round's [api service, api PG, page service, page PG] CPU ms per request. */
  const results = new Map<string, number[][]>(builds.map((b) => [b, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    for (const b of order) {
      const [script = b, own = ''] = b.split('|');
      // What `npm start` runs: its flag for dist/ (startServer adds it), given here for a copy elsewhere.
      process.env.BENCH_NODE_ARGS = `${script.includes('/dist/') ? '' : '--max-semi-space-size=8 '}${own} ${profArgs}`;
      const s = await startServer(script, env, '/health/ready', 120_000, pin?.server).catch((err) => {
        log(`retrying start: ${err}`);
        return startServer(script, env, '/health/ready', 120_000, pin?.server);
      });
      try {
        await getLoad({ url: s.url, connections: CONNECTIONS, seconds: WARMUP, paths: randomPages });
        const measure = async (file: string, paths: string[], headers: Record<string, string> = {}) => {
          // The steady audience is loaded before the measured window.
          const readers = RATE ? await audience(s.url, file, RATE, SECONDS, { headers, gzip: false }) : null;
          const p = new CpuMeter(() => [s.pid]);
          const g = new CpuMeter(() => backends.list());
          await p.start();
          await g.start();
          const res = readers
            ? await readers.go().then((a) => ({ ok: a.served, perSecond: a.views, failed: a.failed }))
            : await getLoad({ url: s.url, connections: CONNECTIONS, seconds: SECONDS, headers, paths });
          const per = (x: number) => (x * 1000) / res.ok;
          return { rps: res.perSecond, failed: res.failed, svc: per(await p.stop()), pg: per(await g.stop()) };
        };
        const api = only.includes('api') ? await measure(statsFile, randomStats, auth) : null;
        const page = only.includes('page') ? await measure(pagesFile, randomPages) : null;
        const line = `${b}: api ${api ? `${api.rps.toFixed(0)}/s ${api.svc.toFixed(3)}+${api.pg.toFixed(3)}` : '-'} | page ${page ? `${page.rps.toFixed(0)}/s ${page.svc.toFixed(3)}+${page.pg.toFixed(3)} fail ${page.failed}` : '-'}${api && page ? ` | ratio ${((page.svc + page.pg) / (api.svc + api.pg)).toFixed(2)}` : ''}`;
        log(`round ${r + 1} ${line}`);
        if (api && page) results.get(b)!.push([api.svc, api.pg, page.svc, page.pg]);
      } finally {
        await s.stop();
      }
    }
  }
  await backends.close();
  await rm(dir, { recursive: true, force: true });
  // Medians over the rounds: CPU per request swings with other load on the machine, the median less.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
  for (const [b, rounds] of results) {
    const m = [0, 1, 2, 3].map((i) => median(rounds.map((r) => r[i]!)));
    const ratio = median(rounds.map((r) => (r[2]! + r[3]!) / (r[0]! + r[1]!)));
    process.stdout.write(
      `${b}: medians of ${rounds.length} rounds, CPU ms/req service / PG: api ${m[0]!.toFixed(2)} / ${m[1]!.toFixed(2)}, ` +
        `page ${m[2]!.toFixed(2)} / ${m[3]!.toFixed(2)}; page/api ratio ${ratio.toFixed(2)}\n`,
    );
  }
}

await main();
