import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StatKey } from '#src/modules/stats/service.ts';
import { publicValues, statsAnswer } from './stats-answer.ts';

/** `n` definitions with ids, in bytewise key order (`order`), every third one hidden. */
function definitions(n: number): { ids: string[]; names: string[]; keys: Map<string, StatKey> } {
  const names = Array.from({ length: n }, (_, i) => `minecraft.mined:minecraft.item_${i}`).sort();
  const ids = names.map(() => randomUUID());
  const keys = new Map(
    names.map((key, order): [string, StatKey] => [
      ids[order]!,
      { key, json: JSON.stringify(key), public: order % 3 !== 1, order },
    ]),
  );
  return { ids, names, keys };
}

/** The values text `repo.playerWithValues` reads (`id value ms` …), of these definitions in a shuffled order. */
function text(ids: readonly string[], value: (i: number) => number): string {
  const shuffled = ids.map((id, i) => ({ id, i, r: Math.random() })).sort((a, b) => a.r - b.r);
  return shuffled.map(({ id, i }) => `${id} ${value(i)} ${1_764_547_200_000 + i * 1000}`).join(' ');
}

describe('the values of a player', () => {
  // Values of most of the workspace's statistics (as the mod uploads them) are put in their places; a few of many are
  // sorted: both in the keys' bytewise order, public ones only.
  it.each([
    ['most statistics', 400, 300],
    ['a few of many', 400, 12],
  ])('are in key order with %s', (_, all, held) => {
    const { ids, names, keys } = definitions(all);
    const mine = ids.slice(0, held);
    const read = publicValues(
      text(mine, (i) => i * 10),
      keys,
    );
    // Definition i is the i-th key in bytewise order; its value i * 10.
    const publicOnes = mine.flatMap((_, i) => (i % 3 === 1 ? [] : [i]));
    const expected = publicOnes.map((i) => names[i]!);
    expect(read?.values.map((v) => v.key)).toEqual(expected);
    expect(read?.values.map((v) => v.value)).toEqual(publicOnes.map((i) => i * 10));
    expect(read?.left).toBe(0);
    const answer = JSON.parse(
      statsAnswer(
        '{"uuid":"u"}',
        Buffer.from('{"id":"s"}'),
        text(mine, (i) => i),
        keys,
      )!.toString(),
    );
    expect(answer.stats.map((s: { key: string }) => s.key)).toEqual(expected);
  });

  it('lists, counts or skips each value as a page asks, and makes nothing of those it leaves out', () => {
    const { ids, names, keys } = definitions(30);
    const read = publicValues(
      text(ids, (i) => (i % 2 === 0 ? 0 : i)),
      keys,
      false,
      (key, value) => (key === names[5] ? 'skip' : value === 0 ? 'count' : 'list'),
    );
    const shown = ids.flatMap((_, i) => (i % 3 !== 1 && i % 2 === 1 && i !== 5 ? [i] : []));
    expect(read?.values.map((v) => v.value).sort((a, b) => a - b)).toEqual(shown);
    expect(read?.left).toBe(ids.filter((_, i) => i % 3 !== 1 && i % 2 === 0).length);
  });

  it('is null for a definition it does not know, unless told to skip it', () => {
    const { ids, keys } = definitions(6);
    const values = `${text(ids, (i) => i)} ${randomUUID()} 7 1764547200000`;
    expect(publicValues(values, keys)).toBeNull();
    expect(publicValues(values, keys, true)?.values).toHaveLength(4);
  });
});
