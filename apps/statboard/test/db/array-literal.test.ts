import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullableNumberArray, numberArray, textArray, timestampArray, uuidArray } from '#src/db/array-literal.ts';
import type { Db } from '#src/db/types.ts';
import { createTestDb, DB_KIND, type TestDb } from '../helpers.ts';

let t: TestDb;
let db: Db;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.drop());

/** Text PostgreSQL can store: no NUL and no lone surrogates (the app refuses those before any SQL). */
const storableText = fc
  .string({ unit: 'binary', maxLength: 24 })
  .filter((s) => !s.includes('\u0000') && s === Buffer.from(s, 'utf8').toString('utf8'));

describe(`array literals read back by the database (${DB_KIND})`, () => {
  it('text[]: quotes, backslashes, braces, commas, spaces, NULL, the word NULL and empty strings', async () => {
    const tricky = ['a"b', 'c\\d', '{x}', 'p,q', ' lead', 'trail ', 'NULL', '', 'ümlaut 🎮', null];
    const [row] = await db.query<{ v: (string | null)[] }>('SELECT $1::text[] AS v', [textArray(tricky)]);
    expect(row!.v).toEqual(tricky);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(storableText, { nil: null }), { maxLength: 12 }), async (values) => {
        const [r] = await db.query<{ v: (string | null)[] }>('SELECT $1::text[] AS v', [textArray(values)]);
        expect(r!.v).toEqual(values);
      }),
      { numRuns: 60 },
    );
  });

  it('float8[] and int[] keep every finite value exactly; non-finite values are refused before SQL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 12 }), async (xs) => {
        const [r] = await db.query<{ v: string[] }>('SELECT $1::float8[]::text[] AS v', [numberArray(xs)]);
        expect(r!.v.map(Number)).toEqual(xs.map((x) => (Object.is(x, -0) ? 0 : x)));
      }),
      { numRuns: 60 },
    );
    const [ints] = await db.query<{ v: number[] }>('SELECT $1::int[] AS v', [numberArray([1, 2, 300])]);
    expect(ints!.v).toEqual([1, 2, 300]);
    expect(() => numberArray([1, Number.NaN])).toThrow(TypeError);
    expect(() => numberArray([Number.POSITIVE_INFINITY])).toThrow(TypeError);
  });

  it('float8[] with NULLs keeps every finite value exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })), { maxLength: 8 }),
        async (xs) => {
          const [r] = await db.query<{ v: (string | null)[] }>('SELECT $1::float8[]::text[] AS v', [
            nullableNumberArray(xs),
          ]);
          expect(r!.v.map((x) => (x === null ? null : Number(x)))).toEqual(
            xs.map((x) => (x === null ? null : Object.is(x, -0) ? 0 : x)),
          );
        },
      ),
      { numRuns: 40 },
    );
    expect(() => nullableNumberArray([null, Number.NaN])).toThrow(TypeError);
  });

  it('uuid[] and timestamptz[] (millisecond instants in UTC), and empty arrays', async () => {
    const ids = ['00000000-0000-4000-8000-000000000001', 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    const when = [new Date('2026-11-22T10:00:00.123Z'), new Date('1999-01-01T00:00:00Z')];
    const [r] = await db.query<{ u: string[]; t: string[]; e: string[] }>(
      `SELECT $1::uuid[]::text[] AS u, ARRAY(SELECT to_char(x AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         FROM unnest($2::timestamptz[]) AS x) AS t, $3::uuid[]::text[] AS e`,
      [uuidArray(ids), timestampArray(when), uuidArray([])],
    );
    expect(r!.u).toEqual(ids);
    expect(r!.t).toEqual(when.map((d) => d.toISOString()));
    expect(r!.e).toEqual([]);
  });
});
