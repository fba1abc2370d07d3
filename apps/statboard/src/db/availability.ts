/**
 * Whether the database can be reached, as the service's own queries find it. An outage is logged once when it
 * begins, reminded at most once a minute, and once when it ends; the requests it fails answer 503 without a
 * log line of their own (see `isDatabaseUnavailable`).
 */

/** SQLSTATEs that mean "the server cannot serve this connection now", not "this statement is wrong". */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown (fast shutdown, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '57014', // query_canceled: our statement_timeout (the service cancels nothing else)
  '25P03', // idle_in_transaction_session_timeout
]);

const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** Messages of the `pg` client for a connection that broke, never opened in time, or stopped answering. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed|Connection ended)/;

/** True for an error that says the database is unreachable, hung or restarting (the request may be retried). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true; // connection_exception class
    if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  const { errors, cause } = err as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true; // a multi-address connect
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}

/** Where outage lines go: pino's `warn`/`info` shape, or nothing (the CLI, tests). */
export interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const REMINDER_MS = 60_000;

/** The database's state as the last queries found it. Cheap on the hot path: one boolean read per success. */
export class Availability {
  private downSince: number | null = null;
  private lastReminder = 0;
  /** When the last outage ended (its queries still failing after it are not a new one). */
  private upSince = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly log: OutageLog | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /**
   * A query failed because the database is unavailable. `startedAt` (from `time()`): when it was sent. A query sent
   * before the last outage ended and failing after it (its timer or broken connection read late) is that outage's,
   * not a new one.
   */
  failed(err: unknown, startedAt = Number.POSITIVE_INFINITY): void {
    if (this.downSince === null && startedAt < this.upSince) return;
    const t = this.now();
    const reason = describe(err);
    if (this.downSince === null) {
      this.downSince = t;
      this.lastReminder = t;
      this.log?.warn({ reason }, 'database unavailable');
    } else if (t - this.lastReminder >= REMINDER_MS) {
      this.lastReminder = t;
      this.log?.warn({ reason, down_for_s: Math.round((t - this.downSince) / 1000) }, 'database still unavailable');
    }
  }

  /** The time a query starts, to give `succeeded` when it returns. */
  time(): number {
    return this.now();
  }

  /**
   * A query succeeded. `startedAt` (from `time()`): when it was sent. A query sent before the outage began says
   * nothing of its end: its answer may have arrived before the database stopped and been read only after another
   * query's timeout (an event loop running late), which logged an outage's end and a new outage a moment later.
   */
  succeeded(startedAt = Number.POSITIVE_INFINITY): void {
    if (this.downSince === null || startedAt < this.downSince) return;
    const downFor = this.now() - this.downSince;
    this.downSince = null;
    this.upSince = this.now();
    this.log?.info({ down_for_s: Math.round(downFor / 100) / 10 }, 'database available again');
  }
}

function describe(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : 'unknown error';
  return typeof code === 'string' ? `${code}: ${text}` : text;
}
