/**
 * SQL that renders a `timestamptz` expression as the text `Date.prototype.toISOString` gives (UTC, milliseconds,
 * `Z`; fractions of a millisecond dropped, as `Date` drops them): for answers that carry times as text, so that a
 * row of many times is read as strings instead of being parsed into `Date` objects and formatted back, which is
 * most of the service's work for a page of rows. (The database's `to_char` costs far less.) Years 1–9999 only.
 */
export function isoText(expression: string): string {
  return `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * SQL that gives a `timestamptz` expression as microseconds since the epoch, a float8 (exact: PostgreSQL keeps
 * microseconds, and every one of years 1–9999 is below 2^53): how leaderboards compare `updated_at`, the tie-break,
 * in memory without losing the microseconds a `Date` drops.
 */
export function microsSql(expression: string): string {
  return `(extract(epoch FROM ${expression}) * 1000000)::float8`;
}
