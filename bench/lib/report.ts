import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child.ts';
import { serverVersion } from './pg.ts';

export const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md');

/** One line naming the run's date and machine. */
export async function machineLine(): Promise<string> {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const pgVersion = await serverVersion().catch(() => 'PostgreSQL unavailable');
  return (
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${availableParallelism()} cores ` +
    `(${cpu}), Node ${process.version}, ${pgVersion}; load average at start ${load}.`
  );
}

/**
 * Replaces the section that starts with `heading` (a `## ` line) up to the next `## ` heading, or appends it.
 * Re-reads the file right before writing: other sections belong to other benchmarks.
 */
export async function writeSection(heading: string, body: string, file = BENCHMARKS_FILE): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const lines = current.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  const section = [heading, '', body.trim(), ''];
  if (start === -1) {
    const base = current.endsWith('\n') ? current : `${current}\n`;
    await writeFile(file, `${base}\n${section.join('\n')}`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end === -1) end = lines.length;
  const next = [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n');
  await writeFile(file, next.endsWith('\n') ? next : `${next}\n`);
}
