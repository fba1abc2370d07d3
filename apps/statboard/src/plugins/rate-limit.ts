import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '#src/errors.ts';

/** Outcome of counting one request against a window. */
export interface Hit {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/** Fixed-window request counters, in this process or shared through Redis by several instances. */
export interface RateLimiter {
  /** Counts one request; an in-process limiter answers at once (no promise on the hot path). */
  hit(key: string, limit: number, windowMs: number): Hit | Promise<Hit>;
  /** True when counts live in this process and `hit` answers at once. */
  readonly inProcess: boolean;
  /** Resolves when the limiter can count (at start: once connected, or given up on). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Counters in this process: enough for one instance. */
export class MemoryRateLimiter implements RateLimiter {
  readonly inProcess = true;
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweep: NodeJS.Timeout;

  constructor() {
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }, 30_000);
    this.sweep.unref();
  }

  async ready(): Promise<void> {}

  hit(key: string, limit: number, windowMs: number): Hit {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { allowed: w.count <= limit, retryAfter: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
  }
}

/** Where the Redis limiter reports that Redis went away and came back (pino's shape), or nothing. */
export interface RedisStateLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Counters in Redis (REDIS_URL), shared by every instance. While Redis cannot be reached (down, hung, or not
 * connected yet) each instance counts in its own memory instead, without waiting for Redis: an unavailable
 * limiter must neither take the API down nor slow it, and limits still hold per instance. One line is logged
 * when Redis becomes unavailable and one when it is back.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly inProcess = false;
  private readonly redis: Redis;
  private readonly local = new MemoryRateLimiter();
  private downSince: number | null = null;

  constructor(
    url: string,
    private readonly log: RedisStateLog | null = null,
  ) {
    this.redis = new Redis(url, {
      // A command is never queued while disconnected, and never waits long for a hung server.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      commandTimeout: 500,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    this.redis.on('error', (err: Error) => this.unavailable(err));
    this.redis.on('ready', () => this.available());
  }

  private unavailable(err: unknown): void {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    this.log?.warn(
      { reason: (err as Error)?.message ?? String(err) },
      'redis unavailable; counting rate limits in this instance',
    );
  }

  private available(): void {
    if (this.downSince === null) return;
    const downFor = Date.now() - this.downSince;
    this.downSince = null;
    this.log?.info({ down_for_s: Math.round(downFor / 100) / 10 }, 'redis available again');
  }

  /** Waits (at most the connect timeout) for the first connection, so that counts are shared from the start. */
  ready(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 2_000);
      this.redis.once('ready', done);
    });
  }

  hit(key: string, limit: number, windowMs: number): Hit | Promise<Hit> {
    if (this.redis.status !== 'ready') return this.local.hit(key, limit, windowMs);
    return this.remote(key, limit, windowMs);
  }

  private async remote(key: string, limit: number, windowMs: number): Promise<Hit> {
    try {
      const k = `statboard:rl:${key}`;
      const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(res?.[0]?.[1] ?? 0);
      const ttl = Number(res?.[2]?.[1] ?? windowMs);
      return { allowed: count <= limit, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
    } catch (err) {
      this.unavailable(err);
      return this.local.hit(key, limit, windowMs);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.local.close();
  }
}

const MINUTE = 60_000;

function refuseOver(hit: Hit): void {
  if (!hit.allowed) {
    throw new AppError('RATE_LIMITED', `Too many requests; retry in ${hit.retryAfter} s.`, undefined, {
      headers: { 'Retry-After': String(hit.retryAfter) },
    });
  }
}

/** The limits behind `RATE_LIMITED` (429 with Retry-After): per key, per address (failed authentications, logins, public pages). */
export class RequestLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly perKey: number,
    private readonly authFailuresPerIp: number,
    private readonly loginsPerIp = 0,
    private readonly publicPagesPerIp = 0,
  ) {}

  /**
   * Counts a request against `limit` per minute. Throws `RATE_LIMITED` over the limit: at once with the
   * in-process limiter, through the returned promise with Redis.
   */
  private check(key: string, limit: number): undefined | Promise<void> {
    if (limit <= 0) return undefined;
    const hit = this.limiter.hit(key, limit, MINUTE);
    if (hit instanceof Promise) return hit.then(refuseOver);
    refuseOver(hit);
    return undefined;
  }

  /** Counts a request of a verified key (synchronously with the in-process limiter). */
  keyRequest(keyId: string): undefined | Promise<void> {
    return this.check(`key:${keyId}`, this.perKey);
  }

  /** Counts a failed authentication of the client's address (slows down guessing). */
  async authFailure(request: FastifyRequest): Promise<void> {
    await this.check(`fail:${request.ip}`, this.authFailuresPerIp);
  }

  /** Counts a login started from the client's address (each stores a pending login until it expires). */
  async loginStart(request: FastifyRequest): Promise<void> {
    await this.check(`login:${request.ip}`, this.loginsPerIp);
  }

  /** Counts a public site page asked for from the client's address (every page, cached or not, and the 404s). */
  publicPage(request: FastifyRequest): undefined | Promise<void> {
    return this.publicPageFrom(request.ip);
  }

  /** `publicPage` of a request from `address` (the client's, as `request.ip` gives it). */
  publicPageFrom(address: string): undefined | Promise<void> {
    return this.check(`site:${address}`, this.publicPagesPerIp);
  }

  /** Resolves when counting can start (Redis connected, or given up on). */
  ready(): Promise<void> {
    return this.limiter.ready();
  }

  /** True when every count is taken at once in this process (no promise, nothing shared). */
  get inProcess(): boolean {
    return this.limiter.inProcess;
  }

  close(): Promise<void> {
    return this.limiter.close();
  }
}
