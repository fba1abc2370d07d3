/**
 * The screening rules of client uploads ("Trusting the numbers" in the README): pure decisions
 * over what the service already knows, so each rule is tested on its own. Times are milliseconds of the service's
 * clock (when values arrived), never the client's `observed_at`.
 */

export type Rule = 'rate' | 'above_verified' | 'first_sight' | 'rename';

/** Hours added to the time between two arrivals: an upload right after another may still carry some progress. */
export const ALLOWANCE_HOURS = 0.1;
/** A username changes once freely; a second change by a client upload within this long waits for review. */
export const RENAME_WINDOW_MS = 30 * 24 * 3_600_000;
/** `first_sight`: a board is watched once it has this many players, and a newcomer's value may not enter its top. */
export const FIRST_SIGHT_MIN_PLAYERS = 20;
export const FIRST_SIGHT_TOP = 10;

const HOUR_MS = 3_600_000;

/** A value and when it arrived (ms, service clock). */
export interface Arrived {
  value: number;
  at: number;
}

/** A board as `first_sight` sees it: its public players (counted up to FIRST_SIGHT_MIN_PLAYERS) and its 10th value. */
export interface BoardTop {
  players: number;
  /** The value at rank FIRST_SIGHT_TOP (null: fewer players). */
  tenth: number | null;
  order: 'asc' | 'desc';
}

/** What the service knows of one uploaded value. */
export interface ValueFacts {
  value: number;
  /** The statistic's hourly limit; null: none. */
  maxPerHour: number | null;
  /** The last stored value of the player on that server (null: none). */
  last: Arrived | null;
  /** The player's newest verified value on that server (null: none). */
  verified: Arrived | null;
  /** The statistic's board in the active season when it is public (null: private, or not looked up). */
  board: BoardTop | null;
  /** The value as that board would rank it when it is not `value` itself: its gain in a season that counts gains. */
  ranked?: number;
}

/** What the service knows of the player on that server. */
export interface PlayerFacts {
  /** The server has verified values (an agent or an import vouches for it). */
  serverVerified: boolean;
  /** The player has no value on that server yet. */
  firstSight: boolean;
}

/** Why a value is held, with its evidence. */
export interface Held {
  rule: Exclude<Rule, 'rename'>;
  previous: Arrived | null;
  /** The largest value the rule permitted (null for `first_sight`). */
  allowed: number | null;
}

/** The largest value `from` may have grown to by `now`: `max_per_hour × (hours since it arrived + 0.1)` on top. */
export function allowedFrom(from: Arrived, maxPerHour: number, now: number): number {
  return from.value + maxPerHour * (Math.max(0, now - from.at) / HOUR_MS + ALLOWANCE_HOURS);
}

/** `rate`: risen from the last stored value by more than the statistic's hourly limit allows. */
export function rate(f: ValueFacts, now: number): Held | null {
  if (f.last === null || f.maxPerHour === null || f.value <= f.last.value) return null;
  const allowed = allowedFrom(f.last, f.maxPerHour, now);
  return f.value > allowed ? { rule: 'rate', previous: f.last, allowed } : null;
}

/** `above_verified`: above the player's verified value by more than the same allowance, counted from its arrival. */
export function aboveVerified(f: ValueFacts, p: PlayerFacts, now: number): Held | null {
  if (!p.serverVerified || f.verified === null || f.maxPerHour === null) return null;
  const allowed = allowedFrom(f.verified, f.maxPerHour, now);
  return f.value > allowed ? { rule: 'above_verified', previous: f.verified, allowed } : null;
}

/** `first_sight`: a player new to the server whose value would rank in the top 10 of a board of 20 or more. */
export function firstSight(f: ValueFacts, p: PlayerFacts): Held | null {
  const b = f.board;
  if (!p.firstSight || b === null || b.players < FIRST_SIGHT_MIN_PLAYERS || b.tenth === null) return null;
  // Equal to the 10th is not above it: ties rank the earlier value first.
  const v = f.ranked ?? f.value;
  const top = b.order === 'desc' ? v > b.tenth : v < b.tenth;
  return top ? { rule: 'first_sight', previous: null, allowed: null } : null;
}

/**
 * The gain a player's first value of a season on a server would count in a season that counts gains (as the writer
 * computes it): above the player's last value there before the season began (`prior`), the whole value after a
 * counter reset, and nothing without an earlier value (the first value observed is the baseline).
 */
export function firstGain(value: number, prior: number | null): number {
  if (prior === null) return 0;
  return value < prior ? Math.max(value, 0) : value - prior;
}

/**
 * Whether one uploaded value is held, and by which rule: `above_verified`, else `rate`, else `first_sight`. A drop
 * from the last stored value is never held (a world reset; season scoring keeps the gains).
 */
export function screenValue(f: ValueFacts, p: PlayerFacts, now: number): Held | null {
  if (f.last !== null && f.value <= f.last.value) return null;
  return aboveVerified(f, p, now) ?? rate(f, now) ?? firstSight(f, p);
}

/** `rename`: a client upload that would change an existing player's username a second time within 30 days. */
export function renameHeld(
  stored: { username: string; changedAt: number | null } | null,
  username: string,
  now: number,
): boolean {
  if (stored === null || stored.username === username || stored.changedAt === null) return false;
  return now - stored.changedAt < RENAME_WINDOW_MS;
}
