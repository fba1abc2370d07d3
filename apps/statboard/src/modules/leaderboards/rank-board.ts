/** One public value on a board, with its player (an entry is replaced, never changed, when any of it changes). */
export interface BoardEntry {
  /** Game UUID, lower case (compared as PostgreSQL compares uuids: bytewise, which is the hex text's order). */
  uuid: string;
  /** The player's row id and name. */
  id: string;
  username: string;
  value: number;
  /** `updated_at` in microseconds since the epoch: the database's precision, so ties break as its ORDER BY does. */
  at: number;
  /** The entry's JSON after its rank (`"player":{…},"value":…,"updated_at":"…"}`), made at its first read. */
  json: string | null;
}

/** `"player":{…},"value":…,"updated_at":"…"}`: an answer's entry without its leading `{"rank":N,`. */
export function entryTail(e: BoardEntry): string {
  e.json ??=
    `"player":${JSON.stringify({ id: e.id, uuid: e.uuid, username: e.username, public: true })},` +
    `"value":${JSON.stringify(e.value)},"updated_at":"${new Date(Math.floor(e.at / 1000)).toISOString()}"}`;
  return e.json;
}

/**
 * Every public value of one statistic in one season, in leaderboard order (the definition's order, then the
 * earlier `updated_at`, then the lower UUID: exactly `/leaderboards`' ORDER BY), with the position of each player.
 * A rank is a binary search, a change an insertion: costs grow with log n (and a memmove), not with n.
 */
export class RankBoard {
  private readonly entries: BoardEntry[];
  private readonly byUuid = new Map<string, BoardEntry>();
  private readonly desc: boolean;

  constructor(order: 'asc' | 'desc', entries: BoardEntry[]) {
    this.desc = order === 'desc';
    this.entries = entries.slice().sort((a, b) => this.compare(a, b));
    for (const e of this.entries) this.byUuid.set(e.uuid, e);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Negative when `a` ranks before `b`. */
  private compare(a: BoardEntry, b: BoardEntry): number {
    if (a.value !== b.value) return a.value < b.value === this.desc ? 1 : -1;
    if (a.at !== b.at) return a.at < b.at ? -1 : 1;
    return a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0;
  }

  /** The first position whose entry does not rank before `e`. */
  private lowerBound(e: BoardEntry): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.entries[mid]!, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The position of a player's entry, or -1. */
  indexOf(uuid: string): number {
    const e = this.byUuid.get(uuid);
    return e ? this.lowerBound(e) : -1;
  }

  /** Puts a player's current value in place (replacing its previous one). */
  set(e: BoardEntry): void {
    this.delete(e.uuid);
    this.entries.splice(this.lowerBound(e), 0, e);
    this.byUuid.set(e.uuid, e);
  }

  /** Takes a player off the board (no public value any more). */
  delete(uuid: string): void {
    const at = this.indexOf(uuid);
    if (at < 0) return;
    this.entries.splice(at, 1);
    this.byUuid.delete(uuid);
  }

  /**
   * The competition rank of the entry at `index` ("1224"): one more than the number of entries with a strictly
   * better value, i.e. the position of the first entry with the same value, plus one.
   */
  rankAt(index: number): number {
    const value = this.entries[index]!.value;
    let lo = 0;
    let hi = index;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.value === value) hi = mid;
      else lo = mid + 1;
    }
    return lo + 1;
  }

  /** Entries `from` (inclusive) to `to` (exclusive), clamped to the board, each with its rank. */
  slice(from: number, to: number): { entry: BoardEntry; rank: number }[] {
    const start = Math.max(0, from);
    const end = Math.min(this.entries.length, to);
    const out: { entry: BoardEntry; rank: number }[] = [];
    for (let i = start; i < end; i++) {
      const entry = this.entries[i]!;
      const prev = out.at(-1);
      // Within a slice, a rank follows from the previous one without another search.
      const rank = prev && prev.entry.value === entry.value ? prev.rank : prev ? i + 1 : this.rankAt(i);
      out.push({ entry, rank });
    }
    return out;
  }
}
