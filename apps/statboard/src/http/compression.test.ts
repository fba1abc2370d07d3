import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, COMPRESS_MIN_BYTES, gzippedFor, precompressed, varyWithEncoding } from './compression.ts';

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, GZip;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['identity', false],
    ['', false],
    ['br', false],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0, gzip', true],
    ['gzip;q=abc', false],
  ])('%j → %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});

describe('gzippedFor', () => {
  it('compresses a large answer the second time it is sent, never a small one or for a client that refuses', async () => {
    const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 4_000 }, (_, i) => ({ n: i })) }));
    expect(body.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES);
    expect(gzippedFor(body, 'gzip')).toBeNull();
    expect(gzippedFor(body, undefined)).toBeNull();
    expect(gzippedFor(body, 'gzip')).toBeNull();
    let copy = gzippedFor(body, 'gzip');
    for (let i = 0; i < 100 && copy === null; i++) {
      await new Promise((r) => setTimeout(r, 5));
      copy = gzippedFor(body, 'gzip');
    }
    expect(copy?.length).toBeLessThan(body.length);
    expect(gzippedFor(body, 'identity')).toBeNull();
    const small = Buffer.from('{"data":[]}');
    for (let i = 0; i < 3; i++) expect(gzippedFor(small, 'gzip')).toBeNull();
  });

  it('has the copy of a precompressed answer ready when it is first sent', async () => {
    const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 4_000 }, (_, i) => ({ m: i })) }));
    expect(await precompressed(body)).toBe(body);
    const copy = gzippedFor(body, 'gzip');
    expect(copy && gunzipSync(copy).equals(body)).toBe(true);
    expect(gzippedFor(body, undefined)).toBeNull();
    const small = Buffer.from('{"data":[]}');
    expect(await precompressed(small)).toBe(small);
    expect(gzippedFor(small, 'gzip')).toBeNull();
  });

  it('adds Accept-Encoding to a Vary header', () => {
    expect(varyWithEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyWithEncoding('Origin')).toBe('Origin, Accept-Encoding');
  });
});
