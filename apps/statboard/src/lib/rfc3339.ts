/**
 * Every accepted instant is in years 0001–9999 in UTC: PostgreSQL stores it (it has no year 0) and both
 * PostgreSQL and JavaScript print it as a four-digit year (`toISOString` writes `+010000-…` past 9999, which
 * no RFC 3339 reader accepts).
 */
const MIN_INSTANT = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
const MAX_INSTANT = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

const RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 date-time (`Z` or an offset, with or without fractions; `…123456Z` from Java's
 * Instant.toString() included) into epoch milliseconds, or NaN when it is not one or names no real instant.
 */
export function parseRfc3339(value: string): number {
  const m = RE.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return Number.NaN;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return Number.NaN;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone!.slice(1, 3));
    const om = Number(zone!.slice(4, 6));
    if (oh > 23 || om > 59) return Number.NaN;
    offset = (oh * 60 + om) * (zone!.startsWith('-') ? -1 : 1);
  }
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const d0 = new Date(0);
  d0.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 0–99 as they are
  d0.setUTCHours(hour, minute, Math.min(second, 59), ms);
  const t = d0.getTime() - offset * 60_000;
  return t < MIN_INSTANT || t > MAX_INSTANT ? Number.NaN : t;
}

export function isRfc3339(value: string): boolean {
  return !Number.isNaN(parseRfc3339(value));
}
