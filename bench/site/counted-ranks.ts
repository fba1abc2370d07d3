/**
 * What a player page of a small network costs PostgreSQL to rank every value it shows (`valueRanks`, one
 * statement: each board read whole from its index, hidden players' values taken off), at networks of a few
 * shapes (players × statistics the player has values of), against the floor measured in the same run: one
 * `count(*)` over the same index entries (what reading them costs without a rank per board). CPU of PostgreSQL's
 * backend per page (its /proc counters), every page a random public player's.
 *
 *   node --import tsx bench/site/counted-ranks.ts   # writes "## Public site: ranks a player page counts" of BENCHMARKS.md
 *
 * BENCH_PAGES (200) pages per shape and round, BENCH_ROUNDS (3) rounds, BENCH_HIDDEN (5) hidden players a network.
 *
 * EXPLAIN=1 logs each shape's plan (EXPLAIN ANALYZE of one page) first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../apps/statboard/src/db/types.ts';
import { valueRanks } from '../../apps/statboard/src/modules/leaderboards/repo.ts';
import type { RankedValue } from '../../apps/statboard/src/modules/leaderboards/service.ts';
import { BackendPids, createDatabase } from '../lib/pg.ts';
import { CpuMeter } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type BenchWorkspace, openTarget, seedStatboard } from '../lib/statboard.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * Players × statistics ranked, and statistics the players have values of that the page does not rank (the real
 * mod uploads every statistic of the game, thousands of them 0): a small server's players with ~300 values, the
 * same with the mod's 8,000 other values at 0, the default PUBLIC_RANK_VALUES (50,000) in three shapes, and twice it.
 */
const SHAPES: [players: number, stats: number, others: number][] = [
  [50, 300, 0],
  [50, 300, 8_000],
  [100, 500, 0],
  [500, 100, 0],
  [1_000, 50, 0],
  [200, 500, 0],
];
/** Hidden players in each network (their values counted apart). */
const HIDDEN = Number(process.env.BENCH_HIDDEN ?? 5);
/** Networks measured on the embedded database too, and the pages a round there. */
const EMBEDDED_SHAPES: [players: number, stats: number][] = [
  [50, 300],
  [100, 500],
];
const EMBEDDED_PAGES = 50;

const METHOD = `\`node --import tsx bench/site/counted-ranks.ts\`: on a small network a player page ranks the values that have no
rank from memory (not featured, their boards not held) with one statement (\`valueRanks\`): per statistic, its board
read whole from \`player_stats_top_idx\` (every value, and those better than the player's, in one aggregate) and the
hidden players' values looked up by key and taken off. Networks of several shapes in one database (5 hidden
players each, values with ties), each page a random public player's values as the page read them (half of the
statistics where less is better); CPU of PostgreSQL's backend per page from /proc, 200 pages a round, the median of
3 rounds; the baseline, measured in the same rounds, is one plain \`count(*)\` over the same index entries.`;

const EMBEDDED = `The same statement on the embedded database (PGlite, in the process, as \`npm start\` runs by default;
5 hidden players, 50 pages a round, 3 rounds): wall-clock a page, during which its one connection
serves nothing else (an upload waits behind it).`;

const WHERE = `Where the time goes (EXPLAIN ANALYZE): each statistic costs its two lookups' start (~10–20 µs; the same with nobody
hidden, BENCH_HIDDEN=0, within 10 %) and each value of its board 0.1–0.25 µs. Counting the better values as a range
of the index instead (no comparison per entry) measured no cheaper (1.03–1.2x these times in the same session). Hence
\`PUBLIC_RANK_VALUES\` counts each statistic as 100 values at least, and its default (50,000) bounds a page to
~5–15 ms of PostgreSQL: 500 values of a player on a network of up to 100 players (the real mod's long-time player
has a few hundred values above 0), 50 on a network of 1,000. The player's other values (thousands at 0 with the
real mod, the second row) are not read again: the statement takes the values the page read. The row of 200 × 500
(twice the default) is past the limit and shown for the slope. Pages are kept 30 s from their second view, and
\`PUBLIC_PAGE_LIMIT_PER_MINUTE\` bounds what one address can make the database count.`;

const log = (m: string) => process.stderr.write(`[counted-ranks] ${m}\n`);

interface Network {
  players: number;
  stats: number;
  others: number;
  workspaceId: string;
  seasonId: string;
  statIds: string[];
  uuids: string[];
}

