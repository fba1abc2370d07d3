import { describe, expect, it } from 'vitest';
import { Doorkeeper } from './doorkeeper.ts';

describe('Doorkeeper', () => {
  it('admits a key at its second sight, not its first', () => {
    const d = new Doorkeeper(1000);
    expect(d.admit('a|1|{"kind":"player"}')).toBe(false);
    expect(d.admit('a|1|{"kind":"player"}')).toBe(true);
    expect(d.admit('a|1|{"kind":"player"}')).toBe(true);
    expect(d.admit('a|2|{"kind":"player"}')).toBe(false);
  });

  it('forgets what it saw after a window of keys', () => {
    const d = new Doorkeeper(100);
    d.admit('kept');
    for (let i = 0; i < 100; i++) d.admit(`other ${i}`);
    expect(d.admit('kept')).toBe(false);
    expect(d.admit('kept')).toBe(true);
  });

  it('admits few keys at their first sight within a window', () => {
    const d = new Doorkeeper(10_000);
    let wrong = 0;
    for (let i = 0; i < 10_000; i++) if (d.admit(`/p/bench/players/${i}`)) wrong++;
    // At most an eighth of the bits are set at the window's end: about 6 % admitted early on average.
    expect(wrong).toBeLessThan(1000);
  });
});
