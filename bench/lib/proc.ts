import { createReadStream, readFileSync } from 'node:fs';

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status), or null when it is gone. */
export function rssBytes(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The peak resident set size of a process so far in bytes (VmHWM, the kernel's high-water mark), or null when it
 * is gone: unlike sampling VmRSS, it misses no spike between two samples.
 */
export function peakRssBytes(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) a process has used, in seconds, or null when it is gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (1-based).
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Samples the RSS of a process while running and keeps the maximum. With `highWaterMark`, samples the kernel's
 * peak (VmHWM) instead: exact up to the last sample, so only the last interval before the process ends is missed.
 */
export class RssSampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
    private readonly highWaterMark = false,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const rss = this.highWaterMark ? peakRssBytes(this.pid) : rssBytes(this.pid);
    if (rss !== null && rss > this.max) this.max = rss;
  }

  /** Stops sampling and returns the maximum RSS seen, in bytes. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.max;
  }
}

/**
 * CPU used by a changing set of processes (e.g. PostgreSQL backends, which come and go) between `start()` and
 * `stop()`: processes seen only at the end count from zero.
 */
export class CpuMeter {
  private before = new Map<number, number>();

  constructor(private readonly pids: () => Promise<number[]> | number[]) {}

  async start(): Promise<void> {
    this.before = new Map();
    for (const pid of await this.pids()) this.before.set(pid, cpuSeconds(pid) ?? 0);
  }

  /** CPU seconds used since start. */
  async stop(): Promise<number> {
    let total = 0;
    for (const pid of await this.pids()) {
      const now = cpuSeconds(pid);
      if (now !== null) total += now - (this.before.get(pid) ?? 0);
    }
    return total;
  }
}

/** How often `needle` occurs in a file, read as a stream (an access log can outgrow a string). */
export async function countOccurrences(file: string, needle: string): Promise<number> {
  let n = 0;
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const text = carry + (chunk as string);
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
    // The tail too short to hold a whole needle: it may begin one that ends in the next chunk.
    carry = text.slice(-(needle.length - 1));
  }
  return n;
}
