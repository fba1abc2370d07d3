import type { FastifyBaseLogger } from 'fastify';

/** Two lines about one key's rejections are at least this far apart. */
const LINE_GAP_MS = 1_000;
/** A (reason, server, player) logged for a key is not logged again for this long; its repeats are counted. */
const WINDOW_MS = 60_000;
/** How often ended windows are summed up. */
const TICK_MS = 1_000;

export interface RejectionLine {
  code: string;
  reason: string;
  /** The key's id; null when the request had no usable key (all of those share one budget). */
  key: string | null;
  server: string | null;
  player: string | null;
}

/** One key's budget: when it last had a line, and what it did not log. */
interface KeyWindow {
  startedAt: number;
  lastLineAt: number;
  /** `code|server|player` logged in this window. */
  logged: Set<string>;
  suppressed: number;
}

/**
 * The log of rejected uploads, bounded per key: at most one line a second for each key, and one for all requests
 * without a usable key together (an unknown-key flood is one source, whatever tokens it sends). A line names the
 * first rejection of a (reason, server, player) in a minute; what is not logged (repeats, and new ones within the
 * second) is counted and summed up in one line per key when its minute ends. A flood of bad uploads from a
 * misconfigured or hostile mod is a handful of lines, not one per request.
 */
export class RejectionLog {
  private readonly windows = new Map<string | null, KeyWindow>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly log: FastifyBaseLogger) {}

  note(line: RejectionLine): void {
    const now = Date.now();
    let w = this.windows.get(line.key);
    if (!w) {
      w = { startedAt: now, lastLineAt: Number.NEGATIVE_INFINITY, logged: new Set(), suppressed: 0 };
      this.windows.set(line.key, w);
    }
    const what = `${line.code}|${line.server}|${line.player}`;
    if (w.logged.has(what) || now - w.lastLineAt < LINE_GAP_MS) {
      w.suppressed++;
    } else {
      w.logged.add(what);
      w.lastLineAt = now;
      this.log.warn(line, `ingest rejected: ${line.code}: ${line.reason}`);
    }
    if (this.timer === null) {
      this.timer = setInterval(() => this.tick(false), TICK_MS);
      this.timer.unref();
    }
  }

  /**
   * Sums up the windows that ended (all of them when `closing`): one line per key counting what it did not log,
   * once its last line is a second old (else at a later tick). Keys that went quiet are forgotten.
   */
  private tick(closing: boolean): void {
    const now = Date.now();
    for (const [key, w] of this.windows) {
      if (!closing && now - w.startedAt < WINDOW_MS) continue;
      if (now - w.lastLineAt < LINE_GAP_MS) continue;
      if (w.suppressed > 0) {
        this.log.warn(
          { key, suppressed: w.suppressed },
          `ingest rejected ${w.suppressed} more upload(s) ${key === null ? 'without a usable key' : `of key ${key}`} since ${new Date(w.startedAt).toISOString()}, not logged one by one`,
        );
        w.lastLineAt = now;
        w.suppressed = 0;
        w.startedAt = now;
        w.logged.clear();
      } else {
        this.windows.delete(key);
      }
    }
    if (this.windows.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stops the timer, summing up what waits and can be logged now (a key with a line this second cannot). */
  close(): void {
    this.tick(true);
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
