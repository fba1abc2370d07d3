import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

const ORIGIN = 'https://stats.example';

describe('safeReturnTo', () => {
  it.each([
    ['/console/keys?tab=2', '/console/keys?tab=2'],
    ['/a/./b/../c#x', '/a/c#x'],
    ['/%2e%2e/console', '/console'],
  ])('keeps the local path %j as %j', (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it.each(['/.//evil.example', '/..//evil.example', '/%2e%2e/%2e%2e//evil.example', '/./\\evil', '//evil', 'x'])(
    'refuses %j',
    (value) => {
      expect(safeReturnTo(value)).toBeNull();
    },
  );

  it('never sends a browser to another origin, whatever the path (property)', () => {
    const piece = fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '\\',
      '\t',
      '\n',
      ' ',
      '?',
      '#',
      '@',
      ':',
      'evil.example',
      'http:',
      'https://evil.example',
      'a',
      '%00',
      '%',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (parts) => {
        const value = parts.join('');
        const out = safeReturnTo(value);
        if (out === null) return;
        // As a browser resolves a Location header against our origin.
        expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        // Idempotent: what we redirect to is itself accepted unchanged.
        expect(safeReturnTo(out)).toBe(out);
      }),
      { numRuns: 5_000 },
    );
  });
});
