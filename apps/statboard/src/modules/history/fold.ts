import type { Db } from '#src/db/types.ts';
import { DAY_MS, HOUR_MS } from '#src/lib/time-buckets.ts';
import * as repo from './repo.ts';

/** Before any storable date. */
const EARLIEST = new Date('0001-01-01T00:00:00Z');

/** Folds days older than the retention into one point each: a day per transaction, so no write waits long. */
export async function foldHistory(
  db: Db,
  retentionDays: number,
  now: number,
): Promise<{ days: number; points: number }> {
  let days = 0;
  let points = 0;
  if (retentionDays <= 0) return { days, points };
  const cutoff = new Date(Math.floor((now - retentionDays * DAY_MS) / DAY_MS) * DAY_MS);
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const folded = await repo.lockFoldedUntil(tx);
      if (folded !== null && folded >= cutoff) return true;
      // Where the next point lies (days without points need no work), as a day's start.
      const next = await repo.firstPointFrom(tx, folded ?? EARLIEST);
      if (next === null || next >= cutoff) {
        await repo.setFoldedUntil(tx, cutoff);
        return true;
      }
      const day = new Date(Math.floor(next.getTime() / DAY_MS) * DAY_MS);
      const end = new Date(Math.min(day.getTime() + DAY_MS, cutoff.getTime()));
      points += await repo.foldDays(tx, day, end);
      days++;
      await repo.setFoldedUntil(tx, end);
      return false;
    });
    if (done) return { days, points };
  }
}

/**
 * Runs the fold in the background: a minute after start, then every hour. A failure (the database away) is
 * logged and retried at the next run; `stop` waits for a run in progress.
 */
export class HistoryFolder {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
    private readonly log: { info(o: object, msg: string): void; warn(o: object, msg: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  start(firstMs = 60_000): void {
    if (this.retentionDays <= 0) return;
    this.timer = setTimeout(() => this.tick(), firstMs);
    this.timer.unref();
  }

  private tick(): void {
    this.running = foldHistory(this.db, this.retentionDays, this.now())
      .then(({ days, points }) => {
        if (days > 0)
          this.log.info({ days, points }, `history: folded ${days} day(s) past retention to one point a day`);
      })
      .catch((err: unknown) => this.log.warn({ err }, 'history: fold failed; retried in an hour'))
      .finally(() => {
        this.running = null;
      });
    this.timer = setTimeout(() => this.tick(), HOUR_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
