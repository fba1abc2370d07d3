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

/**
 * Counters in Redis (REDIS_URL), shared by every instance. When Redis cannot be reached the request is let
 * through: an unavailable limiter must not take the API down with it.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly inProcess = false;
  private readonly redis: Redis;

  constructor(url: string) {
    // Commands wait for the connection (no request is let through uncounted at start); with Redis down they fail
    // after one retry and the request is let through.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    this.redis.on('error', () => undefined);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<Hit> {
    try {
      const k = `statboard:rl:${key}`;
      const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(res?.[0]?.[1] ?? 0);
      const ttl = Number(res?.[2]?.[1] ?? windowMs);
      return { allowed: count <= limit, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
    } catch {
      return { allowed: true, retryAfter: 1 };
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
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

/** The two limits behind `RATE_LIMITED` (429 with Retry-After), as the key guard applies them. */
export class RequestLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly perKey: number,
    private readonly authFailuresPerIp: number,
    private readonly loginsPerIp = 0,
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

  /** True when every count is taken at once in this process (no promise, nothing shared). */
  get inProcess(): boolean {
    return this.limiter.inProcess;
  }

  close(): Promise<void> {
    return this.limiter.close();
  }
}
