/**
 * Player data files (`<uuid>.dat`, gzip-compressed NBT): the `Paper` and `bukkit` login times.
 * @packageDocumentation
 */
import nbt from 'prismarine-nbt';

/** Times stored in a player file, in epoch milliseconds; null when absent. */
export interface PlayerFileTimes {
  /** `Paper.LastLogin`. */
  readonly paperLastLogin: number | null;
  /** `Paper.LastSeen`. */
  readonly paperLastSeen: number | null;
  /** `bukkit.lastPlayed`. */
  readonly bukkitLastPlayed: number | null;
}

type Tag = nbt.Tags[nbt.TagType];

function child(tag: Tag | undefined, name: string): Tag | undefined {
  if (tag?.type !== 'compound') return undefined;
  return (tag as nbt.Compound).value[name];
}

/** Reads a long (`[hi, lo]` int32 pair) or smaller integer tag as a positive millisecond count. */
function epochMillis(tag: Tag | undefined): number | null {
  if (!tag) return null;
  let value: number | null = null;
  if (tag.type === 'long') {
    const [hi, lo] = (tag as nbt.Long).value;
    value = Number((BigInt(hi) << 32n) | BigInt(lo >>> 0));
  } else if (tag.type === 'int' || tag.type === 'short' || tag.type === 'double' || tag.type === 'float') {
    value = (tag as nbt.Int).value;
  }
  return value !== null && Number.isFinite(value) && value > 0 ? value : null;
}

/** Parses a player file (gzip or uncompressed NBT) and extracts its login times. */
export async function parsePlayerFile(data: Buffer): Promise<PlayerFileTimes> {
  const { parsed } = await nbt.parse(data, 'big');
  const paper = child(parsed, 'Paper');
  const bukkit = child(parsed, 'bukkit');
  return {
    paperLastLogin: epochMillis(child(paper, 'LastLogin')),
    paperLastSeen: epochMillis(child(paper, 'LastSeen')),
    bukkitLastPlayed: epochMillis(child(bukkit, 'lastPlayed')),
  };
}
