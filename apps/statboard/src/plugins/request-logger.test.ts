import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LevelAwareLogController, lazyChildLogger } from './request-logger.ts';

/** An app that logs into `lines`, with our controller (as buildApp sets it up) or Fastify's stock one. */
function capture(level: string, stockController = false) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    childLoggerFactory: lazyChildLogger,
    ...(stockController ? {} : { logController: new LevelAwareLogController() }),
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
  return { app, lines };
}

describe('lazy per-request logger', () => {
  it('writes exactly what a pino child would: the request id bound to every line, levels honoured', async () => {
    const { app, lines } = capture('info');
    expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toEqual(['incoming request', 'handled', 'request completed']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    expect(lines.find((l) => l.msg === 'handled')?.extra).toBe(1);
  });

  it('at warn writes only errors, still with the request id', async () => {
    const { app, lines } = capture('warn');
    expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    expect((await app.inject({ url: '/boom' })).statusCode).toBe(500);
    expect(lines.map((l) => [l.msg, l.reqId])).toContainEqual(['about to fail', 'req-1']);
    expect(
      lines.some((l) => l.level === 50 && l.reqId === 'req-1' && (l.err as { message?: string })?.message === 'boom'),
    ).toBe(true);
  });

  it("writes Fastify's default lines at every level: the level-aware controller only skips what would be dropped", async () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error']) {
      const ours = capture(level);
      const stock = capture(level, true);
      for (const url of ['/ok', '/boom', '/missing']) {
        await ours.app.inject({ url });
        await stock.app.inject({ url });
      }
      const shape = (l: Record<string, unknown>) => [l.level, l.msg, l.reqId];
      expect(ours.lines.map(shape), level).toEqual(stock.lines.map(shape));
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
