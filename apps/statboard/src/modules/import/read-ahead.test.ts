import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.ts';

/** Sizes of the items, and a tally of what is started and not yet consumed. */
function harness(sizes: number[]) {
  let held = 0;
  let items = 0;
  let maxHeld = 0;
  let maxItems = 0;
  const weigh = async (i: number) => ({ bytes: sizes[i]!, weighed: sizes[i]! });
  const read = async (i: number, bytes: number) => {
    held += bytes;
    items++;
    maxHeld = Math.max(maxHeld, held);
    maxItems = Math.max(maxItems, items);
    // Later items finish first: results must still come in order.
    await new Promise((r) => setTimeout(r, (sizes.length - i) % 5));
    return { i, bytes };
  };
  const consumed = (bytes: number) => {
    held -= bytes;
    items--;
  };
  return { weigh, read, consumed, max: () => ({ bytes: maxHeld, items: maxItems }) };
}

describe('read-ahead', () => {
  it('yields every result in order, with at most the given items and bytes started and not consumed', async () => {
    const sizes = Array.from({ length: 200 }, (_, i) => (i * 37) % 11);
    const h = harness(sizes);
    const seen: number[] = [];
    for await (const r of readAhead(
      sizes.map((_, i) => i),
      { items: 8, bytes: 20 },
      h.weigh,
      h.read,
    )) {
      seen.push(r.i);
      h.consumed(r.bytes);
    }
    expect(seen).toEqual(sizes.map((_, i) => i));
    expect(h.max().items).toBeLessThanOrEqual(8);
    expect(h.max().bytes).toBeLessThanOrEqual(20);
  });

  it('reads an item larger than the byte limit alone, and goes on', async () => {
    const sizes = [5, 100, 5, 5];
    const h = harness(sizes);
    const seen: number[] = [];
    for await (const r of readAhead([0, 1, 2, 3], { items: 8, bytes: 10 }, h.weigh, h.read)) {
      seen.push(r.i);
      h.consumed(r.bytes);
    }
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(h.max().bytes).toBe(100);
  });
});
