/**
 * Player data files (`<uuid>.dat`, gzip-compressed big-endian NBT): the `Paper` and `bukkit` login times.
 *
 * A small purpose-built reader: it walks the tag tree once, keeps only the three numbers it needs and skips
 * everything else. It accepts and rejects files as prismarine-nbt's big-endian parser does (a compound may end
 * at the end of the data, tag types above 20 are an error, unknown types 13–20 carry no payload, a tag name
 * may not contain NUL, arrays longer than 0xFFFFFF are an error, negative lengths are empty, truncated data is
 * an error), without loading that library's protocol compiler (~14 MB of memory for three numbers).
 * @packageDocumentation
 */
import { gunzip } from 'node:zlib';

/** Times stored in a player file, in epoch milliseconds; null when absent. */
export interface PlayerFileTimes {
  /** `Paper.LastLogin`. */
  readonly paperLastLogin: number | null;
  /** `Paper.LastSeen`. */
  readonly paperLastSeen: number | null;
  /** `bukkit.lastPlayed`. */
  readonly bukkitLastPlayed: number | null;
}

/** The player file is not valid NBT. */
export class NbtFormatError extends Error {
  override readonly name = 'NbtFormatError';
}

const END = 0;
const BYTE = 1;
const SHORT = 2;
const INT = 3;
const LONG = 4;
const FLOAT = 5;
const DOUBLE = 6;
const BYTE_ARRAY = 7;
const STRING = 8;
const LIST = 9;
const COMPOUND = 10;
const INT_ARRAY = 11;
const LONG_ARRAY = 12;
const MAX_ARRAY = 0xffffff;

/** A numeric tag's value, or null for a tag that is not one of long, int, short, double, float. */
type Numeric = number | null;

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  private need(bytes: number): void {
    if (this.pos + bytes > this.buf.length) throw new NbtFormatError('unexpected end of NBT data');
  }

  i8(): number {
    this.need(1);
    return this.buf.readInt8(this.pos++);
  }

  i32(): number {
    this.need(4);
    const value = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return value;
  }

  /** Reads a tag name; returns it decoded only when `decode` is set (names are compared as text). */
  name(decode: boolean): string {
    this.need(2);
    const length = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    this.need(length);
    const start = this.pos;
    this.pos += length;
    // prismarine-nbt rejects a name holding NUL ("unexpected tag end").
    for (let i = start; i < this.pos; i++) if (this.buf[i] === 0) throw new NbtFormatError('unexpected tag end');
    return decode ? this.buf.toString('utf8', start, this.pos) : '';
  }

  private count(): number {
    const count = this.i32();
    if (count > MAX_ARRAY) throw new NbtFormatError(`array size is abnormally large, not reading: ${count}`);
    return Math.max(count, 0);
  }

  /** Skips the payload of a tag of `type`. */
  skip(type: number): void {
    switch (type) {
      case BYTE:
        this.need(1);
        this.pos += 1;
        return;
      case SHORT:
        this.need(2);
        this.pos += 2;
        return;
      case INT:
      case FLOAT:
        this.need(4);
        this.pos += 4;
        return;
      case LONG:
      case DOUBLE:
        this.need(8);
        this.pos += 8;
        return;
      case BYTE_ARRAY:
      case INT_ARRAY:
      case LONG_ARRAY: {
        const size = type === BYTE_ARRAY ? 1 : type === INT_ARRAY ? 4 : 8;
        const bytes = this.count() * size;
        this.need(bytes);
        this.pos += bytes;
        return;
      }
      case STRING: {
        this.need(2);
        const length = this.buf.readUInt16BE(this.pos);
        this.pos += 2;
        this.need(length);
        this.pos += length;
        return;
      }
      case LIST: {
        const elementType = this.i8();
        const count = this.count();
        for (let i = 0; i < count; i++) {
          const before = this.pos;
          this.skip(elementType);
          // Elements without payload (end, unknown types): the rest are the same.
          if (this.pos === before) return;
        }
        return;
      }
      case COMPOUND:
        this.compound(null);
        return;
      default:
        // END and unknown types carry no payload.
        return;
    }
  }

  /** Reads a numeric payload of `type`, or skips it and returns null. */
  numeric(type: number): Numeric {
    switch (type) {
      case SHORT: {
        this.need(2);
        const value = this.buf.readInt16BE(this.pos);
        this.pos += 2;
        return value;
      }
      case INT:
        return this.i32();
      case FLOAT: {
        this.need(4);
        const value = this.buf.readFloatBE(this.pos);
        this.pos += 4;
        return value;
      }
      case LONG: {
        this.need(8);
        const hi = this.buf.readInt32BE(this.pos);
        const lo = this.buf.readUInt32BE(this.pos + 4);
        this.pos += 8;
        // Exact as Number(BigInt(hi) << 32n | BigInt(lo)): hi * 2^32 is exact, the sum rounds once.
        return hi * 4294967296 + lo;
      }
      case DOUBLE: {
        this.need(8);
        const value = this.buf.readDoubleBE(this.pos);
        this.pos += 8;
        return value;
      }
      default:
        this.skip(type);
        return null;
    }
  }

  /**
   * Reads the entries of a compound up to its end tag (or the end of the data). For each entry whose name is
   * in `visit`, calls it with the tag type, positioned at the payload; it must consume the payload.
   */
  compound(visit: ((name: string, type: number) => boolean) | null): void {
    while (this.pos !== this.buf.length) {
      const type = this.i8();
      if (type === END) return;
      if (type > 20) throw new NbtFormatError(`Invalid tag: ${type} > 20`);
      const name = this.name(visit !== null);
      if (visit === null || !visit(name, type)) this.skip(type);
    }
  }
}

