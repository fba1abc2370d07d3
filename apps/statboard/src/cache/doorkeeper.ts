/**
 * Whether a key has been seen recently, for a cache that keeps only what is asked for a second time (the
 * "doorkeeper" of TinyLFU): a value asked for once in a while (a random player's page) is served and dropped,
 * instead of pushing out what is read often and holding memory until it expires.
 *
 * A set of bits, one per hash of a key: no key is held. A key whose bit another key set is admitted at its first
 * sight (harmless: it is only kept). All the bits are cleared after `window` keys, so "recently" is the last
 * `window` keys seen, at most.
 */
export class Doorkeeper {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  private seen = 0;

  /**
   * @param window keys seen before the bits are cleared: there are 8 bits a key, so at most an eighth of them are
   *   set at the window's end, and on average about one first sight in 16 is admitted by mistake
   */
  constructor(private readonly window = 1 << 17) {
    const size = 1 << Math.max(10, Math.ceil(Math.log2(window * 8)));
    this.bits = new Uint32Array(size >>> 5);
    this.mask = size - 1;
  }

  /** True when `key` was seen before (within the window); else remembers it and answers false. */
  admit(key: string): boolean {
    const bit = fnv1a(key) & this.mask;
    const word = bit >>> 5;
    const flag = 1 << (bit & 31);
    if ((this.bits[word]! & flag) !== 0) return true;
    if (++this.seen > this.window) {
      this.bits.fill(0);
      this.seen = 1;
    }
    this.bits[word]! |= flag;
    return false;
  }
}

/** 32-bit FNV-1a of the string's UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
