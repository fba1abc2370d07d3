import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { createMemoryHost, type Host, type PlayerRecord } from './host.ts';
import { createEndpointServer, type EndpointServer } from './server.ts';

const CONFIG = `request_timeout_seconds: 1
endpoints:
  p:
    require_player: true
    object:
      name: "{username}"
      seen: "{last_seen}"
      ext: "{ext:x}"
  s:
    object:
      ext: "{ext:x}"
`;

describe('endpoint server against an in-memory host', () => {
  let server: EndpointServer | undefined;

  afterEach(async () => {
    await server?.shutdown(0);
    server = undefined;
  });

  async function start(host: Host, text = CONFIG): Promise<string> {
    const { config } = parseConfig(text, { baseDir: '/tmp' });
    server = createEndpointServer({ getSnapshot: () => ({ config, host }) });
    const address: AddressInfo = await server.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${address.port}`;
  }

  it('renders host data', async () => {
    const host = createMemoryHost({
      players: new Map([['Steve', { lastLogin: null, lastSeen: new Date(Date.UTC(2024, 0, 1)) }]]),
      resolve: (p, player) => `${p}:${player ?? '-'}`,
    });
    const url = await start(host);
    expect(await (await fetch(`${url}/api/p/Steve`)).json()).toEqual({
      name: 'Steve',
      seen: '2024/01/01 00:00:00',
      ext: '%x%:Steve',
    });
    expect(await (await fetch(`${url}/api/s`)).json()).toEqual({ ext: '%x%:-' });
  });

  it('answers 500 when the host throws and 503 when it is too slow, aborting the work', async () => {
    let aborted = 0;
    const host = createMemoryHost({
      resolve: (_p, player, signal) =>
        new Promise<string>((resolve, reject) => {
          if (player === 'boom') {
            reject(new Error('boom'));
            return;
          }
          signal.addEventListener('abort', () => {
            aborted++;
            reject(signal.reason);
          });
          setTimeout(() => resolve('late'), 5000);
        }),
    });
    const url = await start(host);
    const failed = await fetch(`${url}/api/p/boom`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'Failed to collect the requested data.' });
    const slow = await fetch(`${url}/api/p/slow`);
    expect(slow.status).toBe(503);
    expect(await slow.json()).toEqual({ error: 'Timed out while collecting the requested data.' });
    expect(aborted).toBe(1);
  });

  it('shares identical renders in flight, each request keeping its own time limit', async () => {
    let calls = 0;
    let aborted = 0;
    const host = createMemoryHost({
      resolve: (_p, _player, signal) =>
        new Promise<string>((resolve, reject) => {
          calls++;
          signal.addEventListener('abort', () => {
            aborted++;
            reject(signal.reason);
          });
          setTimeout(() => resolve('late'), 1300);
        }),
    });
    const url = await start(host);
    // The first request times out at 1 s; the second joins 600 ms later and gets the answer at 1.3 s.
    const first = fetch(`${url}/api/p/Alex`);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const second = fetch(`${url}/api/p/Alex`);
    expect((await first).status).toBe(503);
    const joined = await second;
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ name: 'Alex', seen: 'never', ext: 'late' });
    expect(calls).toBe(1);
    expect(aborted).toBe(0);
  });

  it('re-renders a cached answer when the player record or its dates change', async () => {
    let record: PlayerRecord | null = { lastLogin: null, lastSeen: new Date(Date.UTC(2024, 0, 1)) };
    const host: Host = { ...createMemoryHost(), findPlayerCached: () => record };
    const url = await start(
      host,
      'endpoints:\n  q:\n    object:\n      name: "{username}"\n      seen: "{last_seen}"\n',
    );
    const get = async (name: string): Promise<unknown> => (await fetch(`${url}/api/q/${name}`)).json();
    expect(await get('Steve')).toEqual({ name: 'Steve', seen: '2024/01/01 00:00:00' });
    expect(await get('Alex')).toEqual({ name: 'Alex', seen: '2024/01/01 00:00:00' });
    record.lastSeen?.setTime(Date.UTC(2025, 0, 1));
    expect(await get('Steve')).toEqual({ name: 'Steve', seen: '2025/01/01 00:00:00' });
    record = { lastLogin: null, lastSeen: new Date(Date.UTC(2026, 0, 1)) };
    expect(await get('Steve')).toEqual({ name: 'Steve', seen: '2026/01/01 00:00:00' });
    record = null;
    expect(await get('Steve')).toEqual({ name: 'Steve', seen: 'never' });
    const head = await fetch(`${url}/api/q/Steve`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength('{"name":"Steve","seen":"never"}')));
  });

  it('answers 503 "The plugin is shutting down." when the host is inactive', async () => {
    const host = createMemoryHost();
    const url = await start(host);
    host.setActive(false);
    const res = await fetch(`${url}/api/s`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'The plugin is shutting down.' });
  });
});
