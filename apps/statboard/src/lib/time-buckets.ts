import { Problems } from './validation.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Buckets one query of a time series (activity, history) may ask for. */
export const MAX_BUCKETS = 400;

export type Interval = 'hour' | 'day';

export interface BucketQuery {
  from?: string;
  to?: string;
  interval?: Interval;
}

/**
 * The rule of every time-series query: buckets of an hour or a day aligned to UTC, from the bucket holding
 * `from` up to `to` (default now), at most MAX_BUCKETS of them; `from` before `to`, else 422. `defaults` gives
 * the interval and, for each interval, how far back `from` lies when it is not given.
 */
export function bucketRange(
  q: BucketQuery,
  now: number,
  defaults: { interval: Interval; span: Record<Interval, number> },
  what: string,
): { from: Date; to: Date; interval: Interval } {
  const interval = q.interval ?? defaults.interval;
  const size = interval === 'hour' ? HOUR_MS : DAY_MS;
  const to = q.to === undefined ? now : Date.parse(q.to);
  const rawFrom = q.from === undefined ? to - defaults.span[interval] : Date.parse(q.from);
  const from = Math.floor(rawFrom / size) * size;
  const problems = new Problems();
  if (to <= rawFrom) problems.add(q.from === undefined ? 'to' : 'from', 'must be before to');
  else if (Math.ceil((to - from) / size) > MAX_BUCKETS) {
    problems.add('interval', `at most ${MAX_BUCKETS} buckets: shorten from–to or use a longer interval`);
  }
  problems.throwIfAny(`The ${what} query is invalid.`);
  return { from: new Date(from), to: new Date(to), interval };
}
