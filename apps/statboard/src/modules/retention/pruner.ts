import type { Db } from '#src/db/types.ts';
import { DAY_MS, HOUR_MS } from '#src/lib/time-buckets.ts';
import type { SessionService } from '#src/modules/sessions/service.ts';
import * as repo from './repo.ts';

/** Events deleted by one statement: small, so that no upload waits behind a long delete. */
export const PRUNE_BATCH = 1_000;
/** A pause between batches, so that uploads get the database (and PGlite's one connection) in between. */
const PAUSE_MS = 20;

export interface PruneResult {
  events: number;
  batches: number;
}

/**
 * Deletes the events stored more than `retentionDays` ago (0: keeps them), a batch at a time until none is left,
 * and the admin sessions and pending logins that have ended.
 */
export async function pruneOnce(
  db: Db,
  sessions: Pick<SessionService, 'pruneEnded'>,
  retentionDays: number,
  now: number,
  stopped: () => boolean = () => false,
): Promise<PruneResult> {
  await sessions.pruneEnded();
  let events = 0;
  let batches = 0;
  if (retentionDays <= 0) return { events, batches };
  const before = new Date(now - retentionDays * DAY_MS);
  for (;;) {
    const n = await repo.pruneEvents(db, before, PRUNE_BATCH);
    events += n;
    batches++;
    if (n < PRUNE_BATCH || stopped()) return { events, batches };
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
}

/**
 * Runs `pruneOnce` in the background: two minutes after start, then every hour. A failure (the database away) is
 * logged and retried at the next run; `stop` ends a run between batches and waits for it.
 */
export class Pruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly sessions: Pick<SessionService, 'pruneEnded'>,
    private readonly retentionDays: number,
    private readonly log: { info(o: object, msg: string): void; warn(o: object, msg: string): void },
  ) {}

  start(firstMs = 120_000): void {
    this.timer = setTimeout(() => this.tick(), firstMs);
    this.timer.unref();
  }

  private tick(): void {
    this.running = pruneOnce(this.db, this.sessions, this.retentionDays, Date.now(), () => this.stopped)
      .then(({ events }) => {
        if (events > 0) {
          this.log.info(
            { events, retention_days: this.retentionDays },
            `retention: deleted ${events} event(s) stored more than ${this.retentionDays} days ago`,
          );
        }
      })
      .catch((err: unknown) => this.log.warn({ err }, 'retention: pruning failed; retried in an hour'))
      .finally(() => {
        this.running = null;
      });
    this.timer = setTimeout(() => this.tick(), HOUR_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
