import { describe, expect, it } from 'vitest';
import { hasUnstorableText, urlMayHoldUnstorable } from './storable.ts';

describe('unstorable text', () => {
  it('finds NUL and unpaired surrogates anywhere, keys included', () => {
    expect(hasUnstorableText({ a: ['x', { b: 'y\u0000' }] })).toBe(true);
    expect(hasUnstorableText({ 'k\ud800': 1 })).toBe(true);
    expect(hasUnstorableText(['\udc00'])).toBe(true);
    expect(hasUnstorableText({ ok: '🎮 ümlaut', n: 1, z: null })).toBe(false);
  });

  it('lets a request target skip the walk only when nothing decoded from it can be unstorable', () => {
    for (const url of [
      '/api/v1/leaderboards?season=s1&stat=minecraft.mined%3Aminecraft.stone&limit=10',
      '/health/live',
    ]) {
      expect(urlMayHoldUnstorable(url)).toBe(false);
    }
    // NUL, any escaped non-ASCII byte (surrogates come from those), raw non-ASCII or control characters.
    for (const url of ['/p?q=%00', '/p?q=%ed%a0%80', '/p?q=%C3%BC', '/p?q=\u00fc', '/p/%F0%9F%8E%AE', '/p?q=a\tb']) {
      expect(urlMayHoldUnstorable(url)).toBe(true);
    }
  });
});
