import { describe, expect, it } from 'vitest';
import {
  aboveVerified,
  allowedFrom,
  firstGain,
  firstSight,
  type PlayerFacts,
  RENAME_WINDOW_MS,
  rate,
  renameHeld,
  screenValue,
  type ValueFacts,
} from './rules.ts';

const H = 3_600_000;
const NOW = Date.parse('2026-11-28T12:00:00Z');
const known: PlayerFacts = { serverVerified: false, firstSight: false };
const facts = (f: Partial<ValueFacts>): ValueFacts => ({
  value: 0,
  maxPerHour: 72_000,
  last: null,
  verified: null,
  board: null,
  ...f,
});

describe('rate', () => {
  it('allows max_per_hour × (hours since the last arrival + 0.1) on top of the last stored value', () => {
    expect(allowedFrom({ value: 1_000, at: NOW - H }, 72_000, NOW)).toBeCloseTo(1_000 + 72_000 * 1.1);
    const last = { value: 1_000, at: NOW - H };
    expect(rate(facts({ value: 1_000 + 79_200, last }), NOW)).toBeNull();
    expect(rate(facts({ value: 1_000 + 79_201, last }), NOW)).toEqual({
      rule: 'rate',
      previous: last,
      allowed: 80_200,
    });
  });

  it('allows 0.1 h of growth right after the last upload', () => {
    const last = { value: 0, at: NOW };
    expect(rate(facts({ value: 7_200, last }), NOW)).toBeNull();
    expect(rate(facts({ value: 7_201, last }), NOW)?.allowed).toBe(7_200);
  });

  it('counts the hours by arrival (the service clock): an old observed_at earns nothing', () => {
    // 40 hours of play time reported one hour after the last arrival, whatever the client claims it observed.
    const last = { value: 0, at: NOW - H };
    expect(rate(facts({ value: 40 * 72_000, last }), NOW)?.rule).toBe('rate');
    expect(rate(facts({ value: 40 * 72_000, last: { value: 0, at: NOW - 40 * H } }), NOW)).toBeNull();
  });

  it('holds nothing without a limit, without a stored value, or for a drop', () => {
    expect(rate(facts({ value: 1e12, maxPerHour: null, last: { value: 0, at: NOW } }), NOW)).toBeNull();
    expect(rate(facts({ value: 1e12 }), NOW)).toBeNull();
    expect(rate(facts({ value: 5, last: { value: 1e9, at: NOW } }), NOW)).toBeNull();
  });
});

describe('above_verified', () => {
  const verified = { value: 10_000, at: NOW - 2 * H };
  const onVerified: PlayerFacts = { serverVerified: true, firstSight: false };

  it("holds a value above the player's verified value by more than the allowance since its arrival", () => {
    const allowed = 10_000 + 72_000 * 2.1;
    expect(aboveVerified(facts({ value: allowed, verified }), onVerified, NOW)).toBeNull();
    expect(aboveVerified(facts({ value: allowed + 1, verified }), onVerified, NOW)).toEqual({
      rule: 'above_verified',
      previous: verified,
      allowed,
    });
  });

  it('needs a server with verified values and a verified value of the player', () => {
    expect(aboveVerified(facts({ value: 1e9, verified }), known, NOW)).toBeNull();
    expect(aboveVerified(facts({ value: 1e9 }), onVerified, NOW)).toBeNull();
  });
});

describe('first_sight', () => {
  const board = { players: 20, tenth: 500, order: 'desc' as const };
  const newcomer: PlayerFacts = { serverVerified: false, firstSight: true };

  it("holds a newcomer's value that would enter the top 10 of a board of 20 players", () => {
    expect(firstSight(facts({ value: 501, board }), newcomer)).toEqual({
      rule: 'first_sight',
      previous: null,
      allowed: null,
    });
    expect(firstSight(facts({ value: 500, board }), newcomer)).toBeNull();
  });

  it('reads the top of an ascending board from below', () => {
    expect(firstSight(facts({ value: 499, board: { ...board, order: 'asc' } }), newcomer)?.rule).toBe('first_sight');
    expect(firstSight(facts({ value: 501, board: { ...board, order: 'asc' } }), newcomer)).toBeNull();
  });

  it('leaves boards of fewer than 20 players, private statistics and known players alone', () => {
    expect(firstSight(facts({ value: 1e9, board: { ...board, players: 19 } }), newcomer)).toBeNull();
    expect(firstSight(facts({ value: 1e9, board: null }), newcomer)).toBeNull();
    expect(firstSight(facts({ value: 1e9, board }), known)).toBeNull();
  });
});

describe('first_sight in a season that counts gains', () => {
  const board = { players: 20, tenth: 50, order: 'desc' as const };
  const newcomer: PlayerFacts = { serverVerified: false, firstSight: true };

  it('ranks the gain the value would count, not the value', () => {
    expect(firstSight(facts({ value: 1e9, ranked: firstGain(1e9, null), board }), newcomer)).toBeNull();
    expect(firstSight(facts({ value: 1_051, ranked: firstGain(1_051, 1_000), board }), newcomer)?.rule).toBe(
      'first_sight',
    );
    expect(firstSight(facts({ value: 1_049, ranked: firstGain(1_049, 1_000), board }), newcomer)).toBeNull();
  });

  it('counts the gain as the writer does: nothing without an earlier value, the whole value after a reset', () => {
    expect(firstGain(500, null)).toBe(0);
    expect(firstGain(500, 200)).toBe(300);
    expect(firstGain(150, 200)).toBe(150);
  });
});

describe('screenValue', () => {
  const verified = { value: 0, at: NOW };
  const last = { value: 0, at: NOW };
  const board = { players: 50, tenth: 10, order: 'desc' as const };

  it('names above_verified before rate, and rate before first_sight', () => {
    const all: PlayerFacts = { serverVerified: true, firstSight: true };
    expect(screenValue(facts({ value: 1e9, verified, last, board }), all, NOW)?.rule).toBe('above_verified');
    expect(screenValue(facts({ value: 1e9, last, board }), all, NOW)?.rule).toBe('rate');
    expect(screenValue(facts({ value: 1e9, board }), all, NOW)?.rule).toBe('first_sight');
  });

  it('never holds a drop, even below a verified value that a forged counter exceeded', () => {
    const all: PlayerFacts = { serverVerified: true, firstSight: false };
    expect(screenValue(facts({ value: 3, last: { value: 9, at: NOW }, verified }), all, NOW)).toBeNull();
  });
});

describe('rename', () => {
  it('lets a name change once, and holds a second change within 30 days', () => {
    expect(renameHeld({ username: 'Steve', changedAt: null }, 'Alex', NOW)).toBe(false);
    expect(renameHeld({ username: 'Steve', changedAt: NOW - RENAME_WINDOW_MS + 1 }, 'Alex', NOW)).toBe(true);
    expect(renameHeld({ username: 'Steve', changedAt: NOW - RENAME_WINDOW_MS }, 'Alex', NOW)).toBe(false);
  });

  it('holds nothing for a new player or the same name', () => {
    expect(renameHeld(null, 'Alex', NOW)).toBe(false);
    expect(renameHeld({ username: 'Alex', changedAt: NOW }, 'Alex', NOW)).toBe(false);
  });
});
