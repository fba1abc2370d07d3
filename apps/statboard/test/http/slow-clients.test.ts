import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers.ts';

/** A raw connection to the app, collecting everything it receives, and when it was closed. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<number>;
  /** Resolves once something has been received (or the connection closed), at most `ms` after it is asked. */
  answered(ms?: number): Promise<void>;
}

function open(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
    });
    const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now())));
    socket.once('error', () => undefined);
    const answered = (ms = 5_000) =>
      new Promise<void>((done) => {
        if (data !== '' || socket.destroyed) return done();
        const timer = setTimeout(done, ms);
        const stop = () => {
          clearTimeout(timer);
          done();
        };
        socket.once('data', stop);
        socket.once('close', stop);
      });
    socket.once('connect', () => resolve({ socket, received: () => data, closed, answered }));
    socket.once('error', reject);
  });
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`;

describe('slow clients and connection limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      MAX_CONNECTIONS_PER_ADDRESS: '5',
      HEADERS_TIMEOUT_SECONDS: '1',
      REQUEST_TIMEOUT_SECONDS: '2',
      KEEP_ALIVE_TIMEOUT_SECONDS: '3',
    });
  });
  afterAll(() => ctx.close());

  it('holds at most MAX_CONNECTIONS_PER_ADDRESS connections from one address; more are answered 429 and closed', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => open(ctx.url)));
    const extra = await open(ctx.url);
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(extra.received()).toContain('"code":"RATE_LIMITED"');
    // The answer carries a request id, in the header and the body alike.
    const id = /X-Request-ID: ([0-9a-f-]{36})\r\n/.exec(extra.received())?.[1];
    expect(id).toBeDefined();
    expect(extra.received()).toContain(`"request_id":"${id}"`);
    // The held ones still work.
    held[0]!.socket.write(GET('/health/live'));
    await held[0]!.answered();
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200 /);
    // Closing one makes room for another.
    held[1]!.socket.destroy();
    await held[1]!.closed;
    await new Promise((r) => setTimeout(r, 20));
    const again = await open(ctx.url);
    again.socket.write(GET('/health/live'));
    await again.answered();
    expect(again.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of [...held, again]) c.socket.destroy();
    await Promise.all([...held, again].map((c) => c.closed));
  });

  it('closes a connection whose headers trickle in past HEADERS_TIMEOUT_SECONDS', async () => {
    const c = await open(ctx.url);
    const start = performance.now();
    c.socket.write('GET /health/live HTTP/1.1\r\nHost: test\r\n');
    const trickle = setInterval(() => c.socket.writable && c.socket.write('X'), 200);
    const closedAt = await c.closed;
    clearInterval(trickle);
    // 1 s of header timeout, checked every second.
    expect(closedAt - start).toBeLessThan(3_500);
    expect(c.received()).toMatch(/^(HTTP\/1\.1 408 |)/);
  });

  it('closes a connection whose body trickles in past REQUEST_TIMEOUT_SECONDS', async () => {
    const c = await open(ctx.url);
    const start = performance.now();
    c.socket.write(
      'POST /api/v1/ingest/batch HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const trickle = setInterval(() => c.socket.writable && c.socket.write(' '), 200);
    const closedAt = await c.closed;
    clearInterval(trickle);
    expect(closedAt - start).toBeLessThan(4_500);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
    const c = await open(ctx.url);
    c.socket.write(GET('/health/live'));
    const start = performance.now();
    const closedAt = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAt - start).toBeGreaterThan(2_500);
    expect(closedAt - start).toBeLessThan(5_000);
  });
});

describe('connection limit behind a trusted proxy', () => {
  it('does not limit the connections of a trusted proxy (TRUST_PROXY): they carry many clients', async () => {
    const ctx = await createTestContext({ MAX_CONNECTIONS_PER_ADDRESS: '2', TRUST_PROXY: '127.0.0.1' });
    try {
      const conns = await Promise.all(Array.from({ length: 4 }, () => open(ctx.url)));
      for (const c of conns) c.socket.write(GET('/health/live'));
      // Each answer awaited (not a fixed pause: on a loaded machine four answers can take longer than 150 ms).
      await Promise.all(conns.map((c) => c.answered()));
      for (const c of conns) expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
      for (const c of conns) c.socket.destroy();
    } finally {
      await ctx.close();
    }
  });
});

describe('draining on shutdown', () => {
  it('answers a new request 503 with Connection: close once draining, in the usual error shape', async () => {
    const ctx = await createTestContext();
    try {
      ctx.app.httpServer.drain();
      const c = await open(ctx.url);
      c.socket.write(GET('/api/v1/health/live'));
      await c.closed;
      const head = c.received().split('\r\n\r\n')[0]!.toLowerCase();
      expect(head).toMatch(/^http\/1\.1 503 /);
      expect(head).toContain('connection: close');
      expect(head).toMatch(/retry-after: \d+/);
      expect(head).toMatch(/x-request-id: \S+/);
      expect(JSON.parse(c.received().split('\r\n\r\n')[1]!)).toMatchObject({
        error: { code: 'SERVICE_UNAVAILABLE' },
      });
    } finally {
      await ctx.close();
    }
  });

  it('answers the request in flight, closes idle and just-finished connections, and closes promptly', async () => {
    const ctx = await createTestContext();
    const idle = await open(ctx.url);
    idle.socket.write(GET('/health/live'));
    const busy = await open(ctx.url);
    await new Promise((r) => setTimeout(r, 50));
    // A request in flight: its headers are in, its body is not.
    const body = '{"not":"a batch"}';
    busy.socket.write(
      `POST /api/v1/ingest/batch HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, 50));
    const start = performance.now();
    const closing = ctx.close();
    await idle.closed;
    busy.socket.write(body);
    await busy.closed;
    await closing;
    expect(performance.now() - start).toBeLessThan(1_500);
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    // Answered (401: no key), not dropped.
    expect(busy.received()).toMatch(/^HTTP\/1\.1 401 /);
  });
});
