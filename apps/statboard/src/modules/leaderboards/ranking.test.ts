import { describe, expect, it } from 'vitest';
import { clampLimit, competitionRanks } from './ranking.ts';

describe('competition ranks', () => {
  it('gives equal values the same rank and skips after a tie (1, 2, 2, 4)', () => {
    expect(competitionRanks([90, 80, 80, 70])).toEqual([1, 2, 2, 4]);
    expect(competitionRanks([5, 5, 5])).toEqual([1, 1, 1]);
    expect(competitionRanks([3, 2, 2, 2, 1])).toEqual([1, 2, 2, 2, 5]);
    expect(competitionRanks([])).toEqual([]);
  });
});

describe('leaderboard limit', () => {
  it('defaults to 10 and clamps to 1–100', () => {
    expect(clampLimit(undefined)).toBe(10);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(-5)).toBe(1);
    expect(clampLimit(1000)).toBe(100);
    expect(clampLimit(37)).toBe(37);
    expect(clampLimit(Number.POSITIVE_INFINITY)).toBe(100);
  });
});
