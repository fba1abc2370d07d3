import type { Change, ValueMoves } from '#src/cache/bus.ts';
import type { Changes } from '#src/cache/changes.ts';
import { RANK_BOARD_BYTES_PER_ENTRY } from '#src/config.ts';
import type { Db } from '#src/db/types.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import type { CacheMeter } from '#src/metrics/metrics.ts';
import { COMPACT_FIXED_BYTES, CompactBoard } from './compact-board.ts';
import { type BoardEntry, RankBoard } from './rank-board.ts';
import * as repo from './repo.ts';

/** Changed players re-read and moved one by one at most; more make the board be read again whole. */
const MAX_MOVES = 2_000;

/** A board larger than the whole budget is not counted again for this long (its reads are queries meanwhile). */
const OVERSIZE_RECHECK_MS = 60_000;

/** Boards read within this long are not pushed out for another one: it waits (its reads are queries meanwhile). */
const RECENT_MS = 30_000;

/** A board refused for want of room is not tried again for this long. */
const NO_ROOM_RECHECK_MS = 5_000;

/** Boards whose size `isSmall` keeps at most (more: it forgets them all and counts again). */
const MAX_COUNTED = 10_000;

/** Which board: a statistic (by definition id, with its order) in a season of a workspace, network-wide or one server's. */
export interface BoardRef {
  workspaceId: string;
  seasonId: string;
  statId: string;
  order: 'asc' | 'desc';
  /** One server's board (its values in `server_stats`); absent or null: the network totals. */
  serverId?: string | null;
  /** What the board ranks: the values (absent: `value`), or the gains of a season that counts them. */
  column?: repo.Column;
}

/** The key of a season's network boards of one column, in `slottedStats`. */
function groupKey(workspaceId: string, seasonId: string, column: repo.Column): string {
  return `${workspaceId}|${seasonId}|${column}`;
}

/** No statistics (what `slotted` answers for a season and column with no board). */
export const NO_STATS: ReadonlySet<string> = new Set();

/** No statistics counted large (what `countedLarge` answers for a season and column with none). */
const NO_COUNTS: ReadonlyMap<string, number> = new Map();

/** A board's key among the slots. */
function slotKey(ref: BoardRef): string {
  return `${ref.workspaceId}|${ref.seasonId}|${ref.statId}${ref.serverId ? `|${ref.serverId}` : ''}${ref.column === 'gain' ? '|gain' : ''}`;
}

/** A board held in memory: full entries, or only the counts of its values (see CompactBoard). */
export type HeldBoard = RankBoard | CompactBoard;

interface Slot {
  ref: BoardRef;
  /** Set once loaded. */
  board: HeldBoard | null;
  /** The load in progress, if any. */
  loading: Promise<HeldBoard | null> | null;
  /** The load in progress is reading (not waiting its turn behind other boards' loads). */
  reading: boolean;
  /** Players whose value changed since the board (or its last refresh) was read from the database. */
  dirty: Set<string>;
  /** Anything may have changed (visibility, order): read the whole board again. */
  stale: boolean;
  /** The refresh of dirty players in progress, if any. */
  refreshing: Promise<void> | null;
  /** Until when the board is not to be loaded (too large for the budget, or no room): epoch ms, 0 for none. */
  queryUntil: number;
  /** When the board was last read (epoch ms). */
  readAt: number;
  /** A compact board is held or being read: this process's writes report the board's changed values. */
  compact: boolean;
  /** The snapshot a compact board was read in: a write it saw is not applied again. */
  seen: Snapshot | null;
  /** Changed values that came while a compact board was read (applied once it is, unless it saw them). */
  pending: ValueMoves[];
  /** A change that came while a compact board was read does not tell its values: read it again. */
  lost: boolean;
}

/** Changes of values buffered while a compact board is read, at most (more: it is read again). */
const MAX_PENDING = 1_000;

