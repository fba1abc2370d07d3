import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidUsername, parsePath, rawPathOf } from './paths.ts';

describe('parsePath', () => {
  it.each([
    ['/', 'not-found'],
    ['/api', 'not-found'],
    ['/api/', 'not-found'],
    ['/apiary', 'not-found'],
    ['/nope/x', 'not-found'],
    ['/API/x', 'not-found'],
    ['/favicon.ico', 'favicon'],
    ['/api//x', 'malformed'],
    ['/api/x//', 'malformed'],
    ['/api/a/b/c', 'malformed'],
    ['/api/x%zz', 'malformed'],
    ['/api/x%2', 'malformed'],
    ['/nope/%zz', 'malformed'],
    ['/api/a.b', 'malformed'],
    [`/api/${'a'.repeat(65)}`, 'malformed'],
    ['/api/player/a%20b', 'malformed'],
    ['/api/player/a%09b', 'malformed'],
    ['/api/player/%C2%A0', 'malformed'],
  ])('%s is %s', (target, kind) => {
    expect(parsePath(target).kind).toBe(kind);
  });

  it('accepts names and usernames, decoding escapes and keeping + literal', () => {
    expect(parsePath('/api/top_10-x')).toEqual({ kind: 'endpoint', name: 'top_10-x', username: null });
    expect(parsePath('/api/p/')).toEqual({ kind: 'endpoint', name: 'p', username: null });
    expect(parsePath('/api/p/a+b')).toEqual({ kind: 'endpoint', name: 'p', username: 'a+b' });
    expect(parsePath('/api/p/%41lex?x=%zz')).toEqual({ kind: 'endpoint', name: 'p', username: 'Alex' });
    expect(parsePath('/api/p/J%C3%BCrgen/')).toEqual({ kind: 'endpoint', name: 'p', username: 'Jürgen' });
    expect(parsePath('/api/%70')).toEqual({ kind: 'endpoint', name: 'p', username: null });
    expect(parsePath(`/api/${'a'.repeat(64)}`).kind).toBe('endpoint');
  });

  it('limits usernames to 32 characters, counting code points', () => {
    expect(isValidUsername('a'.repeat(32))).toBe(true);
    expect(isValidUsername('a'.repeat(33))).toBe(false);
    expect(isValidUsername('😀'.repeat(32))).toBe(true);
    expect(isValidUsername('')).toBe(false);
    expect(isValidUsername('a\u0000')).toBe(false);
  });

  it('strips the query from the raw path', () => {
    expect(rawPathOf('/api/x?y=1')).toBe('/api/x');
  });

  it('never throws and round-trips encoded usernames', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parsePath(s);
      }),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 32 }), (name) => {
        fc.pre(isValidUsername(name));
        expect(parsePath(`/api/p/${encodeURIComponent(name)}`)).toEqual({
          kind: 'endpoint',
          name: 'p',
          username: name,
        });
      }),
    );
  });
});
