/**
 * A steady audience (paced-reader.ts, a process of its own on the generator's cores): requests started on a clock
 * at a given rate, not when the previous one ends, as visitors on other machines make them. Used by bench:site
 * (pages read beside uploads) and by bench/site/uncached-ab.ts (what a page and an API read cost at one rate).
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

const PACED_READER = new URL('./paced-reader.ts', import.meta.url).pathname;

export interface AudienceOptions {
  /** Extra request headers (e.g. an API key's `authorization`). */
  headers?: Record<string, string>;
  /** Whether requests ask for gzip, as browsers do (default true). */
  gzip?: boolean;
}

/** What an audience did: its requests a second answered 200, its own CPU seconds, and what failed by status. */
export interface AudienceResult {
  views: number;
  served: number;
  failed: number;
  statuses: Record<string, number>;
  cpu: number;
}

/**
 * Writes `paths` in a random order to `file`, one a line, for an audience (which reads a file's lines in turn): each
 * request a path drawn at random, none twice until all were read.
 */
export async function writeShuffled(file: string, paths: readonly string[]): Promise<string> {
  const order = paths.map((p) => ({ p, k: Math.random() })).sort((a, b) => a.k - b.k);
  await writeFile(file, order.map(({ p }) => p).join('\n'));
  return file;
}

/**
 * Starts an audience reading `paths` (the lines of `pathsFile`, in turn) at a steady `perSecond` for `seconds` and
 * waits until it is loaded; `go()` starts it and resolves to what it did. Loaded first so that Node.js's start-up
 * (0.1 s of CPU) is not in the measured window.
 */
export async function audience(
  url: string,
  pathsFile: string,
  perSecond: number,
  seconds: number,
  options: AudienceOptions = {},
): Promise<{ go: () => Promise<AudienceResult> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', PACED_READER], {
    env: {
      ...process.env,
      BASE_URL: url,
      PATHS_FILE: pathsFile,
      RATE: String(perSecond),
      SECONDS: String(seconds),
      HEADERS: JSON.stringify(options.headers ?? {}),
      GZIP: options.gzip === false ? '0' : '1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`paced-reader.ts exited with ${code}`)));
    });
  const ready = await next();
  if (ready !== 'ready') throw new Error(`paced-reader.ts: ${ready}`);
  return {
    go: async () => {
      const done = next();
      child.stdin.end('go\n');
      const r = JSON.parse(await done) as Omit<AudienceResult, 'views'>;
      return { ...r, views: r.served / seconds };
    },
  };
}

/** Reads as an audience does for `seconds` (see {@link audience}). */
export async function pacedReads(
  url: string,
  pathsFile: string,
  perSecond: number,
  seconds: number,
  options: AudienceOptions = {},
): Promise<AudienceResult> {
  return (await audience(url, pathsFile, perSecond, seconds, options)).go();
}
