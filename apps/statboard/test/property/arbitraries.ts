import fc from 'fast-check';

/** A lone UTF-16 surrogate (PostgreSQL text and jsonb cannot hold one). */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Any text: every code point, NUL, lone surrogates, control characters. */
export const nastyString = (maxLength = 40) =>
  fc.string({
    unit: fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: loneSurrogate },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\n', '\t', '"', '\\', '%', '_', ' ', '\u007f', '\ufeff') },
    ),
    maxLength,
  });

const badUuids = fc.constantFrom(
  '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7',
  '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7bb',
  '3f2b6c1e8a4d4e2f9b1a2c3d4e5f6a7b',
  '{3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b}',
  'zf2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b',
  ' 3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b',
  '00000000-0000-0000-0000-000000000000',
  'urn:uuid:3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b',
);

/**
 * A JSON value as raw text, including what JSON.stringify cannot produce: numbers that overflow to Infinity
 * (1e400), underflow, huge integers, escaped NUL and lone surrogates, deep nesting and long arrays.
 */
export const rawJsonValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '1e400',
      '-1e400',
      '1e-400',
      '-0',
      '0',
      '-1',
      '1.5',
      '65536',
      '99999999999999999999999999',
      '9007199254740993',
      '-9007199254740993',
      '1E3',
      'null',
      'true',
      'false',
      '[]',
      '{}',
      '""',
      '"\\u0000"',
      '"a\\u0000b"',
      '"\\ud800"',
      '"x\\udfff"',
      '"\\ud83d\\ude00"',
      '"1"',
      '"2026-10-06T12:00:00Z"',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ),
  },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: nastyString().map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: badUuids.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.uuid().map((s) => JSON.stringify(s.toUpperCase())) },
  { weight: 1, arbitrary: fc.integer({ min: 17, max: 20_000 }).map((n) => JSON.stringify('x'.repeat(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 90, max: 700 }), fc.constantFrom('1', '{}', '{"key":"a:b","value":1}', '"x"'))
      .map(([n, item]) => `[${Array(n).fill(item).join(',')}]`),
  },
);

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a client would send). */
export function percentEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2e
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Query values: numbers of every kind, junk, broken escapes, real-looking references. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyString(30).map(percentEncode) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      '0',
      '-1',
      '1',
      '1.5',
      '1e3',
      '1e400',
      'NaN',
      'Infinity',
      '-0',
      '0x10',
      '%20%205',
      '5%20',
      '99999999999999999999',
      '9007199254740993',
      'null',
      'true',
      '%zz',
      '%',
      '%E0%A4%A',
      '%FF%FE',
      '%00',
      '%ED%A0%80',
      's1',
      'S1',
      'minecraft.mined%3Aminecraft.stone',
      '%25',
      '_',
      '%5C',
      "'%20OR%201=1--",
    ),
  },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 3000 }).map((n) => 'q'.repeat(n)) },
);

export const queryKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('search', 'page', 'per_page', 'season', 'stat', 'limit') },
  { weight: 1, arbitrary: fc.constantFrom('', 'x', 'page[]', 'per_page[0]', '__proto__', 'constructor', '%00') },
  { weight: 1, arbitrary: nastyString(8).map(percentEncode) },
);

/** A query string of 0–6 pairs (keys may repeat), with or without `=`. */
export const queryString: fc.Arbitrary<string> = fc
  .array(fc.tuple(queryKey, queryValue, fc.boolean()), { maxLength: 6 })
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v, eq]) => (eq || v !== '' ? `${k}=${v}` : k)).join('&')}`,
  );

/** Path segments for `{uuid}`: valid in any case, near-misses and junk, percent-encoded, at most 100 characters. */
export const pathSegment: fc.Arbitrary<string> = fc
  .oneof(
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
    badUuids.map(percentEncode),
    nastyString(30).map(percentEncode),
    fc.constantFrom('%00', '%2F', '..', '.', '%2E%2E', 'null', 'undefined', '0', '-1', '%20'),
  )
  .filter((s) => s.length > 0 && s.length <= 100);
