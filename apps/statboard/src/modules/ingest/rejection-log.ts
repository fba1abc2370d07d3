import type { FastifyBaseLogger } from 'fastify';

const WINDOW_MS = 60_000;
/** Distinct rejections remembered per window; past it, everything is counted as repeated. */
const MAX_DISTINCT = 1_000;

export interface RejectionLine {
  code: string;
  reason: string;
  key: string | null;
  server: string | null;
  player: string | null;
}

/**
 * The log of rejected uploads, bounded: the first rejection of each (reason, key, server, player) in a minute is
 * a line naming them; repeats are counted and summed up in one line a minute. A flood of bad uploads from a
 * misconfigured mod is a handful of lines, not one per request.
 */
export class RejectionLog {
  private seen = new Set<string>();
  private repeated = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly log: FastifyBaseLogger) {}

  note(line: RejectionLine): void {
    const k = `${line.code}|${line.key}|${line.server}|${line.player}`;
    if (this.seen.has(k) || this.seen.size >= MAX_DISTINCT) {
      this.repeated++;
    } else {
      this.seen.add(k);
      this.log.warn(line, `ingest rejected: ${line.code}: ${line.reason}`);
    }
    if (this.timer === null) {
      this.timer = setTimeout(() => this.roll(), WINDOW_MS);
      this.timer.unref();
    }
  }

  private roll(): void {
    this.timer = null;
    if (this.repeated > 0) {
      this.log.warn(
        { repeated: this.repeated },
        `ingest rejected ${this.repeated} more upload(s) in the last minute, as logged above (not logged one by one)`,
      );
    }
    this.seen = new Set();
    this.repeated = 0;
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
