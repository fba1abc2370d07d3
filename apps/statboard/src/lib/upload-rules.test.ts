import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_CLOCK_SKEW_MS,
  isPlayerName,
  isStatKey,
  isStatValue,
  MAX_VALUE,
  observedNoLaterThan,
  PLAYER_NAME_MAX_LENGTH,
  PLAYER_NAME_MIN_LENGTH,
  PLAYER_NAME_PATTERN,
} from './upload-rules.ts';

/** The names a red-team pass sent, by what is wrong with them. */
const REFUSED: [string, string][] = [
  ['right-to-left override U+202E', 'evil\u202Eexe'],
  ['BEL', 'Ste\u0007ve'],
  ['newline', 'line\nbreak'],
  ['carriage return', 'a\rb'],
  ['tab', 'a\tb'],
  ['ESC (terminal sequences)', 'a\u001B[31mb'],
  ['NUL', 'a\u0000b'],
  ['DEL', 'a\u007Fb'],
  ['C1 control U+009B', 'a\u009Bb'],
  ['zero-width space U+200B', 'zero\u200Bwidth'],
  ['zero-width joiner U+200D', 'a\u200Db'],
  ['left-to-right mark U+200E', 'a\u200Eb'],
  ['word joiner U+2060', 'a\u2060b'],
  ['soft hyphen U+00AD', 'a\u00ADb'],
  ['byte order mark U+FEFF', '\uFEFFSteve'],
  ['line separator U+2028', 'a\u2028b'],
  ['paragraph separator U+2029', 'a\u2029b'],
  ['Hangul filler U+3164', '\u3164'],
  ['Hangul filler U+3164 inside', 'a\u3164b'],
  ['halfwidth Hangul filler U+FFA0', '\uFFA0'],
  ['Hangul choseong filler U+115F', '\u115F'],
  ['Hangul jungseong filler U+1160', '\u1160'],
  ['Braille blank U+2800', '\u2800\u2800'],
  ['Mongolian vowel separator U+180E', 'a\u180Eb'],
  ['only spaces', '   '],
  ['one space', ' '],
  ['leading space', ' Steve'],
  ['trailing space', 'Steve '],
  ['no-break space U+00A0', 'a\u00A0b'],
  ['only a no-break space', '\u00A0'],
  ['narrow no-break space U+202F', 'a\u202Fb'],
  ['em space U+2003', 'a\u2003b'],
  ['ideographic space U+3000', 'a\u3000b'],
  ['Ogham space mark U+1680', 'a\u1680b'],
  ['combining grapheme joiner U+034F', 'a\u034Fb'],
  ['15 combining marks', `a${'\u0301'.repeat(15)}`],
  ['3 combining marks in a row', 'e\u0301\u0302\u0303'],
  ['starts with a combining mark', '\u0301a'],
  ['private use U+E000', 'pua\uE000'],
  ['unpaired surrogate', 'a\uD800'],
  ['unassigned U+0378', 'a\u0378'],
  ['tag character U+E0041', 'a\u{E0041}'],
  ['empty', ''],
  ['17 characters', 'x'.repeat(17)],
];

const ACCEPTED: [string, string][] = [
  ['a Minecraft account name', 'Notch'],
  ['underscores', '_jeb_'],
  ['16 characters', 'abcdefghijklmnop'],
  ['2 characters (offline mode)', 'ab'],
  ['1 character (the wire allows 1)', 'a'],
  ['a Bedrock name through Geyser', '.Steve'],
  ['a Floodgate prefix', '*Alex'],
  ['Latin letters with accents', 'Élodie'],
  ['a decomposed accent (one mark)', 'E\u0301lodie'],
  ['two marks in a row', 'e\u0301\u0302'],
  ['CJK', '小明'],
  ['Japanese', 'さくら'],
  ['Korean', '민준'],
  ['Cyrillic', 'Иван'],
  ['Arabic', 'سارة'],
  ['an inner space', 'John Smith'],
  ['an emoji (a surrogate pair)', 'Steve😀'],
  ['16 code points of surrogate pairs', '😀'.repeat(16)],
];

describe('player names', () => {
  it.each(REFUSED)('refuses a name with %s', (_, name) => {
    expect(isPlayerName(name)).toBe(false);
  });

  it.each(ACCEPTED)('accepts %s', (_, name) => {
    expect(isPlayerName(name)).toBe(true);
  });

  it("accepts every name of Minecraft's own accounts (3–16 of A-Z a-z 0-9 _)", () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';
    for (let length = 3; length <= 16; length++) {
      for (let i = 0; i < alphabet.length; i++) {
        const name = Array.from({ length }, (_, j) => alphabet[(i + j * 7) % alphabet.length]).join('');
        expect(isPlayerName(name), name).toBe(true);
      }
    }
  });

  it('is the same rule as a JSON Schema (what ingest and the OpenAPI state), length included', () => {
    const validate = new Ajv().compile({
      type: 'string',
      minLength: PLAYER_NAME_MIN_LENGTH,
      maxLength: PLAYER_NAME_MAX_LENGTH,
      pattern: PLAYER_NAME_PATTERN,
    });
    for (const [what, name] of [...REFUSED, ...ACCEPTED]) {
      expect(validate(name), what).toBe(isPlayerName(name));
    }
  });

  it('takes time linear in the length of what it is given (no backtracking blow-up)', () => {
    const long = `a${'\u0301\u0301 '.repeat(200_000)}`;
    const started = performance.now();
    expect(new RegExp(PLAYER_NAME_PATTERN, 'u').test(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('statistic values and keys', () => {
  it('accepts finite numbers within ±(2^53 − 1), and nothing else', () => {
    for (const v of [0, -1, 1.5, MAX_VALUE, -MAX_VALUE]) expect(isStatValue(v), String(v)).toBe(true);
    for (const v of [MAX_VALUE + 2, -MAX_VALUE - 2, 1e300, -1e300, Number.POSITIVE_INFINITY, Number.NaN, '1', null]) {
      expect(isStatValue(v), String(v)).toBe(false);
    }
  });

  it('accepts colon-separated keys of at most 255 characters', () => {
    expect(isStatKey('minecraft.mined:minecraft.stone')).toBe(true);
    expect(isStatKey('minecraft:custom:minecraft:play_time')).toBe(true);
    expect(isStatKey('nocolon')).toBe(false);
    expect(isStatKey('a:b c')).toBe(false);
    expect(isStatKey(`a:${'b'.repeat(253)}`)).toBe(true);
    expect(isStatKey(`a:${'b'.repeat(254)}`)).toBe(false);
  });
});

describe('observation times', () => {
  it('stores an observation no later than the limit given (the upload, plus the skew allowed to clients)', () => {
    const now = Date.parse('2026-10-06T12:00:00Z');
    expect(observedNoLaterThan(Date.parse('2026-10-06T11:00:00Z'), now).toISOString()).toBe('2026-10-06T11:00:00.000Z');
    expect(observedNoLaterThan(Date.parse('2100-01-01T00:00:00Z'), now).toISOString()).toBe('2026-10-06T12:00:00.000Z');
    expect(observedNoLaterThan(Date.parse('2100-01-01T00:00:00Z'), now + CLIENT_CLOCK_SKEW_MS).toISOString()).toBe(
      '2026-10-06T12:05:00.000Z',
    );
  });
});
