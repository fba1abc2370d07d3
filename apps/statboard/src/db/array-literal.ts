/**
 * PostgreSQL array literals (`{a,b,"c d"}`) built directly, for the bulk `unnest($n::type[])` parameters of the
 * write path. Both drivers pass a string parameter through unchanged, and building the literal here is much
 * cheaper than the drivers' generic per-element conversion (an escaping regex for every element, and a
 * hand-formatted local time for every Date), for hundreds of elements per statement.
 */

/** Elements that never need quoting: UUIDs (canonical text), integers, finite floats, ISO 8601 instants. */
function plain(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

/** `uuid[]` from canonical UUID strings (as validated or as read from the database). */
export function uuidArray(values: readonly string[]): string {
  return plain(values);
}

/** `int[]` / `float8[]` from finite numbers (`String` gives `1e+21`, which PostgreSQL reads). */
export function numberArray(values: readonly number[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new TypeError(`not a finite number: ${v}`);
    out += i === 0 ? String(v) : `,${String(v)}`;
  }
  return `${out}}`;
}

/** `float8[]` from finite numbers, null as SQL NULL (the few rows of a side parameter, not a bulk one). */
export function nullableNumberArray(values: readonly (number | null)[]): string {
  return textArray(values.map((v) => (v === null ? null : numberArray([v]).slice(1, -1))));
}

/** `timestamptz[]` from Dates, as ISO 8601 instants in UTC. */
export function timestampArray(values: readonly Date[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) out += i === 0 ? values[i]!.toISOString() : `,${values[i]!.toISOString()}`;
  return `${out}}`;
}

const NEEDS_ESCAPE = /["\\]/g;

/** `text[]` from strings (null is SQL NULL): every element quoted, `"` and `\` escaped. */
export function textArray(values: readonly (string | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const item = v === null || v === undefined ? 'NULL' : `"${v.replace(NEEDS_ESCAPE, '\\$&')}"`;
    out += i === 0 ? item : `,${item}`;
  }
  return `${out}}`;
}
