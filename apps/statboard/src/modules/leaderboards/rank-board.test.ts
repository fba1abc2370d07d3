import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BoardEntry, RankBoard } from './rank-board.ts';
import { competitionRanks } from './ranking.ts';

/** The reference: sort everything, rank with `competitionRanks` (as `/leaderboards` does). */
function reference(order: 'asc' | 'desc', entries: BoardEntry[]): { entry: BoardEntry; rank: number }[] {
  const sorted = entries.slice().sort((a, b) => {
    if (a.value !== b.value) return order === 'desc' ? b.value - a.value : a.value - b.value;
    if (a.at !== b.at) return a.at - b.at;
    return a.uuid < b.uuid ? -1 : 1;
  });
  const ranks = competitionRanks(sorted.map((e) => e.value));
  return sorted.map((entry, i) => ({ entry, rank: ranks[i]! }));
}

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// Few distinct values and times: many ties.
const entry = fc
  .record({
    uuid: fc.integer({ min: 0, max: 40 }).map(uuidOf),
    value: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0, 1e300)),
    at: fc.integer({ min: 0, max: 4 }).map((t) => 1_700_000_000_000_000 + t),
  })
  .map((e): BoardEntry => ({ ...e, id: e.uuid, username: 'P', json: null }));

describe('RankBoard', () => {
  it('orders, ranks and slices exactly as a full sort with competition ranks, through any changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.array(entry, { maxLength: 40 }),
        fc.array(
          fc.oneof(
            entry.map((e) => ({ set: e })),
            fc.integer({ min: 0, max: 40 }).map((n) => ({ del: uuidOf(n) })),
          ),
          {
            maxLength: 40,
          },
        ),
        fc.integer({ min: 0, max: 45 }),
        fc.integer({ min: 0, max: 10 }),
        (order, initial, ops, from, length) => {
          const current = new Map<string, BoardEntry>();
          for (const e of initial) current.set(e.uuid, e);
          const board = new RankBoard(order, [...current.values()]);
          for (const op of ops) {
            if ('set' in op) {
              board.set(op.set);
              current.set(op.set.uuid, op.set);
            } else {
              board.delete(op.del);
              current.delete(op.del);
            }
          }
          const expected = reference(order, [...current.values()]);
          expect(board.size).toBe(expected.length);
          expect(board.slice(0, expected.length)).toEqual(expected);
          expect(board.slice(from, from + length)).toEqual(expected.slice(from, from + length));
          for (const [i, x] of expected.entries()) {
            expect(board.indexOf(x.entry.uuid)).toBe(i);
            expect(board.rankAt(i)).toBe(x.rank);
          }
          expect(board.indexOf(uuidOf(99))).toBe(-1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
