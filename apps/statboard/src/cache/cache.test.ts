import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeBus } from './bus.ts';
import { Cache } from './cache.ts';
import { Changes } from './changes.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Two misses of `key` while the first's load is in flight, that load then answering `value`: how many loads ran
 * (counted before it answers), and what each miss got.
 */
async function twoMisses(cache: Cache<string, number>, key: string, value: number) {
  const d = deferred<number>();
  let n = 0;
  const load = () => {
    n++;
    return d.promise;
  };
  const first = cache.get(key, load);
  const second = cache.get(key, load);
  const loads = n;
  d.resolve(value);
  return { loads, answers: [await first, await second] };
}

describe('Cache', () => {
  it('stores a new key only when its admission says so, and a reload of a held key whatever it says', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const asked: string[] = [];
      let answer = false;
      const admission = {
        admit(key: string) {
          asked.push(key);
          return answer;
        },
      };
      const cache = new Cache<string, number>(ChangeBus.local(), 60_000, 10, null, null, admission);
      expect(await cache.get('a', async () => 1)).toBe(1);
      expect(cache.peek('a')).toBeUndefined();
      answer = true;
      const reload = deferred<number>();
      let loads = 0;
      const load = () => (++loads === 1 ? Promise.resolve(2) : reload.promise);
      expect(await cache.get('a', load)).toBe(2);
      expect(cache.peek('a')).toBe(2);
      expect(asked).toEqual(['a', 'a']);
      // Late in its life a read reloads the entry in the background: the new value is stored without asking.
      answer = false;
      vi.setSystemTime(60_000 * 0.76);
      expect(cache.peek('a')).toBe(2);
      expect(loads).toBe(2);
      reload.resolve(3);
      await reload.promise;
      await Promise.resolve();
      expect(cache.peek('a')).toBe(3);
      expect(asked).toEqual(['a', 'a']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('loads a key its admission does not let in alone: not shared with other misses, not stored', async () => {
    const cache = new Cache<string, number>(ChangeBus.local(), 60_000, 10, null, null, { admit: () => false });
    expect(await twoMisses(cache, 'a', 1)).toEqual({ loads: 2, answers: [1, 1] });
    expect(cache.peek('a')).toBeUndefined();
  });

  it('answers a hit at once, without a promise', async () => {
    const cache = new Cache<string, number>(ChangeBus.local(), 60_000, 10);
    expect(await cache.get('a', async () => 1)).toBe(1);
    expect(cache.get('a', async () => 2)).toBe(1);
    expect(cache.peek('a')).toBe(1);
  });

  it('lets misses of one key share the load in flight', async () => {
    const cache = new Cache<string, number>(ChangeBus.local(), 60_000, 10);
    expect(await twoMisses(cache, 'a', 7)).toEqual({ loads: 1, answers: [7, 7] });
    expect(cache.peek('a')).toBe(7);
  });

  it('never gives a read that starts after a change an answer loaded before it', async () => {
    const cache = new Cache<string, string>(ChangeBus.local(), 60_000, 10);
    const before = deferred<string>();
    const old = cache.get('a', () => before.promise);
    cache.delete('a'); // a write committed while the first load ran
    const fresh = cache.get('a', async () => 'new');
    before.resolve('old');
    expect(await old).toBe('old');
    expect(await fresh).toBe('new');
    // The load that raced the change is not stored either.
    expect(cache.peek('a')).toBe('new');
  });

  it('neither stores nor shares a failed load', async () => {
    const cache = new Cache<string, number>(ChangeBus.local(), 60_000, 10);
    const d = deferred<number>();
    const failed = cache.get('a', () => d.promise);
    d.reject(new Error('down'));
    await expect(failed).rejects.toThrow('down');
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a', async () => 3)).toBe(3);
  });

  it('keeps what `keep` refuses out of the cache', async () => {
    const cache = new Cache<string, number | null>(ChangeBus.local(), 60_000, 10);
    expect(
      await cache.get(
        'a',
        async () => null,
        (v) => v !== null,
      ),
    ).toBeNull();
    expect(cache.peek('a')).toBeUndefined();
  });

  it('keeps within a byte budget, dropping the oldest first, and skips a value larger than the budget', async () => {
    const cache = new Cache<string, Buffer>(ChangeBus.local(), 60_000, 1_000, { max: 10, sizeOf: (b) => b.length });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => Buffer.alloc(4));
    expect(cache.stats).toEqual({ entries: 2, bytes: 8 });
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('c')).toHaveLength(4);
    await cache.get('huge', async () => Buffer.alloc(11));
    expect(cache.peek('huge')).toBeUndefined();
    expect(cache.stats).toEqual({ entries: 2, bytes: 8 });
    cache.delete('b');
    expect(cache.stats).toEqual({ entries: 1, bytes: 4 });
    cache.deleteWhere(() => true);
    expect(cache.stats).toEqual({ entries: 0, bytes: 0 });
    await cache.get('d', async () => Buffer.alloc(10));
    cache.clear();
    expect(cache.stats).toEqual({ entries: 0, bytes: 0 });
  });

  describe('refresh-ahead', () => {
    const TTL = 60_000;
    afterEach(() => {
      vi.useRealTimers();
    });
    /** A cache whose clock the test moves, with 'a' loaded at t=0 by a counting loader. */
    async function loaded(values: (() => Promise<number>)[]) {
      vi.useFakeTimers({ toFake: ['Date'], now: 0 });
      const cache = new Cache<string, number>(ChangeBus.local(), TTL, 10);
      let loads = 0;
      const load = () => values[loads++]!();
      expect(await cache.get('a', load)).toBe(1);
      return { cache, loads: () => loads };
    }

    it('serves an entry read late in its life and reloads it in the background, once', async () => {
      const next = deferred<number>();
      const { cache, loads } = await loaded([async () => 1, () => next.promise, async () => 3]);
      vi.setSystemTime(TTL * 0.49);
      expect(cache.peek('a')).toBe(1);
      expect(loads()).toBe(1); // young: no reload
      vi.setSystemTime(TTL * 0.76); // past the refresh point whatever the jitter
      expect(cache.peek('a')).toBe(1);
      expect(cache.get('a', async () => 99)).toBe(1); // still a hit, no promise
      expect(cache.peek('a')).toBe(1);
      expect(loads()).toBe(2); // one reload for all those reads
      next.resolve(2);
      await next.promise;
      await Promise.resolve();
      expect(cache.peek('a')).toBe(2);
      // The new value lives a full TTL from its reload.
      vi.setSystemTime(TTL * 0.76 + TTL - 1);
      expect(cache.peek('a')).toBe(2);
      vi.setSystemTime(TTL * 0.76 + TTL);
      expect(cache.peek('a')).toBeUndefined();
    });

    it('keeps serving the entry until it expires when the reload fails, without an unhandled rejection', async () => {
      const next = deferred<number>();
      const { cache, loads } = await loaded([async () => 1, () => next.promise]);
      vi.setSystemTime(TTL * 0.8);
      expect(cache.peek('a')).toBe(1);
      next.reject(new Error('database down'));
      await next.promise.catch(() => undefined);
      await Promise.resolve();
      expect(cache.peek('a')).toBe(1);
      expect(loads()).toBe(2); // not retried on every read
      vi.setSystemTime(TTL);
      expect(cache.peek('a')).toBeUndefined();
    });

    it('never throws from peek, even for a loader that throws before returning its promise', async () => {
      const { cache } = await loaded([
        async () => 1,
        () => {
          throw new Error('sync');
        },
      ]);
      vi.setSystemTime(TTL * 0.8);
      expect(cache.peek('a')).toBe(1);
      expect(cache.peek('a')).toBe(1);
    });

    it('does not store a reload that raced a change, nor one that `keep` refuses', async () => {
      const raced = deferred<number>();
      const { cache } = await loaded([async () => 1, () => raced.promise]);
      vi.setSystemTime(TTL * 0.8);
      expect(cache.peek('a')).toBe(1);
      cache.deleteWhere(() => false); // a change that touched other keys: the generation moved
      raced.resolve(2);
      await raced.promise;
      await Promise.resolve();
      expect(cache.peek('a')).toBe(1); // the old entry, until it expires

      vi.useFakeTimers({ toFake: ['Date'], now: 0 });
      const refusing = new Cache<string, number | null>(ChangeBus.local(), TTL, 10);
      const values = [1, null];
      let i = 0;
      const load = async () => values[i++] ?? null;
      expect(await refusing.get('a', load, (v) => v !== null)).toBe(1);
      vi.setSystemTime(TTL * 0.8);
      expect(refusing.peek('a')).toBe(1);
      await Promise.resolve();
      await Promise.resolve();
      expect(i).toBe(2);
      expect(refusing.peek('a')).toBe(1); // null was not stored over it
    });
  });

  describe('stale-if-error', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('gives an entry that expired within the grace, never one a change dropped, nor while the bus is unhealthy', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: 0 });
      const bus = ChangeBus.local();
      const cache = new Cache<string, number>(bus, 1_000, 10);
      await cache.get('a', async () => 1);
      await cache.get('b', async () => 2);
      expect(cache.stale('a', 5_000)).toBe(1); // not expired yet: served as it is
      vi.setSystemTime(1_500);
      expect(cache.peek('a')).toBeUndefined();
      expect(cache.stale('a', 5_000)).toBe(1);
      vi.setSystemTime(6_500);
      expect(cache.stale('a', 5_000)).toBeUndefined(); // past the grace
      vi.setSystemTime(1_500);
      cache.delete('b');
      expect(cache.stale('b', 5_000)).toBeUndefined(); // a change took it
      bus.healthy = false;
      expect(cache.stale('a', 5_000)).toBeUndefined();
    });
  });
});

describe('Changes.cache', () => {
  it('makes no cache for a byte budget of 0 (a setting such as PAGE_CACHE_MB=0), nor where the service must not cache', () => {
    const sizeOf = (v: string) => v.length;
    const changes = new Changes(ChangeBus.local(), true);
    expect(changes.cache<string, string>('kept', 1000, 10, { max: 1024, sizeOf })).toBeInstanceOf(Cache);
    expect(changes.cache<string, string>('none', 1000, 10, { max: 0, sizeOf })).toBeNull();
    expect(new Changes(ChangeBus.local(), false).cache<string, string>('tx', 1000, 10)).toBeNull();
  });
});
