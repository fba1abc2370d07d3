/**
 * Bytes a compact board is counted for beyond its base arrays: its delta at its largest (MAX_DELTA keys, counts
 * and prefix sums as doubles) and its objects. Counted whole from the start, so that a board never outgrows its
 * share of the budget between merges.
 */
export const COMPACT_FIXED_BYTES = 1024 + 1024 * 24;

/** Bytes a hidden player's value is counted for (a Map entry with its key and a two-number array). */
const HIDDEN_ENTRY_BYTES = 160;

/** Changed values buffered before they are merged into the base arrays (a merge costs O(n), once per this many). */
const MAX_DELTA = 1024;

/** Smallest and largest int32. */
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The multiset of a board's public values, without their players: what the competition rank of a value
 * (one more than the public values strictly better) and the value at a position of the board need, as binary
 * searches. For boards too large to hold as full entries (RankBoard, ~1,500 bytes a value): 4 or 8 bytes a value,
 * or fewer when values repeat. Values are held as keys in ascending order, the key being the value itself on an
 * ascending board and its negation on a descending one, so that a smaller key always ranks better.
 *
 * The base is either one key per value (`cum` null: Int32Array when every key is an int32, else Float64Array),
 * or runs: distinct keys with the cumulative count of values up to each (`cum`), whichever is smaller. Changes
 * (a value taken out, one put in) go to a small sorted delta of key → count change, merged into the base when it
 * grows past MAX_DELTA: O(log n) per read, O(n / MAX_DELTA) per change amortized.
 */
export class CompactBoard {
  private keys: Int32Array | Float64Array = new Int32Array(0);
  private cum: Uint32Array | null = null;
  /** The delta: sorted keys, their count changes (never 0), and the prefix sums of the counts (made on demand). */
  private dKeys: number[] = [];
  private dCounts: number[] = [];
  private dPrefix: number[] | null = null;
  private readonly desc: boolean;
  /** Public values on the board. */
  size = 0;
  /** Counts changes applied: a reader that waited on a query compares it to know whether its counts still hold. */
  version = 0;
  /** A change took out a value the board did not have: the board no longer matches the database (reload it). */
  broken = false;

  /**
   * Hidden players' values, which are not on the board, by player id: [value, updated_at in microseconds]. A page
   * that starts inside a run of ties finds its place in the index, where hidden players' values stand among the
   * public ones; these say how many of them come before it (`hiddenAt`). Few (players who opted out).
   */
  private readonly hidden = new Map<string, [value: number, atMicros: number]>();

  /** A board from its values' runs in ascending order of value, each distinct value with its count (> 0). */
  constructor(order: 'asc' | 'desc', values: ArrayLike<number>, counts: ArrayLike<number>) {
    this.desc = order === 'desc';
    const n = values.length;
    const keys = new Float64Array(n);
    const cs = new Float64Array(n);
    // Keys ascending: a descending board's values reversed and negated.
    for (let i = 0; i < n; i++) {
      const j = this.desc ? n - 1 - i : i;
      keys[i] = this.key(values[j]!);
      cs[i] = counts[j]!;
    }
    this.build(keys, cs, n);
  }

  /** `0 - v` and `v + 0` are never -0 (PostgreSQL holds -0 equal to 0): a key of 0 fits an Int32Array. */
  private key(value: number): number {
    return this.desc ? 0 - value : value + 0;
  }

  /** Bytes the board is counted for in RANK_CACHE_MB. */
  get bytes(): number {
    return (
      this.keys.byteLength + (this.cum?.byteLength ?? 0) + COMPACT_FIXED_BYTES + this.hidden.size * HIDDEN_ENTRY_BYTES
    );
  }

  /** A hidden player's value is now `value`, changed at `atMicros` (its place among the ties of `value`). */
  hide(playerId: string, value: number, atMicros: number): void {
    this.hidden.set(playerId, [value, atMicros]);
    this.version++;
  }

  /** The `updated_at` (microseconds) of every hidden player's value equal to `value`. */
  hiddenAt(value: number): number[] {
    const at: number[] = [];
    for (const [v, t] of this.hidden.values()) if (v === value) at.push(t);
    return at;
  }

  /** Public values strictly better than `value` (its competition rank minus one). */
  better(value: number): number {
    const k = this.key(value);
    return this.baseBelow(k, false) + this.deltaBelow(k, false);
  }

