import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeServerTap, startFakeServerTap } from '../../test/helpers.ts';
import { createServerTapProvider, type PlaceholderProvider } from './servertap.ts';

describe('ServerTap provider', () => {
  let tap: FakeServerTap;
  let provider: PlaceholderProvider;
  const signal = new AbortController().signal;

  beforeEach(async () => {
    tap = await startFakeServerTap();
    tap.values.set('a', 'A');
    tap.values.set('b', 'B');
    provider = createServerTapProvider({ url: tap.url, key: 'k' });
  });

  afterEach(async () => {
    provider.close();
    await tap.close();
  });

  it('resolves several placeholders in one request and splits the answer', async () => {
    expect(await provider.resolve(['%a%', '%b%', '%c%'], 'u-1', signal)).toEqual(['A', 'B', '%c%']);
    expect(tap.requests).toHaveLength(1);
    expect(tap.requests[0]).toMatchObject({ uuid: 'u-1', key: 'k' });
  });

  it('falls back to one request each when the joined answer does not split back', async () => {
    const normal = tap.handler;
    tap.handler = (req, res) => {
      if (req.message.includes('%a%') && req.message.includes('%b%')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('"mangled"');
        return;
      }
      normal(req, res);
    };
    expect(await provider.resolve(['%a%', '%b%'], null, signal)).toEqual(['A', 'B']);
    expect(tap.requests).toHaveLength(3);
  });

  it('asks placeholders with stray % on their own', async () => {
    expect(await provider.resolve(['%a%', '%x%y%'], null, signal)).toEqual(['A', '%x%y%']);
    expect(tap.requests.map((r) => r.message).sort()).toEqual(['%a%', '%x%y%']);
  });

  it('rejects on a non-2xx status or an answer that is not a JSON string', async () => {
    tap.handler = (_req, res) => res.writeHead(403).end('"no"');
    await expect(provider.resolve(['%a%'], null, signal)).rejects.toThrow(/403/);
    tap.handler = (_req, res) => res.writeHead(200).end('{"a":1}');
    await expect(provider.resolve(['%a%'], null, signal)).rejects.toThrow(/not a string/);
  });

  it('shares identical requests in flight', async () => {
    const normal = tap.handler;
    tap.handler = (req, res) => setTimeout(() => normal(req, res), 50);
    const answers = await Promise.all([1, 2, 3].map(() => provider.resolve(['%a%'], 'u', signal)));
    expect(answers).toEqual([['A'], ['A'], ['A']]);
    expect(tap.requests).toHaveLength(1);
  });

  it('aborts the request when the caller gives up', async () => {
    tap.handler = () => {};
    const controller = new AbortController();
    const pending = provider.resolve(['%a%'], null, controller.signal);
    setTimeout(() => controller.abort(new Error('gone')), 30);
    await expect(pending).rejects.toThrow('gone');
  });
});