/**
 * Rank boards kept in memory while they are read, within a budget of bytes: full boards (each entry with its
 * player's id and name, within a budget of entries too) and, for boards too large for that, compact boards
 * (the counts of the board's values only, see CompactBoard). A board not in memory is answered by a query
 * (`board` gives null) while it is loaded in the background, and only when it fits: its size is counted first
 * (up to the budget of entries), a board larger than the whole budget is never loaded, and room is made only from
 * boards not read in the last RECENT_MS (least recently read first), so that many boards read in turn do not
 * push each other out and read whole boards again and again. The budget holds whatever the number of players or
 * statistics. A board is read from the database once; afterwards, for a full board, the players a change names
 * (new values, a rename, a visibility change) are re-read (one query for all of them, at the next read), and a
 * change that names no players (a definition's order) makes it read again whole. A compact board takes the
 * changed values that this instance's writes tell (`ValueMoves`: old value out, new value in) and is read again
 * after any other change of its values or of visibility. Changes come through the change bus, from this
 * instance at its commits and from the others by NOTIFY; while the bus is unhealthy no board is trusted.
 */
export class BoardCache {
  private readonly slots = new Map<string, Slot>();
  /** What `isSmall` counted, by board: whether it is small (or the count in progress), until when that holds. */
  private readonly counted = new Map<string, { small: Maybe<boolean>; until: number }>();
  /** `countedLarge`'s statistics, by `workspace|season|column`. */
  private readonly largeStats = new Map<string, Map<string, number>>();
  /**
   * The statistics (ids) with a slot among the network boards, by `workspace|season|column` (see `slotted`): a
   * board not among them is not held, and a page need not look for it.
   */
  private readonly slottedStats = new Map<string, Set<string>>();
  private readonly caching: boolean;
  private readonly meter: CacheMeter | null;
  /**
   * Boards are loaded one at a time: each reads a whole board (a compact board's bytes are held while they are
   * parsed), and the first reads of many boards must not take every connection of the pool at once.
   */
  private loads: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    /** Entries of full boards held at most, summed over boards (RANK_CACHE_MB / RANK_BOARD_BYTES_PER_ENTRY). */
    private readonly maxEntries: number,
    /**
     * Bytes held at most, summed over every board: a full board counts RANK_BOARD_BYTES_PER_ENTRY per entry, a
     * compact board its arrays (RANK_CACHE_MB).
     */
    private readonly maxBytes: number = maxEntries * RANK_BOARD_BYTES_PER_ENTRY,
  ) {
    this.caching = changes.caching && (maxEntries > 0 || maxBytes >= COMPACT_FIXED_BYTES);
    this.meter = this.caching ? changes.meter('rank_board') : null;
    changes.onChange((c) => this.forget(c));
    if (this.caching) changes.bus.wantDetail(() => this.compactStats());
  }

  /**
   * The statistics (ids) whose network board of the season's `column` has a slot (loaded, loading or stale): every
   * board `ready` may return is among them. Empty when none.
   */
  slotted(workspaceId: string, seasonId: string, column: repo.Column): ReadonlySet<string> {
    return this.slottedStats.get(groupKey(workspaceId, seasonId, column)) ?? NO_STATS;
  }

  /**
   * The statistics (ids) whose network boards of a season and column `isSmall` last counted large, each with until
   * when that holds (epoch ms): a page need not ask again before then.
   */
  countedLarge(workspaceId: string, seasonId: string, column: repo.Column): ReadonlyMap<string, number> {
    return this.largeStats.get(groupKey(workspaceId, seasonId, column)) ?? NO_COUNTS;
  }

  /**
   * The board at once when it is loaded and current (nothing to re-read), else undefined: `board` then gets it.
   * What lets a rank be answered on the fast path without a promise.
   */
  ready(ref: BoardRef): HeldBoard | undefined {
    if (!this.caching || !this.changes.bus.healthy) return undefined;
    const key = slotKey(ref);
    const slot = this.slots.get(key);
    if (!slot?.board || slot.stale || slot.loading || slot.refreshing || slot.dirty.size > 0) return undefined;
    if (slot.board instanceof CompactBoard && slot.board.broken) return undefined;
    if (slot.ref.order !== ref.order) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    slot.readAt = Date.now();
    this.meter?.hit();
    return slot.board;
  }

  /**
   * The current board, refreshed as needed; null when it is not held in memory (no budget, the change bus
   * unhealthy, too large, no room, or still loading): then the caller answers with a query.
   */
  async board(ref: BoardRef): Promise<HeldBoard | null> {
    if (!this.caching) return null;
    if (!this.changes.bus.healthy) {
      this.meter?.miss();
      return null;
    }
    const key = slotKey(ref);
    const now = Date.now();
    let slot = this.slots.get(key);
    if (slot && slot.ref.order !== ref.order) slot.stale = true;
    if (!slot) {
      slot = {
        ref,
        board: null,
        loading: null,
        reading: false,
        dirty: new Set(),
        stale: true,
        refreshing: null,
        queryUntil: 0,
        readAt: now,
        compact: false,
        seen: null,
        pending: [],
        lost: false,
      };
      this.slots.set(key, slot);
      this.noteSlot(ref, true);
    } else {
      // Most recently read last: the map's order is the eviction order.
      this.slots.delete(key);
      this.slots.set(key, slot);
      slot.readAt = now;
    }
    if (slot.board instanceof CompactBoard && slot.board.broken) slot.stale = true;
    if (slot.loading || slot.stale || !slot.board) {
      // Not in memory: a miss, answered by a query; the board is loaded in the background if it may be.
      this.meter?.miss();
      if (!slot.loading && slot.queryUntil <= now) this.loadInBackground(key, slot, ref);
      return null;
    }
    // Held in memory, brought up to date below with only the players that changed: a hit.
    this.meter?.hit();
    const board = slot.board;
    // A compact board follows its changes as they come (or is stale).
    if (board instanceof CompactBoard) return board;
    // A refresh under way may have taken players marked before this read: wait for it, then refresh what is left.
    if (slot.refreshing) await slot.refreshing;
    // Many players changed since the last read (a busy board read rarely): reading it whole is cheaper than
    // moving each of them in the sorted array.
    if (slot.dirty.size > Math.max(MAX_MOVES, board.size / 8) && !slot.loading) {
      slot.stale = true;
      this.loadInBackground(key, slot, ref);
      return null;
    }
    if (slot.loading) return null;
    if (slot.dirty.size > 0) {
      const refreshing = this.refresh(key, slot, board).finally(() => {
        if (slot.refreshing === refreshing) slot.refreshing = null;
      });
      slot.refreshing = refreshing;
      await refreshing;
    }
    return slot.board === board ? board : null;
  }

  /**
   * Whether `board` is still the current compact board of `ref`: what a reader checks after its query, so that
   * counts from memory and rows from the database are of the same values (else it answers with one statement).
   */
  current(ref: BoardRef, board: CompactBoard, version: number): boolean {
    const slot = this.slots.get(slotKey(ref));
    return (
      this.changes.bus.healthy &&
      slot?.board === board &&
      !slot.stale &&
      !slot.loading &&
      !board.broken &&
      board.version === version
    );
  }

  /**
   * Whether `ref`'s board is being read and is done within `ms`: a reader may wait for it rather than send a query
   * that costs the database more than the read (then it asks `board` again). A board still waiting its turn
   * behind others (after a start, many are) is not waited for: its readers would wait out the whole `ms`.
   */
  async loadedWithin(
    ref: BoardRef,
    ms: number,
    /** Wait for it even while it waits its turn (a reader that would otherwise not answer at all). */
    queued = false,
  ): Promise<boolean> {
    const slot = this.slots.get(slotKey(ref));
    const loading = slot?.reading || queued ? (slot?.loading ?? null) : null;
    if (!loading) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([
        loading.then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether `ref`'s board is to be held in memory (once read): the cache has a budget, the change bus is healthy and
   * the board was not found too large or without room lately. When not, its readers answer with queries.
   */
  mayHold(ref: BoardRef): boolean {
    return this.mayHoldSlot(this.slots.get(slotKey(ref)), Date.now());
  }

  /** `mayHold` of a board whose slot (if any) is `slot`. */
  private mayHoldSlot(slot: Slot | undefined, now: number): boolean {
    if (!this.caching || !this.changes.bus.healthy) return false;
    return !slot || slot.queryUntil <= now;
  }

  /**
   * Whether `ref`'s board is small: one to hold with its full entries (at most the budget of entries), which a page
   * may have read for a rank it shows (see `LeaderboardService.pageRank`). Its size is counted up to that budget
   * (the query `loadWithin` starts with) at most once per OVERSIZE_RECHECK_MS, one count at a time per board;
   * false while boards are not held, or when the count fails.
   */
  isSmall(ref: BoardRef): Maybe<boolean> {
    const key = slotKey(ref);
    const slot = this.slots.get(key);
    const now = Date.now();
    if (!this.mayHoldSlot(slot, now)) return false;
    if (slot?.board instanceof RankBoard) return true;
    const known = this.counted.get(key);
    if (known !== undefined && known.until > now) return known.small;
    if (this.counted.size >= MAX_COUNTED) this.counted.clear();
    const until = now + OVERSIZE_RECHECK_MS;
    const entry: { small: Maybe<boolean>; until: number } = {
      small: repo
        .boardSizeUpTo(this.db, { ...ref, cap: this.maxEntries + 1 })
        .then((size) => size <= this.maxEntries)
        .catch(() => false)
        .then((small) => {
          entry.small = small;
          if (!ref.serverId) this.noteLarge(ref, small ? 0 : until);
          return small;
        }),
      until,
    };
    this.counted.set(key, entry);
    return entry.small;
  }

  /** Keeps `countedLarge` with the counts: `ref`'s network board large until `until` (0: not large). */
  private noteLarge(ref: BoardRef, until: number): void {
    const group = groupKey(ref.workspaceId, ref.seasonId, ref.column ?? 'value');
    let stats = this.largeStats.get(group);
    if (until === 0) {
      stats?.delete(ref.statId);
      return;
    }
    if (stats === undefined) {
      if (this.largeStats.size >= MAX_COUNTED) this.largeStats.clear();
      stats = new Map();
      this.largeStats.set(group, stats);
    }
    stats.set(ref.statId, until);
  }

  /** Starts reading the whole board (its failure only leaves it to a later read). */
  private loadInBackground(key: string, slot: Slot, ref: BoardRef): void {
    this.reload(key, slot, ref).catch(() => undefined);
  }

  private reload(key: string, slot: Slot, ref: BoardRef): Promise<HeldBoard | null> {
    slot.stale = false;
    slot.dirty.clear();
    slot.pending = [];
    slot.lost = false;
    slot.ref = ref;
    slot.reading = false;
    const queued = this.loads.then(() => {
      slot.reading = true;
      return this.loadWithin(key, slot, ref);
    });
    this.loads = queued.catch(() => undefined);
    const loading = queued.then(
      (loaded) => {
        if (slot.loading === loading) slot.loading = null;
        if (typeof loaded === 'string') {
          // Not to be held: drop what it held; its reads are queries for a while.
          slot.board = null;
          slot.compact = false;
          slot.stale = true;
          slot.queryUntil = Date.now() + (loaded === 'too large' ? OVERSIZE_RECHECK_MS : NO_ROOM_RECHECK_MS);
          return null;
        }
        slot.queryUntil = 0;
        slot.compact = loaded instanceof CompactBoard;
        if (loaded instanceof CompactBoard) {
          // Values that changed while it was read: applied unless the read saw them; a change that does not tell
          // them makes it read again.
          slot.dirty.clear();
          if (slot.lost) slot.stale = true;
          else for (const m of slot.pending) this.apply(slot, loaded, m);
          slot.pending = [];
        }
        if (this.slots.get(key) === slot) {
          slot.board = loaded;
          this.evict(key);
        }
        return loaded;
      },
      (err: unknown) => {
        if (slot.loading === loading) slot.loading = null;
        slot.stale = true;
        slot.compact = slot.board instanceof CompactBoard;
        throw err;
      },
    );
    slot.loading = loading;
    return loading;
  }

  /** Re-reads the players marked dirty (those marked while this runs wait for the next read). */
  private async refresh(key: string, slot: Slot, board: RankBoard): Promise<void> {
    const players = [...slot.dirty];
    slot.dirty.clear();
    try {
      const rows = await repo.boardEntries(this.db, { ...slot.ref, onlyUuids: players });
      for (const uuid of players) board.delete(uuid);
      for (const r of rows) board.set(boardEntry(r));
      if (this.slots.get(key) === slot && slot.board === board) {
        // Grown past the whole budget: let it go; its reads are queries until it is counted again.
        if (board.size > this.maxEntries) {
          slot.board = null;
          slot.stale = true;
          slot.queryUntil = Date.now() + OVERSIZE_RECHECK_MS;
        }
      }
    } catch (err) {
      for (const p of players) slot.dirty.add(p);
      throw err;
    }
  }

  /**
   * The board read whole: as full entries when it fits the budget of entries and bytes beside the boards read in
   * the last RECENT_MS (its size counted first, up to the budget of entries), else as a compact board when that
   * fits; 'too large' when it fits neither the whole budget, 'no room' when it would only fit by pushing out
   * boards read in the last RECENT_MS.
   */
  private async loadWithin(key: string, slot: Slot, ref: BoardRef): Promise<HeldBoard | 'too large' | 'no room'> {
    const size = await repo.boardSizeUpTo(this.db, { ...ref, cap: this.maxEntries + 1 });
    const kept = this.held(key, Date.now() - RECENT_MS);
    if (size <= this.maxEntries) {
      const bytes = size * RANK_BOARD_BYTES_PER_ENTRY;
      if (kept.entries + size <= this.maxEntries && kept.bytes + bytes <= this.maxBytes) {
        const rows = await repo.boardEntries(this.db, { ...ref, onlyUuids: null });
        return new RankBoard(ref.order, rows.map(boardEntry));
      }
    }
    if (this.maxBytes < COMPACT_FIXED_BYTES) return size > this.maxEntries ? 'too large' : 'no room';
    // From now on this process's writes report the board's changed values (those before the read are in it).
    slot.compact = true;
    const board = await this.loadCompact(slot, ref);
    if (board.bytes > this.maxBytes) return 'too large';
    if (this.held(key, Date.now() - RECENT_MS).bytes + board.bytes > this.maxBytes) return 'no room';
    return board;
  }

  /** A compact board: its values' runs in one row, less the hidden players' values (which it keeps apart). */
  private async loadCompact(slot: Slot, ref: BoardRef): Promise<CompactBoard> {
    const runs = await repo.boardRuns(this.db, ref);
    const board = new CompactBoard(ref.order, runs.values, runs.counts);
    for (const [player, v, at] of runs.hidden) {
      board.move(v, null);
      board.hide(player, v, at);
    }
    slot.seen = parseSnapshot(runs.snapshot);
    return board;
  }

  /** Applies a write's changed values to a compact board, unless the board was read after the write committed. */
  private apply(slot: Slot, board: CompactBoard, m: ValueMoves): void {
    if (slot.seen && visible(slot.seen, m.xid)) return;
    const server = slot.ref.serverId ?? null;
    const gains = slot.ref.column === 'gain';
    for (const [season, stat, valueFrom, valueTo, hiddenPlayer, at, serverId, gainFrom, gainTo] of m.rows) {
      if (season !== slot.ref.seasonId || stat !== slot.ref.statId || (serverId ?? null) !== server) continue;
      const from = gains ? (gainFrom ?? null) : valueFrom;
      const to = gains ? gainTo! : valueTo;
      if (hiddenPlayer === null) board.move(from, to);
      else board.hide(hiddenPlayer, to, at!);
    }
  }

  /** Statistics of the compact boards held or being read: this process's writes report their changed values. */
  private *compactStats(): Iterable<string> {
    for (const slot of this.slots.values()) if (slot.compact) yield slot.ref.statId;
  }

  /** Entries (of full boards) and bytes held by the boards other than `except` read since `since` (epoch ms). */
  private held(except: string | null, since = 0): { entries: number; bytes: number } {
    let entries = 0;
    let bytes = 0;
    for (const [k, slot] of this.slots) {
      if (k === except || slot.readAt < since || !slot.board) continue;
      if (slot.board instanceof RankBoard) {
        entries += slot.board.size;
        bytes += slot.board.size * RANK_BOARD_BYTES_PER_ENTRY;
      } else bytes += slot.board.bytes;
    }
    return { entries, bytes };
  }

  /** Drops the least recently read boards beyond the budget (never `keep`, the one just loaded). */
  private evict(keep: string): void {
    const total = this.held(null);
    for (const [key, slot] of this.slots) {
      if (total.entries <= this.maxEntries && total.bytes <= this.maxBytes) return;
      if (key === keep || slot.loading) continue;
      if (slot.board instanceof RankBoard) {
        total.entries -= slot.board.size;
        total.bytes -= slot.board.size * RANK_BOARD_BYTES_PER_ENTRY;
      } else if (slot.board) total.bytes -= slot.board.bytes;
      this.slots.delete(key);
      this.noteSlot(slot.ref, false);
    }
  }

  /** Keeps `slottedStats` with the slots: a network board's slot made (`made`) or dropped. */
  private noteSlot(ref: BoardRef, made: boolean): void {
    if (ref.serverId) return;
    const group = groupKey(ref.workspaceId, ref.seasonId, ref.column ?? 'value');
    let stats = this.slottedStats.get(group);
    if (made) {
      if (stats === undefined) {
        stats = new Set();
        this.slottedStats.set(group, stats);
      }
      stats.add(ref.statId);
    } else if (stats?.delete(ref.statId) && stats.size === 0) {
      this.slottedStats.delete(group);
    }
  }

  private forget(c: Change | null): void {
    if (c === null) {
      this.slots.clear();
      this.slottedStats.clear();
      return;
    }
    if (c.topic === 'key' || c.topic === 'server' || c.topic === 'roster' || c.topic === 'session') return;
    for (const slot of this.slots.values()) {
      if (c.workspaceId !== slot.ref.workspaceId) continue;
      // Not in memory nor on its way: nothing to correct (and no set of players to grow).
      if (!slot.board && !slot.loading) continue;
      if (slot.compact && touches(c, slot.ref)) {
        // A compact board follows the changed values a change of this process tells; any other change of its
        // values makes it read again.
        const moves = c.topic === 'values' && c.moves?.stats.includes(slot.ref.statId) ? c.moves : null;
        if (slot.loading) {
          if (moves && slot.pending.length < MAX_PENDING) slot.pending.push(moves);
          else slot.lost = true;
        } else if (slot.board instanceof CompactBoard && moves) this.apply(slot, slot.board, moves);
        else slot.stale = true;
      }
      if (slot.board instanceof CompactBoard && !slot.loading) continue;
      if (c.topic === 'values' && c.pairs && c.players) {
        if (c.pairs.some(([season, stat]) => season === slot.ref.seasonId && stat === slot.ref.statId)) {
          for (const p of c.players) slot.dirty.add(p);
        }
      } else if (c.topic === 'player' && c.players) {
        // Renamed or shown/hidden: re-read on the next read (the refresh reads names and visibility too).
        for (const p of c.players) slot.dirty.add(p);
      } else {
        slot.stale = true;
      }
    }
  }
}

/**
 * Whether a change may change the counts of a compact board: its values (or any of the workspace's), a player's
 * visibility (a rename only is not), a definition's order, a season.
 */
function touches(c: Change, ref: BoardRef): boolean {
  if (
    c.topic === 'key' ||
    c.topic === 'server' ||
    c.topic === 'roster' ||
    c.topic === 'webhook' ||
    c.topic === 'site' ||
    c.topic === 'session'
  )
    return false;
  if (c.workspaceId !== ref.workspaceId) return false;
  if (c.topic === 'values' && c.pairs) return c.pairs.some(([s, t]) => s === ref.seasonId && t === ref.statId);
  if (c.topic === 'player' && c.nameOnly) return false;
  return true;
}

/** A snapshot's `pg_current_snapshot()`: which transactions it saw. */
interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  running: Set<bigint>;
}

/** `xmin:xmax:xip,…` (`pg_snapshot` as text). */
function parseSnapshot(text: string): Snapshot {
  const [xmin, xmax, xip] = text.split(':');
  return {
    xmin: BigInt(xmin!),
    xmax: BigInt(xmax!),
    running: new Set(xip ? xip.split(',').map((x) => BigInt(x)) : []),
  };
}

/** Whether the transaction `xid` had committed when the snapshot was taken (PostgreSQL's visibility rule). */
function visible(s: Snapshot, xid: string): boolean {
  const x = BigInt(xid);
  return x < s.xmin || (x < s.xmax && !s.running.has(x));
}

/** A row of `repo.boardEntries` as a board's entry. */
export function boardEntry(r: repo.BoardRow): BoardEntry {
  return { uuid: r.uuid, id: r.id, username: r.username, value: r.value, at: r.at, json: null };
}
