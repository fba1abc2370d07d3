/**
 * What screening costs: client uploads through the ingest service with its screening stage (held values, the
 * daily limit of new statistics, the shared-key count) and through the same service built without it, on the
 * same PostgreSQL database, in interleaved rounds (the order alternating). The uploads are honest (counters grow
 * a little each time), so nothing is held: this is the price every upload pays. Measured at the service (no
 * HTTP), where the stage's queries show most. Target: with screening ≥ 0.95x of without.
 * Writes the "## Screening of client uploads" section of BENCHMARKS.md.
 * Run: npm run bench:screening (BENCH_SMOKE=1: a tiny run that checks it works and writes nothing)
 */

import { ChangeBus } from '../../apps/statboard/src/cache/bus.ts';
import { loadConfig } from '../../apps/statboard/src/config.ts';
import { migrate } from '../../apps/statboard/src/db/migrate.ts';
import { openDatabase } from '../../apps/statboard/src/db/open.ts';
import { CLI_ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import type { IngestBatchBody } from '../../apps/statboard/src/modules/ingest/schemas.ts';
import { IngestService } from '../../apps/statboard/src/modules/ingest/service.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { createDatabase } from '../lib/pg.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { fmtInt, fmtRatio, table } from '../lib/stats.ts';
import { type BenchPlayer, makePlayers, modBatch } from '../lib/traffic.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 0.5 : 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 5));
const IN_FLIGHT = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PLAYERS = SMOKE ? 50 : 2_000;
const STATS = 20;

function log(msg: string): void {
  process.stderr.write(`[bench:screening] ${msg}\n`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const machine = await machineLine();
  log(machine);
  const scratch = await createDatabase('statboard_bench_screening');
  const config = loadConfig({ DATABASE_URL: scratch.url, DATA_DIR: '/nonexistent-bench', RATE_LIMIT_PER_MINUTE: '0' });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const services = buildServices(db, config, { bus: ChangeBus.local() });
    const ws = await services.workspaces.create(CLI_ACTOR, { name: 'Bench' });
    await services.servers.create(CLI_ACTOR, ws.id, { name: 'Main', hostname: 'mc.example.com', port: 25565 });
    await services.seasons.create(CLI_ACTOR, ws.id, { name: 'Season 1', slug: 's1', active: true });
    const made = await services.keys.create(CLI_ACTOR, ws.id, {
      name: 'mod',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const key = await services.verifier.verify(made.secret, false);
    if (!key) throw new Error('the client key does not verify');
    const on = services.ingest;
    const off = new IngestService(
      db,
      services.bus,
      services.servers,
      services.seasons,
      config,
      services.diagnostics,
      { leaders: services.leaders, outbox: services.outbox },
      null,
    );
    const players = makePlayers(PLAYERS);
    log(`seeding ${PLAYERS} players × ${STATS} statistics`);
    const body = (p: BenchPlayer) => JSON.parse(modBatch(p, STATS)) as IngestBatchBody;
    // The players are known to the server before the rounds (their first uploads stored, as on a running network),
    // and the tables analysed, as autovacuum does on a running network: what is measured is the upload of a
    // known player, the common case. (A newcomer whose first values would rank in a board's top 10 is held by
    // `first_sight`; the bench's players start with counters up to 1,000,000, so seeding through screening would
    // hold many of them on every upload.)
    for (let i = 0; i < players.length; i += IN_FLIGHT) {
      await Promise.all(players.slice(i, i + IN_FLIGHT).map((p) => off.ingest(key, body(p))));
    }
    await services.flush();
    if (process.env.BENCH_ANALYZE !== '0') await db.exec('ANALYZE');

    /** Batches per second through `service` for SECONDS, IN_FLIGHT at a time. */
    const run = async (service: IngestService): Promise<number> => {
      let done = 0;
      let next = 0;
      const until = Date.now() + SECONDS * 1_000;
      const worker = async () => {
        while (Date.now() < until) {
          const p = players[next++ % players.length]!;
          await service.ingest(key, body(p));
          done++;
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      return done / ((performance.now() - started) / 1_000);
    };
    await run(off);
    await run(on);
    const rates: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order: ('off' | 'on')[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      const got: Partial<Record<'off' | 'on', number>> = {};
      for (const v of order) {
        got[v] = await run(v === 'off' ? off : on);
        rates[v].push(got[v]);
      }
      ratios.push(got.on! / got.off!);
      log(`round ${round + 1}: off ${fmtInt(got.off!)}/s, on ${fmtInt(got.on!)}/s`);
    }
    const ratio = median(ratios);
    const held = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM review_values'))[0]!.n;
    log(`values held for review during the run: ${held}`);
    const section = [
      'Client uploads through the ingest service (no HTTP) with the screening stage and without it, on one ' +
        `PostgreSQL database: ${PLAYERS} players, ${STATS} statistics a batch, ${IN_FLIGHT} batches in flight, ` +
        `${ROUNDS} interleaved rounds of ${SECONDS} s; honest uploads of players the server knows (their first ` +
        `uploads stored before the rounds, the tables analysed), so this is what every upload pays; values held ` +
        `during the run: ${held}. Target: ≥ 0.95x.`,
      '',
      machine,
      '',
      table(
        ['', 'batches/s (median)', 'ratio with/without (median of rounds)'],
        [
          ['without screening', fmtInt(median(rates.off)), ''],
          ['with screening', fmtInt(median(rates.on)), fmtRatio(ratio)],
        ],
      ),
      '',
      'Re-run: `npm run bench:screening`.',
    ].join('\n');
    log(`with/without: ${fmtRatio(ratio)}`);
    if (!SMOKE && process.env.BENCH_WRITE !== '0') await writeSection('## Screening of client uploads', section);
    else process.stdout.write(`${section}\n`);
    await services.flush();
  } finally {
    await db.close();
    // BENCH_KEEP_DB=1 keeps the database (its name is logged) to look into a plan.
    if (process.env.BENCH_KEEP_DB === '1') log(`kept ${scratch.url}`);
    else await scratch.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
