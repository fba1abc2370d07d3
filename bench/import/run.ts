/**
 * Import benchmark: `npx statboard import` of a world with 10,000 vanilla statistics files of 100 statistics
 * each, on the embedded database and on PostgreSQL, run as an operator runs it (the CLI, in its own process),
 * then again (nothing changes: the cost of checking), then again with files near the 8 MB limit mixed in (and a
 * few over it, which are skipped unread): the peak RSS must not grow with the files.
 *
 *   npm run bench:import                      # writes "## Statboard import" of BENCHMARKS.md
 *   BENCH_FILES=1000 BENCH_WRITE=0 npm run bench:import
 *   BENCH_LARGE=40 BENCH_DENSE=4 BENCH_OVER=5   # the files mixed in (the defaults)
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/child.ts';
import { createDatabase } from '../lib/pg.ts';
import { RssSampler } from '../lib/proc.ts';
import { machineLine, writeSection } from '../lib/report.ts';
import { type DbTarget, seedStatboard } from '../lib/statboard.ts';
import { table } from '../lib/stats.ts';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const STATS = 100;
const WRITE = process.env.BENCH_WRITE !== '0';
/** Files just under the importer's 8 MB limit mixed in for the last run; DENSE of them all values, the others padded. */
const LARGE = Number(process.env.BENCH_LARGE ?? 40);
const DENSE = Math.min(LARGE, Number(process.env.BENCH_DENSE ?? 4));
/** Files over the limit (9 MB) mixed in too: skipped without being read. */
const OVER = Number(process.env.BENCH_OVER ?? 5);
const LARGE_BYTES = 8 * 1024 * 1024 - 4096;

function log(msg: string): void {
  process.stderr.write(`[bench:import] ${msg}\n`);
}

/** A world folder as Minecraft 1.13+ leaves it: stats/<uuid>.json with 100 statistics each, and usercache.json. */
async function makeWorld(dir: string): Promise<void> {
  const world = join(dir, 'world');
  await mkdir(join(world, 'stats'), { recursive: true });
  const cache: { name: string; uuid: string; expiresOn: string }[] = [];
  const categories = ['minecraft:custom', 'minecraft:mined', 'minecraft:used', 'minecraft:broken'];
  for (let i = 0; i < FILES; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, FILES - i) }, async (_, j) => {
        const uuid = crypto.randomUUID();
        cache.push({ name: `Player${i + j}`, uuid, expiresOn: '2026-12-01 10:00:00 +0000' });
        const stats: Record<string, Record<string, number>> = {};
        for (let s = 0; s < STATS; s++) {
          const category = categories[s % categories.length]!;
          stats[category] ??= {};
          stats[category][`minecraft:stat_${s}`] = Math.floor(Math.random() ** 3 * 100_000);
        }
        await writeFile(join(world, 'stats', `${uuid}.json`), JSON.stringify({ stats, DataVersion: 3955 }));
      }),
    );
  }
  await writeFile(join(dir, 'usercache.json'), JSON.stringify(cache));
}

/**
 * Adds files near the 8 MB limit to the world: DENSE of them as many statistics as fit (about 250,000, the same
 * keys in each), the others 100 statistics and a long string (the parser reads it all); and OVER files of 9 MB.
 */
async function addLargeFiles(dir: string): Promise<void> {
  const stats = join(dir, 'world', 'stats');
  for (let i = 0; i < LARGE; i++) {
    let text: string;
    if (i < DENSE) {
      const parts: string[] = [];
      let size = 64;
      for (let s = 0; size < LARGE_BYTES - 64; s++) {
        const part = `"minecraft:dense_${s}":${1_000_000 + s}`;
        parts.push(part);
        size += part.length + 1;
      }
      text = `{"stats":{"minecraft:custom":{${parts.join(',')}}},"DataVersion":3955}`;
    } else {
      const stats: Record<string, number> = {};
      for (let s = 0; s < STATS; s++) stats[`minecraft:stat_${s}`] = s;
      const head = JSON.stringify({ stats: { 'minecraft:custom': stats }, DataVersion: 3955 });
      text = `${head.slice(0, -1)},"padding":"${'x'.repeat(LARGE_BYTES - head.length - 16)}"}`;
    }
    await writeFile(join(stats, `${crypto.randomUUID()}.json`), text);
  }
  for (let i = 0; i < OVER; i++) {
    const path = join(stats, `${crypto.randomUUID()}.json`);
    await writeFile(path, '');
    await truncate(path, 9 * 1024 * 1024);
  }
}

