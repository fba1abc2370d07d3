import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: null,
      publicUrl: 'http://127.0.0.1:8080',
      bootstrapToken: null,
      oidc: null,
      redisUrl: null,
      nextUploadAfterSeconds: 60,
      playerCacheBytes: 24 * 1024 * 1024,
      metricsPort: null,
      webhooks: { allowPrivate: false, timeoutMs: 10_000 },
    });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('resolves a relative DATA_DIR against the folder the command was started in (INIT_CWD under npm)', () => {
    expect(loadConfig({ INIT_CWD: '/srv/statboard' }).dataDir).toBe('/srv/statboard/data');
    expect(loadConfig({ INIT_CWD: '/srv/statboard', DATA_DIR: 'state' }).dataDir).toBe('/srv/statboard/state');
    expect(loadConfig({ INIT_CWD: '/srv/statboard', DATA_DIR: '/var/lib/statboard' }).dataDir).toBe(
      '/var/lib/statboard',
    );
    expect(loadConfig({}).dataDir).toBe(`${process.cwd()}/data`);
  });

  it('reads CORS_ORIGINS as origins or *, refusing anything else', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    for (const bad of ['a.example', 'https://a.example/path', 'ftp://a.example']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
  });

  it('reads TRUST_PROXY: off by default, 1 for every proxy, or addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/);
  });

  it('reads PAGE_CACHE_MB in MiB (0: no rendered public page kept)', () => {
    expect(loadConfig({}).pageCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ PAGE_CACHE_MB: '0' }).pageCacheBytes).toBe(0);
    expect(loadConfig({ PAGE_CACHE_MB: '8' }).pageCacheBytes).toBe(8 * 1024 * 1024);
    expect(() => loadConfig({ PAGE_CACHE_MB: 'lots' })).toThrow(/PAGE_CACHE_MB/);
  });

  it('reads PLAYER_CACHE_MB in MiB (0: no cached player answers)', () => {
    expect(loadConfig({ PLAYER_CACHE_MB: '0' }).playerCacheBytes).toBe(0);
    expect(loadConfig({ PLAYER_CACHE_MB: '8' }).playerCacheBytes).toBe(8 * 1024 * 1024);
    expect(() => loadConfig({ PLAYER_CACHE_MB: '-1' })).toThrow(/PLAYER_CACHE_MB/);
  });

  it('derives PUBLIC_URL from HOST and PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://0.0.0.0:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://stats.example.com/' }).publicUrl).toBe('https://stats.example.com');
  });

  it('fails naming every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'nope',
        OIDC_ISSUER: 'http://idp.example.com',
        HISTORY_ENABLED: 'maybe',
        WEBHOOK_TIMEOUT_SECONDS: '999',
        METRICS_PORT: '70000',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      const names = ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'HISTORY_ENABLED'];
      for (const name of [...names, 'WEBHOOK_TIMEOUT_SECONDS', 'METRICS_PORT']) expect(msg).toContain(name);
    }
  });

  it('reads METRICS_PORT: unset means no metrics listener; it may not be PORT', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT must differ from PORT/);
  });

  it('accepts an http issuer only on a loopback host', () => {
    expect(loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:9999', OIDC_CLIENT_ID: 'a' }).oidc?.issuer).toBe(
      'http://127.0.0.1:9999',
    );
    expect(loadConfig({ OIDC_ISSUER: 'http://localhost:9999', OIDC_CLIENT_ID: 'a' }).oidc).not.toBeNull();
    expect(() => loadConfig({ OIDC_ISSUER: 'http://10.0.0.1', OIDC_CLIENT_ID: 'a' })).toThrow(ConfigError);
  });
});