function epochMillis(value: Numeric): number | null {
  return value !== null && Number.isFinite(value) && value > 0 ? value : null;
}

/** Extracts the login times from uncompressed big-endian NBT. Throws {@link NbtFormatError} when invalid. */
export function readPlayerTimes(data: Buffer): PlayerFileTimes {
  const reader = new Reader(data);
  let paperLastLogin: Numeric = null;
  let paperLastSeen: Numeric = null;
  let bukkitLastPlayed: Numeric = null;
  const rootType = reader.i8();
  reader.name(false);
  if (rootType !== COMPOUND) {
    reader.skip(rootType);
    return { paperLastLogin: null, paperLastSeen: null, bukkitLastPlayed: null };
  }
  // A later entry of the same name replaces an earlier one, as in prismarine-nbt's compound object.
  reader.compound((name, type) => {
    if (name === 'Paper') {
      paperLastLogin = null;
      paperLastSeen = null;
      if (type !== COMPOUND) return false;
      reader.compound((key, keyType) => {
        if (key === 'LastLogin') paperLastLogin = reader.numeric(keyType);
        else if (key === 'LastSeen') paperLastSeen = reader.numeric(keyType);
        else return false;
        return true;
      });
      return true;
    }
    if (name === 'bukkit') {
      bukkitLastPlayed = null;
      if (type !== COMPOUND) return false;
      reader.compound((key, keyType) => {
        if (key !== 'lastPlayed') return false;
        bukkitLastPlayed = reader.numeric(keyType);
        return true;
      });
      return true;
    }
    return false;
  });
  return {
    paperLastLogin: epochMillis(paperLastLogin),
    paperLastSeen: epochMillis(paperLastSeen),
    bukkitLastPlayed: epochMillis(bukkitLastPlayed),
  };
}

function gunzipAsync(data: Buffer): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    gunzip(data, (error, out) => (error ? reject(error) : resolve(out)));
  });
}

/** Parses a player file (gzip or uncompressed NBT) and extracts its login times. */
export async function parsePlayerFile(data: Buffer): Promise<PlayerFileTimes> {
  const raw = data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b ? await gunzipAsync(data) : data;
  return readPlayerTimes(raw);
}
