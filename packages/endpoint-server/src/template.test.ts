import { describe, expect, it } from 'vitest';
import { compileObject, compileTemplate, normalizeExternalName, renderObject, renderTemplate } from './template.ts';

const values = (external: Record<string, string> = {}) => ({
  username: 'Steve',
  lastLogin: 'L',
  lastSeen: 'S',
  external: new Map(Object.entries(external)),
});

describe('templates', () => {
  it('fills local placeholders and leaves unknown braces alone', () => {
    const t = compileTemplate('{username} {last_login} {last_seen} {unknown} {USERNAME} {');
    expect(renderTemplate(t, values())).toBe('Steve L S {unknown} {USERNAME} {');
  });

  it('treats {ext:name}, {ext:%name%} and {papi:name} as the same placeholder', () => {
    const obj = compileObject([
      ['a', '{ext:player_name}'],
      ['b', '{ext:%player_name%}'],
      ['c', '{papi:player_name}'],
    ]);
    expect(obj.externals).toEqual(['%player_name%']);
    expect(renderObject(obj, values({ '%player_name%': 'X' }))).toBe('{"a":"X","b":"X","c":"X"}');
    expect(normalizeExternalName('%a%')).toBe('%a%');
    expect(normalizeExternalName('a')).toBe('%a%');
  });

  it('renders a missing external answer as %name%', () => {
    expect(renderTemplate(compileTemplate('{ext:x}'), values())).toBe('%x%');
  });

  it('substitutes in one pass: produced text is never scanned again', () => {
    const t = compileTemplate('{username}|{ext:a}');
    const out = renderTemplate(t, {
      ...values({ '%a%': '{username}{ext:a}' }),
      username: '{ext:a}{last_seen}',
    });
    expect(out).toBe('{ext:a}{last_seen}|{username}{ext:a}');
  });

  it('renders compact JSON in configured order, escaping quotes, backslashes and controls only', () => {
    const obj = compileObject([
      ['2', 'two'],
      ['1', '{username}'],
      ['q', '"\\\n\t\u0001<>&\'='],
    ]);
    const json = renderObject(obj, values());
    expect(json).toBe('{"2":"two","1":"Steve","q":"\\"\\\\\\n\\t\\u0001<>&\'="}');
    expect(Object.keys(JSON.parse(json) as object)).toEqual(['1', '2', 'q']);
    expect(renderObject(compileObject([]), values())).toBe('{}');
  });

  it('flags date use', () => {
    expect(compileObject([['a', '{last_seen}']]).usesDates).toBe(true);
    expect(compileObject([['a', '{username}']]).usesDates).toBe(false);
  });
});