  /** The value at `position` (0: the best) in leaderboard order, or undefined past the end. */
  valueAt(position: number): number | undefined {
    if (position < 0 || position >= this.size) return undefined;
    const keys = this.keys;
    // The first base key with more than `position` values up to it; a key of the delta between it and the base key
    // before it may come first (a value the base does not have).
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.upTo(keys[mid]!) > position) hi = mid;
      else lo = mid + 1;
    }
    const above = lo > 0 ? keys[lo - 1]! : Number.NEGATIVE_INFINITY;
    for (let j = upperBound(this.dKeys, above); j < this.dKeys.length; j++) {
      const dk = this.dKeys[j]!;
      if (lo < keys.length && dk >= keys[lo]!) break;
      if (this.upTo(dk) > position) return this.value(dk);
    }
    return lo < keys.length ? this.value(keys[lo]!) : undefined;
  }

  private value(key: number): number {
    return this.desc ? 0 - key : key;
  }

  /** Values with a key up to `k`. */
  private upTo(k: number): number {
    return this.baseBelow(k, true) + this.deltaBelow(k, true);
  }

  /** Base values with a key below `k` (or up to it, `inclusive`). */
  private baseBelow(k: number, inclusive: boolean): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < k || (inclusive && keys[mid] === k)) lo = mid + 1;
      else hi = mid;
    }
    return this.cum ? (lo > 0 ? this.cum[lo - 1]! : 0) : lo;
  }

  /** The delta's net count of keys below `k` (or up to it). */
  private deltaBelow(k: number, inclusive: boolean): number {
    if (this.dKeys.length === 0) return 0;
    if (!this.dPrefix) {
      const p = [0];
      for (const c of this.dCounts) p.push(p.at(-1)! + c);
      this.dPrefix = p;
    }
    return this.dPrefix[inclusive ? upperBound(this.dKeys, k) : lowerBound(this.dKeys, k)]!;
  }

  /**
   * A player's public value changed: `from` taken out (null: it had none on the board), `to` put in (null: it has
   * none now).
   */
  move(from: number | null, to: number | null): void {
    if (from !== null && to !== null && from === to) return;
    if (from !== null) this.add(this.key(from), -1);
    if (to !== null) this.add(this.key(to), 1);
    this.version++;
    if (this.dKeys.length > MAX_DELTA) this.merge();
  }

  private add(k: number, count: number): void {
    this.size += count;
    this.dPrefix = null;
    const j = lowerBound(this.dKeys, k);
    if (this.dKeys[j] === k) {
      const c = this.dCounts[j]! + count;
      if (c === 0) {
        this.dKeys.splice(j, 1);
        this.dCounts.splice(j, 1);
      } else this.dCounts[j] = c;
    } else {
      this.dKeys.splice(j, 0, k);
      this.dCounts.splice(j, 0, count);
    }
    if (count < 0 && this.baseBelow(k, true) - this.baseBelow(k, false) + this.deltaCount(k) < 0) this.broken = true;
  }

  private deltaCount(k: number): number {
    const j = lowerBound(this.dKeys, k);
    return this.dKeys[j] === k ? this.dCounts[j]! : 0;
  }

  /** Folds the delta into the base arrays (one pass over both). */
  private merge(): void {
    const keys = this.keys;
    const cum = this.cum;
    const out = new Float64Array(keys.length + this.dKeys.length);
    const counts = new Float64Array(out.length);
    let n = 0;
    const put = (k: number, c: number) => {
      if (c <= 0) {
        if (c < 0) this.broken = true;
        return;
      }
      out[n] = k;
      counts[n++] = c;
    };
    let i = 0;
    let j = 0;
    while (i < keys.length || j < this.dKeys.length) {
      const bk = i < keys.length ? keys[i]! : Number.POSITIVE_INFINITY;
      const dk = j < this.dKeys.length ? this.dKeys[j]! : Number.POSITIVE_INFINITY;
      if (dk < bk) {
        put(dk, this.dCounts[j++]!);
        continue;
      }
      // The run of the base key bk.
      let end = i + 1;
      if (!cum) while (end < keys.length && keys[end] === bk) end++;
      let c = cum ? cum[i]! - (i > 0 ? cum[i - 1]! : 0) : end - i;
      i = end;
      if (dk === bk) c += this.dCounts[j++]!;
      put(bk, c);
    }
    this.dKeys = [];
    this.dCounts = [];
    this.dPrefix = null;
    this.build(out, counts, n);
  }

  /** Sets the base from `n` runs (ascending keys, counts > 0): one key per value, or runs, whichever is smaller. */
  private build(keys: Float64Array, counts: Float64Array, n: number): void {
    let total = 0;
    let ints = true;
    for (let i = 0; i < n; i++) {
      total += counts[i]!;
      const k = keys[i]!;
      if (ints && !(Number.isInteger(k) && k >= INT32_MIN && k <= INT32_MAX)) ints = false;
    }
    const width = ints ? 4 : 8;
    this.size = total + this.dCounts.reduce((a, c) => a + c, 0);
    if (total * width <= n * (width + 4)) {
      const flat = ints ? new Int32Array(total) : new Float64Array(total);
      let at = 0;
      for (let i = 0; i < n; i++) {
        flat.fill(keys[i]!, at, at + counts[i]!);
        at += counts[i]!;
      }
      this.keys = flat;
      this.cum = null;
    } else {
      const ks = ints ? new Int32Array(n) : new Float64Array(n);
      const cum = new Uint32Array(n);
      let at = 0;
      for (let i = 0; i < n; i++) {
        ks[i] = keys[i]!;
        at += counts[i]!;
        cum[i] = at;
      }
      this.keys = ks;
      this.cum = cum;
    }
  }
}

/** The first index whose element is not below `k`. */
function lowerBound(a: readonly number[], k: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose element is above `k`. */
function upperBound(a: readonly number[], k: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
