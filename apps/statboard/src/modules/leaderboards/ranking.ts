/**
 * Competition ranks ("1224") over rows already sorted best first: equal values share the rank of the first
 * of them, and the next distinct value skips as many ranks as were shared.
 */
export function competitionRanks(values: readonly number[]): number[] {
  const ranks: number[] = [];
  for (let i = 0; i < values.length; i++) {
    ranks.push(i > 0 && values[i] === values[i - 1] ? ranks[i - 1]! : i + 1);
  }
  return ranks;
}

/** `limit` defaults to 10 and is clamped to 1–`max` (100 for the leaderboards' routes, 25 for an embed). */
export function clampLimit(limit: number | undefined, max = 100): number {
  if (limit === undefined || Number.isNaN(limit)) return 10;
  // ±Infinity clamp like any other out-of-range value.
  return Math.min(max, Math.max(1, Math.trunc(limit)));
}
