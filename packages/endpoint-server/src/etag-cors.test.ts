import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { createMemoryHost } from './host.ts';
import { createEndpointServer, type EndpointServer } from './server.ts';

const ENDPOINTS = `endpoints:
  s:
    object:
      ok: "yes"
  p:
    require_player: true
    object:
      name: "{username}"
`;

describe('ETag, If-None-Match and CORS', () => {
  let server: EndpointServer | undefined;
  afterEach(async () => {
    await server?.shutdown(0);
    server = undefined;
  });

  async function start(extra = ''): Promise<string> {
    const { config } = parseConfig(`${extra}${ENDPOINTS}`, { baseDir: '/tmp' });
    server = createEndpointServer({ getSnapshot: () => ({ config, host: createMemoryHost({}) }) });
    return `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  }

  it('gives every 200 answer a strong ETag and answers a matching If-None-Match with 304 and no body', async () => {
    const url = await start();
    for (const path of ['/api/s', '/api/p/Steve', '/api/missing']) {
      const first = await fetch(url + path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      await first.text();
      const again = await fetch(url + path, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      const weak = await fetch(url + path, { headers: { 'if-none-match': `"other", W/${etag}` } });
      expect(weak.status).toBe(304);
      const changed = await fetch(url + path, { headers: { 'if-none-match': '"other"' } });
      expect(changed.status).toBe(200);
      await changed.text();
    }
    const other = await fetch(`${url}/api/p/Alex`);
    expect(other.headers.get('etag')).not.toBe((await fetch(`${url}/api/p/Steve`)).headers.get('etag'));
  });

  it('without cors_origins: no CORS headers, and OPTIONS stays 405', async () => {
    const url = await start();
    const res = await fetch(`${url}/api/s`, { headers: { origin: 'https://site.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${url}/api/s`, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(405);
  });

  it('with cors_origins: the allowed origin on GET/HEAD answers, preflights 204, others nothing', async () => {
    const url = await start('cors_origins: ["https://site.example", "not an origin"]\n');
    const ok = await fetch(`${url}/api/s`, { headers: { origin: 'https://site.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const head = await fetch(`${url}/api/s`, { method: 'HEAD', headers: { origin: 'https://site.example' } });
    expect(head.headers.get('access-control-allow-origin')).toBe('https://site.example');
    const pre = await fetch(`${url}/api/s`, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    const stranger = await fetch(`${url}/api/s`, { headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('cors_origins "*" allows any origin; invalid entries are warned about', async () => {
    const url = await start('cors_origins: ["*"]\n');
    const res = await fetch(`${url}/api/s`, { headers: { origin: 'https://anyone.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { warnings, config } = parseConfig('cors_origins: ["https://a.example/path", 42]\n', { baseDir: '/tmp' });
    expect(config.corsOrigins).toEqual([]);
    expect(warnings.filter((w) => w.startsWith('cors_origins:'))).toHaveLength(2);
  });
});
