import { isDatabaseUnavailable } from '#src/db/availability.ts';
import type { ScheduleTransition, SeasonService } from './service.ts';

/** How often schedules are looked at: a season starts or ends within this long of its time (the spec allows 60 s). */
export const SCHEDULE_PERIOD_MS = 15_000;

export interface SchedulerOptions {
  /** The time schedules are compared with, in milliseconds since the epoch (tests move it; default `Date.now`). */
  now?: () => number;
  periodMs?: number;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
}

/**
 * Starts and ends seasons at their times: `SeasonService.runSchedules` at start, then every 15 seconds. Every
 * instance runs one; each transition happens once whichever instance sees it first. A failure (the database
 * away) is logged once and retried at the next run; `stop` waits for a run in progress.
 */
export class SeasonScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private failing = false;
  private readonly now: () => number;
  private readonly periodMs: number;

  constructor(
    private readonly seasons: Pick<SeasonService, 'runSchedules'>,
    private readonly options: SchedulerOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.periodMs = options.periodMs ?? SCHEDULE_PERIOD_MS;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.tick();
  }

  /** Runs the schedules once now (unless a run is in progress: then waits for it). */
  async runOnce(): Promise<ScheduleTransition[]> {
    if (this.running) {
      await this.running;
      return [];
    }
    let done: ScheduleTransition[] = [];
    this.running = this.seasons
      .runSchedules(new Date(this.now()))
      .then((transitions) => {
        done = transitions;
        if (this.failing) this.options.log.info({}, 'seasons: schedules run again');
        this.failing = false;
        for (const t of transitions) this.logTransition(t);
      })
      .catch((err: unknown) => {
        if (!this.failing) {
          this.failing = true;
          const detail = isDatabaseUnavailable(err) ? {} : { err };
          this.options.log.warn(detail, 'seasons: running the schedules failed; retrying');
        }
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
    return done;
  }

  private logTransition(t: ScheduleTransition): void {
    const fields = { workspace_id: t.workspaceId, season_id: t.season.id, slug: t.season.slug };
    if (t.type === 'activated') this.options.log.info(fields, `seasons: season ${t.season.slug} started (scheduled)`);
    else this.options.log.info(fields, `seasons: season ${t.season.slug} ended (scheduled)`);
  }

  private tick(): void {
    if (this.stopped) return;
    void this.runOnce().finally(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => this.tick(), this.periodMs);
      this.timer.unref();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