/** Runs the CLI as `npx statboard` does, returning its wall time, peak RSS (VmHWM) and JSON answer. */
async function cli(env: Record<string, string>, args: string[]): Promise<{ ms: number; rss: number; out: unknown }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/statboard/bin/statboard.mjs', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rss = new RssSampler(child.pid!, 20, true);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const peak = rss.stop();
  if (code !== 0) throw new Error(`statboard ${args.join(' ')} exited ${code}:\n${stderr}\n${stdout}`);
  return { ms: performance.now() - started, rss: peak, out: JSON.parse(stdout) };
}

interface Row {
  db: string;
  run: string;
  files: number;
  ms: number;
  rss: number;
  values: number;
  skipped: number;
}

const largeRun = `again, ${LARGE} files of 8 MB (${DENSE} of ~250,000 values) and ${OVER} of 9 MB mixed in`;

/** Takes the files `addLargeFiles` added out again (the plain world is the next database's). */
async function removeLargeFiles(dir: string): Promise<void> {
  const stats = join(dir, 'world', 'stats');
  for (const name of await readdir(stats)) {
    const info = await stat(join(stats, name));
    if (info.size > 1024 * 1024) await rm(join(stats, name));
  }
}

async function main(): Promise<void> {
  const machine = await machineLine();
  log(machine);
  const dir = await mkdtemp(join(tmpdir(), 'statboard-bench-import-'));
  const rows: Row[] = [];
  const started = performance.now();
  try {
    log(`writing ${FILES.toLocaleString('en-US')} files of ${STATS} statistics`);
    await makeWorld(dir);
    const targets: { db: string; target: DbTarget; env: Record<string, string>; drop?: () => Promise<void> }[] = [];
    const dataDir = join(dir, 'data');
    targets.push({ db: 'embedded (PGlite)', target: { dataDir }, env: { DATA_DIR: dataDir } });
    const scratch = await createDatabase('statboard_bench_import');
    targets.push({
      db: 'PostgreSQL',
      target: { url: scratch.url },
      env: { DATABASE_URL: scratch.url },
      drop: scratch.drop,
    });
    try {
      for (const t of targets) {
        const ws = await seedStatboard(t.target);
        const args = ['import', '--workspace', ws.workspaceId, '--season', 's1', '--world', join(dir, 'world')];
        const runs = ['first run', 'again (no change)', ...(LARGE + OVER > 0 ? [largeRun] : [])];
        for (const run of runs) {
          if (run === largeRun) await addLargeFiles(dir);
          log(`${t.db}: ${run}`);
          const r = await cli(t.env, args);
          const data = (r.out as { data: { values: number; skipped: unknown[] } }).data;
          const files = FILES + (run === largeRun ? LARGE + OVER : 0);
          rows.push({ db: t.db, run, files, ms: r.ms, rss: r.rss, values: data.values, skipped: data.skipped.length });
          log(
            `  ${(r.ms / 1000).toFixed(1)} s, ${data.values.toLocaleString('en-US')} values written, RSS ${Math.round(r.rss / 1048576)} MB`,
          );
        }
        if (LARGE + OVER > 0) await removeLargeFiles(dir);
      }
    } finally {
      for (const t of targets) await t.drop?.();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const md = table(
    ['database', 'run', 'seconds', 'files/s', 'values written', 'values/s', 'files skipped', 'peak RSS of the CLI'],
    rows.map((r) => [
      r.db,
      r.run,
      (r.ms / 1000).toFixed(1),
      Math.round(r.files / (r.ms / 1000)).toLocaleString('en-US'),
      r.values.toLocaleString('en-US'),
      r.values > 0 ? Math.round(r.values / (r.ms / 1000)).toLocaleString('en-US') : '—',
      String(r.skipped),
      `${Math.round(r.rss / 1048576)} MB`,
    ]),
  );
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(`\n${md}\n(${elapsed} s)\n`);
  if (WRITE) {
    await writeSection(
      '## Statboard import',
      [
        machine,
        '',
        `\`npm run bench:import\` (${elapsed} s). A world of ${FILES.toLocaleString('en-US')} \`stats/<uuid>.json\` ` +
          `files of ${STATS} statistics each (as Minecraft 1.13+ writes them) and a usercache.json, imported with ` +
          '`npx statboard import` in its own process (wall time includes starting Node.js, opening and migrating ' +
          'the database), into an empty workspace, then again, then again with files near the 8 MB limit mixed in ' +
          '(and files over it, skipped unread). Files are read ahead at most 32 and 32 MB at a time, parsed one ' +
          'at a time, and written 500 (or 50,000 values) per transaction (one statement with the rules of ' +
          "ingest, history included). Peak RSS is the kernel's high-water mark (VmHWM) of the CLI process.",
        '',
        md,
        '',
        'The second run reads and parses every file again and sends every value to the database, which keeps ' +
          'each stored value (same observation): nothing is written, the time is the price of checking.',
      ].join('\n'),
    );
    log('wrote "## Statboard import" in BENCHMARKS.md');
  }
}

await main();
