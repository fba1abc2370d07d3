import { execFileSync } from 'node:child_process';

/**
 * Core pinning for the reads benchmark: the server under test (the service, or a reference server) gets one
 * core to itself and the bench process with its load generator the others, as when clients run on other
 * machines. On 2 shared cores, an unpinned generator preempts the server now and then, and its pauses land in
 * the tail: a bare node:http server answering 20 KB measured p99 1.8–9 ms at 16 connections unpinned and
 * 1.2–1.3 ms pinned, at the same req/s. PostgreSQL is not pinned. BENCH_PIN=0 turns pinning off.
 */
export interface Pinning {
  /** taskset's CPU list for the server under test. */
  server: string;
  /** The rest: the bench process and what it starts without a CPU list (wrk). */
  generator: string;
}

/** The CPUs this process may run on (taskset -cp), or null without taskset. */
function allowedCpus(): number[] | null {
  try {
    const out = execFileSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
    const list = out.slice(out.lastIndexOf(':') + 1).trim();
    const cpus: number[] = [];
    for (const part of list.split(',')) {
      const [from, to] = part.split('-').map(Number);
      if (from === undefined || !Number.isInteger(from)) return null;
      for (let c = from; c <= (to ?? from); c++) cpus.push(c);
    }
    return cpus;
  } catch {
    return null;
  }
}

/**
 * Decides the pinning and moves this process (every thread) to the generator's CPUs. Null when off, when
 * taskset is missing, or with fewer than 2 CPUs.
 */
export function pinForReads(): Pinning | null {
  if (process.env.BENCH_PIN === '0') return null;
  const cpus = allowedCpus();
  if (!cpus || cpus.length < 2) return null;
  const pinning = { server: String(cpus[cpus.length - 1]), generator: cpus.slice(0, -1).join(',') };
  execFileSync('taskset', ['-a', '-cp', pinning.generator, String(process.pid)], { stdio: 'ignore' });
  return pinning;
}
