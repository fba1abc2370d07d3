/**
 * Statistic values written for people: the API keeps raw values (ticks, centimeters, tenths of a health point),
 * and every reader (the console, a website, pages the service renders) formats them here by the statistic's
 * `unit` (`GET /api/v1/stats`), so that one value reads the same everywhere.
 *
 * Hand-written (not generated) and free of dependencies: it runs in browsers and on the server alike.
 *
 * @example
 * ```ts
 * formatStatValue(870_000, 'ticks'); // "12 h 5 min"
 * formatStatValue(340_000, 'cm'); // "3.4 km"
 * formatStatValue(150, 'damage'); // "7.5 ♥"
 * formatStatValue(150, 'damage', { style: 'long' }); // "7.5 hearts"
 * formatStatValue(1_234_567, 'count', { style: 'axis' }); // "1.2M"
 * ```
 * @module
 */
import type { components } from './schema.ts';

/**
 * What a statistic's value counts: `ticks` (time, 20 per second), `cm` (distance in centimeters), `damage`
 * (tenths of a health point: 10 are one health point, half a heart) or `count` (a plain number).
 */
export type StatUnit = components['schemas']['PublicStat']['unit'];

/** Every unit, in the order a picker offers them. */
export const STAT_UNITS: readonly StatUnit[] = ['ticks', 'cm', 'damage', 'count'];

/** A unit's name for people, with what the raw values count ("Time (ticks)"). */
export const STAT_UNIT_LABELS: Readonly<Record<StatUnit, string>> = {
  ticks: 'Time (ticks, 20 a second)',
  cm: 'Distance (centimeters)',
  damage: 'Damage (tenths of a health point)',
  count: 'Count',
};

/**
 * - `short` (default): for tables and labels ("12 h 5 min", "3.4 km", "7.5 ♥", "1,234,567").
 * - `long`: the same value spelt out, for screen readers and titles ("12 hours 5 minutes", "7.5 hearts").
 * - `axis`: compact, for chart axes ("12.1 h", "3.4 km", "1.2M").
 */
export type StatValueStyle = 'short' | 'long' | 'axis';

export interface FormatStatValueOptions {
  /** Default `short`. */
  style?: StatValueStyle;
  /** The locale of digits and grouping. Default `en-US`, which matches the English names of statistics. */
  locale?: string;
}

/** Game ticks in a second. */
export const TICKS_PER_SECOND = 20;
/** Raw damage values in a heart: 10 are one health point, and a heart holds two. */
export const DAMAGE_PER_HEART = 20;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `Intl.NumberFormat` instances are costly to build: one per locale and precision, kept. */
function number(locale: string, maximumFractionDigits: number, compact = false): Intl.NumberFormat {
  const id = `${locale}|${maximumFractionDigits}|${compact}`;
  let f = numberFormats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits, ...(compact ? { notation: 'compact' } : {}) });
    numberFormats.set(id, f);
  }
  return f;
}

/**
 * A whole number ≥ 0 as `Intl.NumberFormat('en-US')` writes it ("1,234,567"), without its cost: most values are
 * counts, and a page of a player formats dozens of them.
 */
function groupedInteger(n: number): string {
  const digits = String(n);
  if (digits.length <= 3) return digits;
  let head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (; head < digits.length; head += 3) out += `,${digits.slice(head, head + 3)}`;
  return out;
}

interface UnitWords {
  short: string;
  one: string;
  many: string;
}

const SECOND: UnitWords = { short: 's', one: 'second', many: 'seconds' };
const MINUTE: UnitWords = { short: 'min', one: 'minute', many: 'minutes' };
const HOUR: UnitWords = { short: 'h', one: 'hour', many: 'hours' };
const DAY: UnitWords = { short: 'd', one: 'day', many: 'days' };
const CENTIMETER: UnitWords = { short: 'cm', one: 'centimeter', many: 'centimeters' };
const METER: UnitWords = { short: 'm', one: 'meter', many: 'meters' };
const KILOMETER: UnitWords = { short: 'km', one: 'kilometer', many: 'kilometers' };
const HEART: UnitWords = { short: '♥', one: 'heart', many: 'hearts' };

