import { isDatabaseUnavailable } from '#src/db/availability.ts';
import type { Db } from '#src/db/types.ts';
import { DAY_MS, HOUR_MS } from '#src/lib/time-buckets.ts';
import type { Outbox } from './outbox.ts';
import * as repo from './repo.ts';
import { type AttemptOutcome, send } from './sender.ts';
import { deliveryBody, messageId } from './service.ts';
import { signatureHeader } from './signature.ts';

/** Waits after a failed attempt, by attempt number (the last repeats): about 5 s, 30 s, 2 min, 10 min, 30 min, 1 h. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, HOUR_MS];

export type DeliveryResult = 'success' | 'failure' | 'given_up';

export interface DispatcherOptions {
  /** WEBHOOK_TIMEOUT_SECONDS: an attempt without a complete answer after this long has failed. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Retries go on at least this long after the event (24 h), then the delivery is `failed`. */
  retryForMs?: number;
  /** Waits between attempts (tests shorten them). */
  retryDelaysMs?: readonly number[];
  /** How often the outbox is looked at when nothing woke the sender. */
  pollMs?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
  /** Finished deliveries and their attempts are kept this long. */
  retentionMs?: number;
  /** Told of every attempt's result (metrics). */
  onResult?: (result: DeliveryResult) => void;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
}

/** ±20 %, so that deliveries that failed together are not all retried in the same second. */
function jitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

/**
 * Sends the outbox. Due deliveries are claimed in small batches with a lease (FOR UPDATE SKIP LOCKED), so several
 * instances share the work and never send the same attempt at once; a sender killed mid-delivery leaves its
 * claim to lapse, and the delivery is sent again (at least once: receivers drop repeats by `webhook-id`).
 * Each outcome is recorded with the lease it was claimed under; failures are retried with backoff for at least
 * 24 hours. Housekeeping gives up deliveries left pending past that (a disabled webhook's) and deletes finished
 * ones after 30 days.
 */
export class WebhookDispatcher {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private outage = false;
  private lastHousekeeping = 0;
  private readonly o: Required<Omit<DispatcherOptions, 'onResult'>> & Pick<DispatcherOptions, 'onResult'>;

  constructor(
    private readonly db: Db,
    outbox: Outbox,
    options: DispatcherOptions,
  ) {
    this.o = {
      retryForMs: DAY_MS,
      retryDelaysMs: RETRY_DELAYS_MS,
      pollMs: 1_000,
      concurrency: 8,
      retentionMs: 30 * DAY_MS,
      ...options,
    };
    outbox.onStored(() => this.wake());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Sends what is due now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming; waits up to `waitMs` for attempts in flight (an unfinished one is sent again later). */
  async stop(waitMs = 2_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let sent = 0;
      try {
        await this.housekeeping();
        sent = await this.sendDue();
        if (this.outage) {
          this.outage = false;
          this.o.log.info({}, 'webhooks: the database is back; sending resumes');
        }
      } catch (err) {
        if (!this.outage) {
          this.outage = true;
          if (isDatabaseUnavailable(err)) this.o.log.warn({}, 'webhooks: the database is unavailable; sending paused');
          else this.o.log.warn({ err }, 'webhooks: sending failed; retrying');
        }
      }
      if (sent === 0 && !this.stopped) await this.sleep(this.outage ? this.o.pollMs * 5 : this.o.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        this.woken = false;
        done();
      };
    });
  }

  /** Claims and sends one batch of due deliveries; returns how many. */
  private async sendDue(): Promise<number> {
    // Longer than any attempt can take: a live sender always records its outcome before another may claim it.
    const lease = this.o.timeoutMs * 2 + 5_000;
    const claimed = await repo.claimDue(this.db, this.o.concurrency, lease);
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  private async deliver(d: repo.ClaimedDelivery): Promise<void> {
    const body = deliveryBody(d.type, d.message_created_at, d.data);
    const id = messageId(d.message_id);
    const timestamp = Math.floor(Date.now() / 1000);
    const secrets = d.previous_secret === null ? [d.secret] : [d.secret, d.previous_secret];
    const startedAt = new Date();
    const out: AttemptOutcome = await send({
      url: d.url,
      body,
      timeoutMs: this.o.timeoutMs,
      allowPrivate: this.o.allowPrivate,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Statboard-Webhooks/1',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, id, timestamp, body),
      },
    });
    const now = Date.now();
    const giveUp = !out.ok && now - d.created_at.getTime() >= this.o.retryForMs;
    const delays = this.o.retryDelaysMs;
    const status = out.ok ? 'delivered' : giveUp ? 'failed' : 'pending';
    await repo.finishAttempt(this.db, {
      id: d.id,
      lease: d.lease,
      startedAt,
      durationMs: out.durationMs,
      statusCode: out.statusCode,
      error: out.error ?? (out.ok ? null : `answered ${out.statusCode}`),
      status,
      nextAttemptAt:
        status === 'pending' ? new Date(now + jitter(delays[Math.min(d.attempt - 1, delays.length - 1)]!)) : null,
    });
    this.o.onResult?.(out.ok ? 'success' : giveUp ? 'given_up' : 'failure');
    if (giveUp) {
      this.o.log.warn(
        { webhook_id: d.webhook_id, delivery_id: d.id, attempts: d.attempt },
        'webhooks: a delivery failed for 24 hours and is given up',
      );
    }
  }

  /** At most once a minute: give up what can no longer be sent, delete what is old. */
  private async housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - this.lastHousekeeping < 60_000) return;
    this.lastHousekeeping = now;
    // Pending past the retry window plus an hour's slack: only deliveries nobody tried (a disabled webhook's).
    await repo.expirePending(this.db, new Date(now - this.o.retryForMs - HOUR_MS));
    const before = new Date(now - this.o.retentionMs);
    while ((await repo.pruneDeliveries(this.db, before, 1_000)) === 1_000 && !this.stopped) {}
    while ((await repo.pruneMessages(this.db, before, 1_000)) === 1_000 && !this.stopped) {}
  }
}
