import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactBoard } from './compact-board.ts';

/** Runs (ascending distinct values, counts) of a multiset. */
function runs(values: number[]): [number[], number[]] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v + 0, (counts.get(v + 0) ?? 0) + 1);
  const distinct = [...counts.keys()].sort((a, b) => a - b);
  return [distinct, distinct.map((v) => counts.get(v)!)];
}

/** The reference: the multiset sorted in leaderboard order. */
function sorted(order: 'asc' | 'desc', values: number[]): number[] {
  return values.slice().sort((a, b) => (order === 'desc' ? b - a : a - b));
}

function check(board: CompactBoard, order: 'asc' | 'desc', values: number[], probes: number[]): void {
  const s = sorted(order, values);
  expect(board.size).toBe(s.length);
  expect(board.broken).toBe(false);
  for (const [i, v] of s.entries()) expect(board.valueAt(i)).toBe(v + 0);
  expect(board.valueAt(s.length)).toBeUndefined();
  for (const p of [...probes, ...s]) {
    const better = s.filter((v) => (order === 'desc' ? v > p : v < p)).length;
    expect(board.better(p)).toBe(better);
  }
}

describe('compact board', () => {
  const value = fc.oneof(
    fc.integer({ min: -3, max: 6 }),
    fc.constantFrom(0.5, -0, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 1e15, -2.25),
  );

  it('counts better values and finds the value at a position, after any changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.array(value, { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.option(value, { nil: null })), { maxLength: 60 }),
        (order, initial, changes) => {
          const values = initial.slice();
          const [vs, cs] = runs(values);
          const board = new CompactBoard(order, vs, cs);
          check(board, order, values, [-4, 0, 3.5, 7]);
          for (const [who, to] of changes) {
            // A player with a value changes it (or loses it), or a new one comes in.
            const at = values.length > 0 && who % 3 !== 0 ? who % values.length : -1;
            const from = at >= 0 ? values[at]! : null;
            if (at >= 0) values.splice(at, 1);
            if (to !== null) values.push(to);
            board.move(from, to);
          }
          check(board, order, values, [-4, 0, 3.5, 7]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('merges its delta into the base and stays exact', () => {
    const values = Array.from({ length: 500 }, (_, i) => i % 37);
    const [vs, cs] = runs(values);
    const board = new CompactBoard('desc', vs, cs);
    for (let i = 0; i < 3000; i++) {
      const at = (i * 7919) % values.length;
      const to = (i * 31) % 101;
      board.move(values[at]!, to);
      values[at] = to;
    }
    check(board, 'desc', values, [-1, 50, 200]);
  });

  it('takes 4 bytes a value for distinct integers, fewer for runs', () => {
    const n = 100_000;
    const distinct = new CompactBoard(
      'asc',
      Array.from({ length: n }, (_, i) => i),
      new Array(n).fill(1),
    );
    expect(distinct.bytes - new CompactBoard('asc', [], []).bytes).toBe(4 * n);
    const ties = new CompactBoard('desc', [0, 1, 2], [n, n, n]);
    expect(ties.bytes - new CompactBoard('asc', [], []).bytes).toBe(3 * 8);
  });

  it('marks itself broken when a value it does not have is taken out', () => {
    const board = new CompactBoard('asc', [1], [1]);
    board.move(2, 3);
    expect(board.broken).toBe(true);
  });
});
