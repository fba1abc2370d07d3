import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { pino } from 'pino';
import { redactUrl } from '#src/lib/redact.ts';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
/** What pino loggers (Fastify's) have beyond FastifyBaseLogger's type. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * The access log: one line per request, written when it has been answered, at info (`LOG_LEVEL=warn` turns it
 * off: `accessLog` gives null). Both the fast read path and Fastify write it through here, so every request has
 * the same line: pino's own format (level, time, the logger's pid and hostname, then the fields and `msg`).
 * Secrets in the query string (an API key sent as `?api_key=`, a login's `code`) are redacted.
 *
 * This runs for every request, so it is cheap: the line is built as one string (pino's general serialization
 * cost several times more), and the lines of one event-loop turn go to the logger's destination together at the
 * next turn (handing them over one by one made the destination re-measure its growing buffer each time, about
 * 20 µs per request under load).
 */
export class AccessLog {
  private pending: string[] = [];
  private scheduled = false;

  constructor(
    private readonly stream: { write(chunk: string): unknown },
    /** pino's serialized base bindings: `,"pid":…,"hostname":"…"`. */
    private readonly bindings: string,
  ) {}

  write(
    reqId: string,
    method: string | undefined,
    url: string | undefined,
    ip: string | undefined,
    statusCode: number,
    ms: number,
  ): void {
    this.pending.push(
      `{"level":30,"time":${Date.now()}${this.bindings},"reqId":${JSON.stringify(reqId)},` +
        `"method":${JSON.stringify(method ?? '')},"url":${JSON.stringify(redactUrl(url ?? ''))},"ip":${JSON.stringify(ip ?? '')},` +
        `"statusCode":${statusCode},"responseTime":${Math.round(ms * 100) / 100},"msg":"request completed"}\n`,
    );
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Hands what is pending to the destination now (also at close). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.stream.write(lines);
  }
}

/** The access log of a pino logger, or null when it does not write info lines (or there is none). */
export function accessLog(logger: unknown): AccessLog | null {
  const pinoLogger = logger as Partial<Logger> & Record<symbol, unknown>;
  if (!pinoLogger?.isLevelEnabled?.('info')) return null;
  return new AccessLog(
    pinoLogger[pino.symbols.streamSym] as { write(chunk: string): unknown },
    String(pinoLogger[pino.symbols.chindingsSym] ?? ''),
  );
}

/**
 * The per-request logger (`request.log`), made lazily. Fastify gives every request a pino child bound to its
 * request id; making one costs several microseconds per request even when nothing is logged through it (the
 * usual case: the access line is written by `logRequest`). This one makes the real child on the first enabled
 * log call only, so log lines are exactly what the default would write.
 */
class LazyRequestLogger {
  #child: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private real(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.opts) as Logger;
    return this.#child;
  }

  private log(level: Method, args: unknown[]): void {
    const target = this.#child ?? this.parent;
    if (!target.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, opts);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child per request (see LazyRequestLogger). */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, opts) =>
  typeof (logger as Partial<Logger>).isLevelEnabled === 'function'
    ? (new LazyRequestLogger(logger as Logger, bindings, opts) as unknown as FastifyBaseLogger)
    : logger.child(bindings, opts); // no pino (logging off): its child is already free
