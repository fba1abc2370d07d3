import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, parseConfig } from './config.ts';
import { createMemoryHost } from './host.ts';
import { createEndpointServer, type EndpointServer } from './server.ts';

const LIMITS = `headers_timeout_seconds: 1
client_timeout_seconds: 2
keep_alive_timeout_seconds: 2
max_connections_per_address: 4
endpoints:
  s:
    object:
      ok: "yes"
`;

interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<number>;
}

function open(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
    });
    const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now())));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

const GET = 'GET /api/s HTTP/1.1\r\nHost: t\r\n\r\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('slow clients and connection floods', () => {
  let server: EndpointServer | undefined;
  afterEach(async () => {
    await server?.shutdown(0);
    server = undefined;
  });

  async function start(text = LIMITS): Promise<number> {
    const { config } = parseConfig(text, { baseDir: '/tmp' });
    server = createEndpointServer({ getSnapshot: () => ({ config, host: createMemoryHost({}) }) });
    return (await server.listen(0, '127.0.0.1')).port;
  }

  it('holds at most max_connections_per_address from one address; more get 429 and are closed', async () => {
    const port = await start();
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    const extra = await open(port);
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(extra.received()).toContain('Too many open connections');
    held[0]!.socket.write(GET);
    await sleep(100);
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const h of held) h.socket.destroy();
  });

  it('closes a connection whose headers trickle in past headers_timeout_seconds', async () => {
    const port = await start();
    const c = await open(port);
    const t = performance.now();
    c.socket.write('GET /api/s HTTP/1.1\r\n');
    const trickle = setInterval(() => c.socket.writable && c.socket.write('X'), 200);
    const closedAt = await c.closed;
    clearInterval(trickle);
    expect(closedAt - t).toBeLessThan(3_500);
  });

  it('closes an idle keep-alive connection after keep_alive_timeout_seconds', async () => {
    const port = await start();
    const c = await open(port);
    c.socket.write(GET);
    const t = performance.now();
    const closedAt = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAt - t).toBeGreaterThan(1_500);
    expect(closedAt - t).toBeLessThan(4_500);
  });
});

describe('client limit settings', () => {
  it('defaults', () => {
    const { config, warnings } = parseConfig('endpoints: {}\n', { baseDir: '/tmp' });
    expect(config.clients).toEqual({
      headersTimeoutSeconds: CONFIG_DEFAULTS.headersTimeoutSeconds,
      clientTimeoutSeconds: CONFIG_DEFAULTS.clientTimeoutSeconds,
      keepAliveTimeoutSeconds: CONFIG_DEFAULTS.keepAliveTimeoutSeconds,
      maxConnectionsPerAddress: CONFIG_DEFAULTS.maxConnectionsPerAddress,
    });
    expect(warnings).toEqual([]);
  });

  it('falls back with a warning naming the key', () => {
    const { config, warnings } = parseConfig(
      'headers_timeout_seconds: 0\nclient_timeout_seconds: "soon"\nmax_connections_per_address: -1\nkeep_alive_timeout_seconds: 1.5\n',
      { baseDir: '/tmp' },
    );
    expect(config.clients).toEqual({
      headersTimeoutSeconds: 10,
      clientTimeoutSeconds: 30,
      keepAliveTimeoutSeconds: 5,
      maxConnectionsPerAddress: 256,
    });
    for (const key of [
      'headers_timeout_seconds',
      'client_timeout_seconds',
      'max_connections_per_address',
      'keep_alive_timeout_seconds',
    ]) {
      expect(warnings.some((w) => w.startsWith(`${key}:`))).toBe(true);
    }
  });

  it('keeps the headers timeout within the client timeout', () => {
    const { config, warnings } = parseConfig('headers_timeout_seconds: 20\nclient_timeout_seconds: 5\n', {
      baseDir: '/tmp',
    });
    expect(config.clients.headersTimeoutSeconds).toBe(5);
    expect(warnings.some((w) => w.startsWith('headers_timeout_seconds:'))).toBe(true);
  });
});
