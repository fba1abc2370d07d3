import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLog, lazyChildLogger } from './request-logger.ts';

/** A pino logger at `level` whose lines land in `lines`. */
function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

/** An app logging through `logger`, with the lazy per-request child or Fastify's own. */
function appWith(logger: FastifyBaseLogger, lazy: boolean) {
  const app = Fastify({
    loggerInstance: logger,
    disableRequestLogging: true,
    ...(lazy ? { childLoggerFactory: lazyChildLogger } : {}),
    genReqId: () => 'req-1',
  });
  app.get('/ok', async (request) => {
    request.log.debug('not written at info');
    request.log.info({ extra: 1 }, 'handled');
    return { ok: true };
  });
  app.get('/boom', async (request) => {
    request.log.error('about to fail');
    throw new Error('boom');
  });
  return app;
}

describe('access log line', () => {
  it("is one info line in pino's format with the request id, method, URL, address, status and time", () => {
    const { logger, lines } = capture('info');
    const access = accessLog(logger)!;
    access.write('req-9', 'GET', '/api/v1/seasons?x="quoted"\n', '127.0.0.1', 200, 1.23456);
    expect(lines).toHaveLength(0); // handed over at the next turn of the event loop, or at close
    access.flush();
    logger.info({ reqId: 'req-9' }, 'request completed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'req-9',
      method: 'GET',
      url: '/api/v1/seasons?x="quoted"\n',
      ip: '127.0.0.1',
      statusCode: 200,
      responseTime: 1.23,
      msg: 'request completed',
    });
    // The same fields, in the same order, as pino writes for its own lines.
    expect(Object.keys(lines[0]!).slice(0, 5)).toEqual(Object.keys(lines[1]!).slice(0, 5));
    expect(lines[0]!.hostname).toBe(lines[1]!.hostname);
  });

  it('is off at warn', () => {
    expect(accessLog(capture('warn').logger)).toBeNull();
    expect(accessLog(undefined)).toBeNull();
  });
});

describe('lazy per-request logger', () => {
  it("writes exactly what Fastify's pino child would, at every level, with the request id bound", async () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error']) {
      const ours = capture(level);
      const stock = capture(level);
      const a = appWith(ours.logger, true);
      const b = appWith(stock.logger, false);
      for (const url of ['/ok', '/boom', '/missing']) {
        await a.inject({ url });
        await b.inject({ url });
      }
      const shape = (l: Record<string, unknown>) => [l.level, l.msg, l.reqId, l.extra];
      expect(ours.lines.map(shape), level).toEqual(stock.lines.map(shape));
      if (level === 'info') expect(ours.lines.find((l) => l.msg === 'handled')?.reqId).toBe('req-1');
    }
  });

  it('falls back to the plain child when logging is off', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyChildLogger });
    app.get('/', async (request) => {
      request.log.info('nothing');
      return {};
    });
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
  });
});
