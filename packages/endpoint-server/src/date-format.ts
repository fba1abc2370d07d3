/**
 * Date rendering with Java `DateTimeFormatter` pattern letters in an IANA time zone
 * (`date_format`, `time_zone`). Zone conversion uses `Intl`.
 * @packageDocumentation
 */

/** The default pattern, as the original plugin renders dates. */
export const DEFAULT_DATE_FORMAT = 'yyyy/MM/dd HH:mm:ss';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Calendar fields of an instant in a zone. `weekday` is 1 (Monday) to 7 (Sunday), as in `java.time`. */
interface ZonedFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
  dayOfYear: number;
  offsetMinutes: number;
  zoneId: string;
}

type Part = string | ((f: ZonedFields) => string);

/** A compiled pattern bound to a zone. */
export interface DateFormatter {
  /** The pattern it was compiled from. */
  readonly pattern: string;
  /** The IANA zone it renders in. */
  readonly timeZone: string;
  /** Renders an instant. */
  format(date: Date): string;
}

/** Thrown for a pattern the formatter does not understand (an unknown letter, an unclosed quote). */
export class DatePatternError extends Error {
  override readonly name = 'DatePatternError';
}

function pad(value: number, width: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value));
  return sign + (digits.length >= width ? digits : '0'.repeat(width - digits.length) + digits);
}

function offsetText(minutes: number, withColon: boolean, zForZero: boolean): string {
  if (minutes === 0 && zForZero) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = pad(Math.floor(abs / 60), 2);
  const mm = pad(abs % 60, 2);
  return withColon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
}

function fieldPart(letter: string, count: number): Part {
  switch (letter) {
    case 'y':
    case 'u':
      if (count === 2) return (f) => pad(((f.year % 100) + 100) % 100, 2);
      return (f) => pad(f.year, count);
    case 'M':
    case 'L':
      if (count === 3) return (f) => (MONTHS[f.month - 1] ?? '').slice(0, 3);
      if (count === 4) return (f) => MONTHS[f.month - 1] ?? '';
      if (count === 5) return (f) => (MONTHS[f.month - 1] ?? '').slice(0, 1);
      return (f) => pad(f.month, count);
    case 'd':
      return (f) => pad(f.day, count);
    case 'D':
      return (f) => pad(f.dayOfYear, count);
    case 'H':
      return (f) => pad(f.hour, count);
    case 'k':
      return (f) => pad(f.hour === 0 ? 24 : f.hour, count);
    case 'h':
      return (f) => pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'K':
      return (f) => pad(f.hour % 12, count);
    case 'm':
      return (f) => pad(f.minute, count);
    case 's':
      return (f) => pad(f.second, count);
    case 'S':
      // Fraction of second: the first `count` digits of the nanosecond fraction.
      return (f) => pad(f.millisecond, 3).concat('000000').slice(0, count);
    case 'n':
      return (f) => pad(f.millisecond * 1_000_000, count);
    case 'a':
      return (f) => (f.hour < 12 ? 'AM' : 'PM');
    case 'E':
      if (count === 4) return (f) => DAYS[f.weekday - 1] ?? '';
      if (count === 5) return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 1);
      return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 3);
    case 'e':
    case 'c':
      if (count === 3) return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 3);
      if (count === 4) return (f) => DAYS[f.weekday - 1] ?? '';
      // Localized day-of-week number, Sunday first as in Locale.US.
      return (f) => pad((f.weekday % 7) + 1, count);
    case 'Z':
      if (count === 4) return (f) => (f.offsetMinutes === 0 ? 'GMT' : `GMT${offsetText(f.offsetMinutes, true, false)}`);
      if (count === 5) return (f) => offsetText(f.offsetMinutes, true, true);
      return (f) => offsetText(f.offsetMinutes, false, false);
    case 'X':
    case 'x': {
      const z = letter === 'X';
      if (count === 1)
        return (f) => {
          if (z && f.offsetMinutes === 0) return 'Z';
          const text = offsetText(f.offsetMinutes, false, false);
          return f.offsetMinutes % 60 === 0 ? text.slice(0, 3) : text;
        };
      return (f) => offsetText(f.offsetMinutes, count % 2 === 1, z);
    }
    case 'V':
      return (f) => f.zoneId;
    case 'z':
      return (f) => f.zoneId;
    default:
      throw new DatePatternError(`unsupported pattern letter '${letter}'`);
  }
}