function part(n: number, words: UnitWords, long: boolean, f: Intl.NumberFormat): string {
  return `${f.format(n)} ${long ? (n === 1 ? words.one : words.many) : words.short}`;
}

/** Rounded to one decimal under 10, else to a whole number ("3.2", "45"). */
function precise(n: number): number {
  return n < 10 ? Math.round(n * 10) / 10 : Math.round(n);
}

/**
 * A duration in its two largest units, rounded to the smaller one, which is left out when zero ("12 h 5 min",
 * "2 h", "3 min 20 s", "45 s"); rounding that reaches the next unit moves up to it (59.8 s is "1 min").
 */
function duration(seconds: number, long: boolean, f: Intl.NumberFormat): string {
  const s = precise(seconds);
  if (s < 60) return part(s, SECOND, long, f);
  const pair = (big: number, bigWords: UnitWords, small: number, smallWords: UnitWords) =>
    small === 0 ? part(big, bigWords, long, f) : `${part(big, bigWords, long, f)} ${part(small, smallWords, long, f)}`;
  if (s < 3600) return pair(Math.floor(s / 60), MINUTE, s % 60, SECOND);
  const minutes = Math.round(seconds / 60);
  if (minutes < 1440) return pair(Math.floor(minutes / 60), HOUR, minutes % 60, MINUTE);
  const hours = Math.round(seconds / 3600);
  return pair(Math.floor(hours / 24), DAY, hours % 24, HOUR);
}

/** A duration in its largest unit with one decimal ("12.1 h"), for axes where a pair of units is too wide. */
function durationAxis(seconds: number, f: Intl.NumberFormat): string {
  if (seconds < 60) return part(seconds, SECOND, false, f);
  if (seconds < 3600) return part(seconds / 60, MINUTE, false, f);
  if (seconds < 86_400) return part(seconds / 3600, HOUR, false, f);
  return part(seconds / 86_400, DAY, false, f);
}

/** Centimeters under a meter, meters under a kilometer, else kilometers ("35 cm", "120 m", "3.4 km"). */
function distance(cm: number, long: boolean, locale: string): string {
  const f1 = number(locale, 1);
  if (Math.round(cm) < 100) return part(Math.round(cm), CENTIMETER, long, f1);
  const m = precise(cm / 100);
  if (m < 1000) return part(m, METER, long, f1);
  const km = cm / 100_000;
  return part(km < 100 ? Math.round(km * 10) / 10 : Math.round(km), KILOMETER, long, f1);
}

/**
 * Formats a raw statistic value by its unit. Values that are not finite numbers come back as `String(value)`;
 * negative ones carry a minus sign before the formatted size.
 *
 * @param value - The raw value as the API returns it.
 * @param unit - The statistic's `unit` (`GET /api/v1/stats`, `GET /api/v1/admin/stats`).
 * @param options - `style` (`short`, `long` for screen readers, `axis` for chart axes) and `locale`.
 * @returns The value for people, e.g. "12 h 5 min", "3.4 km", "7.5 ♥", "1,234,567".
 */
export function formatStatValue(value: number, unit: StatUnit, options: FormatStatValueOptions = {}): string {
  if (!Number.isFinite(value)) return String(value);
  const style = options.style ?? 'short';
  const locale = options.locale ?? 'en-US';
  if (value < 0) return `-${formatStatValue(-value, unit, options)}`;
  const long = style === 'long';
  switch (unit) {
    case 'ticks':
      return style === 'axis'
        ? durationAxis(value / TICKS_PER_SECOND, number(locale, 1))
        : duration(value / TICKS_PER_SECOND, long, number(locale, 1));
    case 'cm':
      return distance(value, long, locale);
    case 'damage': {
      const hearts = value / DAMAGE_PER_HEART;
      if (style === 'axis') return `${number(locale, 1, true).format(hearts)} ${HEART.short}`;
      return part(Math.round(hearts * 10) / 10, HEART, long, number(locale, 1));
    }
    default:
      if (style === 'axis') return number(locale, 1, true).format(value);
      return locale === 'en-US' && Number.isSafeInteger(value) && !Object.is(value, -0)
        ? groupedInteger(value)
        : number(locale, 2).format(value);
  }
}