/** A network's players (HIDDEN of them hidden), its statistics ranked and its others at 0, every player a value of each. */
async function seedNetwork(db: Db, ws: BenchWorkspace, players: number, stats: number, others: number): Promise<void> {
  await db.query(
    `INSERT INTO players (workspace_id, uuid, username, username_observed_at, public)
     SELECT $1, gen_random_uuid(), 'P' || g, now(), g > $3 FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, players, HIDDEN],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category)
     SELECT $1, 'bench.ranks:s' || g, 'bench.ranks' FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, stats],
  );
  await db.query(
    `INSERT INTO stat_definitions (workspace_id, key, category)
     SELECT $1, 'bench.zero:s' || g, 'bench.zero' FROM generate_series(1, $2::int) g`,
    [ws.workspaceId, others],
  );
  // Values with ties (a real board's many players at the same small counts).
  await db.query(
    `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
     SELECT $1, d.id, p.id, CASE WHEN d.key LIKE 'bench.ranks:%' THEN floor(power(random(), 3) * 1000) ELSE 0 END,
       now(), now()
     FROM stat_definitions d CROSS JOIN players p WHERE d.workspace_id = $2 AND p.workspace_id = $2`,
    [ws.seasonId, ws.workspaceId],
  );
}

/** Public players' values as their pages read them (half of the statistics where less is better). */
async function pagesOf(db: Db, n: Network, count: number): Promise<RankedValue[][]> {
  const pages: RankedValue[][] = [];
  for (let i = 0; i < count; i++) {
    const uuid = n.uuids[Math.floor(Math.random() * n.uuids.length)]!;
    const rows = await db.query<{ id: string; value: number }>(
      `SELECT s.stat_id::text AS id, s.value FROM players p JOIN player_stats s ON s.player_id = p.id
       WHERE p.workspace_id = $1 AND p.uuid = $2 AND s.season_id = $3 AND s.stat_id = ANY($4::uuid[])`,
      [n.workspaceId, uuid, n.seasonId, n.statIds],
    );
    pages.push(rows.map((r, k) => ({ statId: r.id, value: r.value, order: k % 2 ? 'asc' : 'desc' })));
  }
  return pages;
}

/** The statistics' ids and the public players' UUIDs of a seeded network. */
async function describe(db: Db, n: Network): Promise<void> {
  n.statIds = (
    await db.query<{ id: string }>(
      `SELECT id::text AS id FROM stat_definitions WHERE workspace_id = $1 AND key LIKE 'bench.ranks:%'`,
      [n.workspaceId],
    )
  ).map((r) => r.id);
  n.uuids = (
    await db.query<{ uuid: string }>('SELECT uuid::text AS uuid FROM players WHERE workspace_id = $1 AND public', [
      n.workspaceId,
    ])
  ).map((r) => r.uuid);
}

/** What a round is timed with: milliseconds between `start` and `stop`. */
interface Clock {
  start(): Promise<void>;
  stop(): Promise<number>;
}

/** The wall clock (the embedded database runs in this process). */
const WALL_CLOCK: Clock = (() => {
  let at = 0;
  return {
    start: async () => {
      at = performance.now();
    },
    stop: async () => performance.now() - at,
  };
})();

/**
 * ROUNDS rounds of `count` pages (each one of `pages`, at random) and of as many plain counts of the same index
 * entries, after a warm-up: each round's milliseconds a page and a count by `clock`.
 */
async function measure(
  db: Db,
  n: Network,
  pages: RankedValue[][],
  clock: Clock,
  count: number,
): Promise<{ ranks: number[]; floor: number[] }> {
  const page = (values = pages[Math.floor(Math.random() * pages.length)]!) =>
    valueRanks(db, { workspaceId: n.workspaceId, seasonId: n.seasonId, column: 'value', values });
  const plain = () =>
    db.query('SELECT count(*) FROM player_stats WHERE season_id = $1 AND stat_id = ANY($2::uuid[])', [
      n.seasonId,
      n.statIds,
    ]);
  for (let i = 0; i < 20; i++) await Promise.all([page(), plain()]);
  if (process.env.EXPLAIN) {
    const explain = { query: (sql: string, params?: unknown[]) => db.query(`EXPLAIN ANALYZE ${sql}`, params) };
    const plan = (await valueRanks(explain as never, {
      workspaceId: n.workspaceId,
      seasonId: n.seasonId,
      column: 'value',
      values: pages[0]!,
    })) as unknown as { 'QUERY PLAN': string }[];
    log(plan.map((x) => x['QUERY PLAN']).join('\n'));
  }
  const ranks: number[] = [];
  const floor: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await clock.start();
    for (let i = 0; i < count; i++) {
      const got = await page();
      if (got.length !== n.stats) throw new Error(`${got.length} ranks for ${n.stats} statistics`);
    }
    ranks.push((await clock.stop()) / count);
    await clock.start();
    for (let i = 0; i < count; i++) await plain();
    floor.push((await clock.stop()) / count);
  }
  return { ranks, floor };
}

/**
 * The same statement on the embedded database (PGlite, in the process): wall-clock a page, during which its one
 * connection serves nothing else, against one plain count of the same entries.
 */
async function embedded(): Promise<string[]> {
  const rows: string[] = [];
  for (const [players, stats] of EMBEDDED_SHAPES) {
    const dir = await mkdtemp(join(tmpdir(), 'counted-ranks-'));
    try {
      const ws = await seedStatboard({ dataDir: dir }, (db, ws) => seedNetwork(db, ws, players, stats, 0));
      const db = await openTarget({ dataDir: dir });
      try {
        await db.query('VACUUM ANALYZE');
        const n: Network = {
          players,
          stats,
          others: 0,
          workspaceId: ws.workspaceId,
          seasonId: ws.seasonId,
          statIds: [],
          uuids: [],
        };
        await describe(db, n);
        const { ranks, floor } = await measure(db, n, await pagesOf(db, n, 20), WALL_CLOCK, EMBEDDED_PAGES);
        const row =
          `| ${players.toLocaleString('en')} × ${stats} (${(players * stats).toLocaleString('en')} values) | ` +
          `${median(ranks).toFixed(2)} ms (rounds ${ranks.map((x) => x.toFixed(2)).join(', ')}) | ` +
          `${median(floor).toFixed(2)} ms | ${(median(ranks) / median(floor)).toFixed(2)}x |`;
        log(`embedded ${row}`);
        rows.push(row);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const scratch = await createDatabase('statboard_bench_ranks');
  try {
    const networks: Network[] = [];
    for (const [players, stats, others] of SHAPES) {
      const ws = await seedStatboard({ url: scratch.url }, (db, ws) => seedNetwork(db, ws, players, stats, others));
      networks.push({
        players,
        stats,
        others,
        workspaceId: ws.workspaceId,
        seasonId: ws.seasonId,
        statIds: [],
        uuids: [],
      });
    }
    const db = await openTarget({ url: scratch.url }, 1);
    try {
      await db.query('VACUUM ANALYZE');
      for (const n of networks) await describe(db, n);
      const backends = new BackendPids(scratch.name);
      const meter = new CpuMeter(() => backends.list());
      const cpu: Clock = { start: () => meter.start(), stop: async () => (await meter.stop()) * 1000 };
      const rows: string[] = [];
      for (const n of networks) {
        const { ranks, floor } = await measure(db, n, await pagesOf(db, n, 100), cpu, PAGES);
        const values = n.players * n.stats;
        const row =
          `| ${n.players.toLocaleString('en')} × ${n.stats}${n.others ? ` (and ${n.others.toLocaleString('en')} values at 0 each)` : ''} (${values.toLocaleString('en')} values) | ` +
          `${median(ranks).toFixed(2)} ms (rounds ${ranks.map((x) => x.toFixed(2)).join(', ')}) | ` +
          `${((median(ranks) * 1000) / values).toFixed(3)} µs | ${median(floor).toFixed(2)} ms | ` +
          `${(median(ranks) / median(floor)).toFixed(2)}x |`;
        log(row);
        rows.push(row);
      }
      await backends.close();
      const table =
        '| network (players × statistics) | PostgreSQL CPU a page | a value | one count(*) of the same entries | ratio |\n' +
        `|---|---|---|---|---|\n${rows.join('\n')}`;
      const embeddedTable =
        '| network (players × statistics) | PGlite, wall-clock a page | one count(*) of the same entries | ratio |\n' +
        `|---|---|---|---|\n${(await embedded()).join('\n')}`;
      process.stdout.write(`${table}\n\n${embeddedTable}\n`);
      await writeSection(
        '## Public site: ranks a player page counts',
        `${await machineLine()}\n\n${METHOD}\n\n${table}\n\n${EMBEDDED}\n\n${embeddedTable}\n\n${WHERE}`,
      );
      log('wrote "## Public site: ranks a player page counts" in BENCHMARKS.md');
    } finally {
      await db.close();
    }
  } finally {
    await scratch.drop();
  }
}

await main();