/** Compiles a Java `DateTimeFormatter` pattern into parts. Throws {@link DatePatternError} when invalid. */
function compilePattern(pattern: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] ?? '';
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        literal += "'";
        i += 2;
        continue;
      }
      const end = findQuoteEnd(pattern, i + 1);
      literal += pattern.slice(i + 1, end.index).replaceAll("''", "'");
      i = end.index + 1;
      continue;
    }
    if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (pattern[i + count] === ch) count++;
      if (literal) parts.push(literal);
      literal = '';
      parts.push(fieldPart(ch, count));
      i += count;
      continue;
    }
    if (ch === '{' || ch === '}' || ch === '#') throw new DatePatternError(`reserved character '${ch}'`);
    // Optional-section brackets render their content.
    if (ch !== '[' && ch !== ']') literal += ch;
    i++;
  }
  if (literal) parts.push(literal);
  return parts;
}

function findQuoteEnd(pattern: string, from: number): { index: number } {
  let j = from;
  while (j < pattern.length) {
    if (pattern[j] === "'") {
      if (pattern[j + 1] === "'") {
        j += 2;
        continue;
      }
      return { index: j };
    }
    j++;
  }
  throw new DatePatternError('unclosed quote');
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    zoneFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone === 'UTC') return true;
  if (timeZone.length === 0) return false;
  try {
    zoneFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * From here on ICU's Gregorian calendar (Julian before October 1582) and the proleptic Gregorian calendar of
 * `Date` agree, so UTC fields can come from `Date` itself.
 */
const GREGORIAN_FROM = Date.UTC(1583, 0, 1);

function zonedFields(date: Date, timeZone: string): ZonedFields {
  const ms = date.getTime();
  let year: number;
  let month: number;
  let day: number;
  let hour: number;
  let minute: number;
  let second: number;
  if (timeZone === 'UTC' && ms >= GREGORIAN_FROM) {
    // The default zone needs no Intl: loading ICU's zone and locale data costs ~8 MB of resident memory.
    year = date.getUTCFullYear();
    month = date.getUTCMonth() + 1;
    day = date.getUTCDate();
    hour = date.getUTCHours();
    minute = date.getUTCMinutes();
    second = date.getUTCSeconds();
  } else {
    const values: Record<string, string> = {};
    for (const p of zoneFormatter(timeZone).formatToParts(date)) values[p.type] = p.value;
    year = Number(values.year);
    if (values.era === 'BC' || values.era === 'B') year = 1 - year;
    month = Number(values.month);
    day = Number(values.day);
    hour = Number(values.hour);
    minute = Number(values.minute);
    second = Number(values.second);
  }
  const millisecond = ((ms % 1000) + 1000) % 1000;
  const localAsUtc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const utcDate = new Date(Date.UTC(year, month - 1, day));
  utcDate.setUTCFullYear(year);
  const jsDay = utcDate.getUTCDay();
  const startOfYear = new Date(Date.UTC(2000, 0, 1));
  startOfYear.setUTCFullYear(year);
  const dayOfYear = Math.round((utcDate.getTime() - startOfYear.getTime()) / 86_400_000) + 1;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond,
    weekday: jsDay === 0 ? 7 : jsDay,
    dayOfYear,
    offsetMinutes: Math.round((localAsUtc - ms) / 60_000),
    zoneId: timeZone,
  };
}

/**
 * Compiles `pattern` for `timeZone`. Throws {@link DatePatternError} for an invalid pattern and `RangeError`
 * for an unknown zone.
 */
export function createDateFormatter(pattern: string, timeZone: string): DateFormatter {
  const parts = compilePattern(pattern);
  if (timeZone !== 'UTC') zoneFormatter(timeZone);
  // Player dates repeat from request to request: remember recent renderings.
  const memo = new Map<number, string>();
  return {
    pattern,
    timeZone,
    format(date: Date): string {
      const ms = date.getTime();
      const hit = memo.get(ms);
      if (hit !== undefined) return hit;
      const fields = zonedFields(date, timeZone);
      let out = '';
      for (const part of parts) out += typeof part === 'string' ? part : part(fields);
      if (memo.size >= 1024) memo.clear();
      memo.set(ms, out);
      return out;
    },
  };
}
