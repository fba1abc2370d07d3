import fc from 'fast-check';
import nbt from 'prismarine-nbt';
import { describe, expect, it } from 'vitest';
import { NbtFormatError, readPlayerTimes } from './player-data.ts';

// Our reader must agree with prismarine-nbt (the reference NBT library) on every file: the same times for
// files it writes, and the same accept/reject decision on damaged ones.

type Tag = nbt.Tags[nbt.TagType];

const ms = fc.integer({ min: 1, max: 4_102_444_800_000 }); // up to 2100
const long = (v: number): nbt.Long => ({ type: 'long', value: [Math.floor(v / 2 ** 32), (v % 2 ** 32) | 0] });

const leaf: fc.Arbitrary<Tag> = fc.oneof(
  fc.integer({ min: -128, max: 127 }).map((v): Tag => ({ type: 'byte', value: v })),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((v): Tag => ({ type: 'int', value: v })),
  fc.string({ maxLength: 20 }).map((v): Tag => ({ type: 'string', value: v })),
  fc.double({ noNaN: true }).map((v): Tag => ({ type: 'double', value: v })),
  ms.map((v): Tag => long(v)),
  fc.array(fc.integer({ min: -128, max: 127 }), { maxLength: 8 }).map((v): Tag => ({ type: 'byteArray', value: v })),
);
const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000'));
const extras = fc.dictionary(name, leaf, { maxKeys: 6 });

/** A player file: random other tags, and Paper/bukkit compounds that may hold the times. */
const playerFile = fc.record({
  other: extras,
  paper: fc.option(fc.record({ login: fc.option(ms), seen: fc.option(ms), more: extras })),
  bukkit: fc.option(fc.record({ played: fc.option(ms), more: extras })),
});

function build(f: {
  other: Record<string, Tag>;
  paper: { login: number | null; seen: number | null; more: Record<string, Tag> } | null;
  bukkit: { played: number | null; more: Record<string, Tag> } | null;
}): Buffer {
  const value: Record<string, Tag> = { ...f.other };
  delete value.Paper;
  delete value.bukkit;
  if (f.paper) {
    const p: Record<string, Tag> = { ...f.paper.more };
    delete p.LastLogin;
    delete p.LastSeen;
    if (f.paper.login !== null) p.LastLogin = long(f.paper.login);
    if (f.paper.seen !== null) p.LastSeen = long(f.paper.seen);
    value.Paper = { type: 'compound', value: p } as Tag;
  }
  if (f.bukkit) {
    const b: Record<string, Tag> = { ...f.bukkit.more };
    delete b.lastPlayed;
    if (f.bukkit.played !== null) b.lastPlayed = long(f.bukkit.played);
    value.bukkit = { type: 'compound', value: b } as Tag;
  }
  return nbt.writeUncompressed({ type: 'compound', name: '', value } as nbt.NBT);
}

/** The times as prismarine-nbt reads them, or 'error'. */
function reference(data: Buffer): { login: number | null; seen: number | null; played: number | null } | 'error' {
  let parsed: nbt.NBT;
  try {
    parsed = nbt.parseUncompressed(data, 'big');
  } catch {
    return 'error';
  }
  // A root that is not a compound (e.g. a lone TAG_End) holds no times.
  if (parsed.type !== 'compound') return { login: null, seen: null, played: null };
  const root = nbt.simplify(parsed) as Record<string, unknown>;
  const asMs = (v: unknown): number | null => {
    if (Array.isArray(v) && v.length === 2) {
      const n = Number(v[0]) * 2 ** 32 + (Number(v[1]) >>> 0);
      return n > 0 ? n : null;
    }
    return null;
  };
  const paper = (root.Paper ?? {}) as Record<string, unknown>;
  const bukkit = (root.bukkit ?? {}) as Record<string, unknown>;
  return { login: asMs(paper.LastLogin), seen: asMs(paper.LastSeen), played: asMs(bukkit.lastPlayed) };
}

function ours(data: Buffer): { login: number | null; seen: number | null; played: number | null } | 'error' {
  try {
    const t = readPlayerTimes(data);
    return { login: t.paperLastLogin, seen: t.paperLastSeen, played: t.bukkitLastPlayed };
  } catch (err) {
    if (err instanceof NbtFormatError || err instanceof RangeError) return 'error';
    throw err;
  }
}

describe('the player-file reader agrees with prismarine-nbt', () => {
  it('reads the same Paper and bukkit times from files prismarine-nbt writes', () => {
    fc.assert(
      fc.property(playerFile, (f) => {
        const data = build(f);
        expect(ours(data)).toEqual(reference(data));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts and rejects the same truncated or damaged files', () => {
    fc.assert(
      fc.property(
        playerFile,
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        (f, cut, flips) => {
          const full = build(f);
          const data = Buffer.from(full.subarray(0, full.length === 0 ? 0 : cut % (full.length + 1)));
          for (const [at, byte] of flips) if (data.length > 0) data[at % data.length] = byte;
          const expected = reference(data);
          const actual = ours(data);
          if (expected === 'error') expect(actual).toBe('error');
          else expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});
