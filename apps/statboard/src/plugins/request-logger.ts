import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
/** What pino loggers (Fastify's) have beyond FastifyBaseLogger's type. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * The access log: one line per request, written when it has been answered, at info (`LOG_LEVEL=warn` turns it
 * off). Both the fast read path and Fastify write it through here, so every request has the same line.
 */
export function logRequest(
  log: FastifyBaseLogger,
  reqId: string,
  method: string | undefined,
  url: string | undefined,
  ip: string | undefined,
  statusCode: number,
  ms: number,
): void {
  if (!(log as Partial<Logger>).isLevelEnabled?.('info')) return;
  log.info({ reqId, method, url, ip, statusCode, responseTime: Math.round(ms * 100) / 100 }, 'request completed');
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
