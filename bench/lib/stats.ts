/** Latency samples of one case, in milliseconds; percentiles by sorting (a few 100 k samples at most). */
export class Latencies {
  private samples: number[] = [];

  record(ms: number): void {
    this.samples.push(ms);
  }

  get count(): number {
    return this.samples.length;
  }

  /** The p-th percentile (0–100), nearest-rank; NaN when empty. */
  percentile(p: number): number {
    if (this.samples.length === 0) return Number.NaN;
    const sorted = Float64Array.from(this.samples).sort();
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
    return sorted[rank - 1]!;
  }
}

/** The result of one timed case. */
export interface CaseResult {
  /** Completed successful requests (or statements) per second. */
  perSecond: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  seconds: number;
}

export function summarize(lat: Latencies, ok: number, failed: number, seconds: number): CaseResult {
  return { perSecond: ok / seconds, p50: lat.percentile(50), p99: lat.percentile(99), ok, failed, seconds };
}

/** 12345.6 → "12,346"; small numbers keep one decimal. */
export function fmtInt(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}

/** Milliseconds with two decimals below 10 ms, one above. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : '—';
}

/** A markdown table. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
