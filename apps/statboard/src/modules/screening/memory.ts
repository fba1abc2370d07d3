import type { Change, StoredValues } from '#src/cache/bus.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { CacheMeter } from '#src/metrics/metrics.ts';
import type { DefinitionFacts, LastValue, ScreeningContext } from './repo.ts';

/**
 * How long what was read of a player stays in memory at most: the safety net for a change that never reached the
 * bus (an edit straight in the database). Every other change drops or updates it at once. A steady uploader
 * (every 60 s) is read once per this long.
 */
export const MEMORY_TTL_MS = 10 * 60_000;
/** Players (per season and server) kept at most, and the bytes their facts may take (estimated). */
export const MEMORY_ENTRIES = 100_000;
export const MEMORY_BYTES = 64 * 1024 * 1024;
/** Statistic definitions kept per workspace at most (a workspace past it keeps none: each upload reads them). */
const DEFINITIONS_PER_WORKSPACE = 20_000;
/** Estimated bytes of an entry, and of each statistic's place in it (three doubles, and two for verified values). */
const ENTRY_BYTES = 300;
const SLOT_BYTES = 24;
const VERIFIED_SLOT_BYTES = 16;

/**
 * What screening knows of a player on a server in a season: every stored and verified value the player has there
 * (a read takes them all), in typed arrays indexed by the workspace's slot of each statistic (`Slots`): about 24
 * bytes a value, so that the players of a busy network fit (a `Map` of objects took ~150).
 */
interface Entry {
  workspaceId: string;
  /** `workspace|uuid`: the index of the player's entries (a change names players, not seasons or servers). */
  person: string;
  player: NonNullable<ScreeningContext['player']>;
  serverVerified: boolean;
  hasStored: boolean;
  /** Per slot: value, arrival (ms), observation (ms); NaN observation: no value. */
  last: Float64Array;
  /** Per slot: value, arrival (ms); NaN arrival: no verified value. Null: none at all. */
  verified: Float64Array | null;
  expires: number;
  size: number;
}

/** A workspace's statistics as the entries index them: definition id → slot, and the definitions by key. */
interface Workspace {
  slots: Map<string, number>;
  definitions: Map<string, DefinitionFacts>;
}

const emptyLast = (slots: number) => new Float64Array(Math.max(8, slots) * 3).fill(Number.NaN);
const emptyVerified = (slots: number) => new Float64Array(Math.max(8, slots) * 2).fill(Number.NaN);

/** `a` with room for `slot`, NaN-filled beyond what it held. */
function grown(a: Float64Array, slot: number, width: number): Float64Array {
  if ((slot + 1) * width <= a.length) return a;
  const b = new Float64Array(Math.max((slot + 1) * width, a.length * 2)).fill(Number.NaN);
  b.set(a);
  return b;
}

/** A read in flight: what it read is kept only if nothing changed what it covers meanwhile. */
interface Reading {
  key: string;
  workspaceId: string;
  person: string;
  spoiled: boolean;
}

/** Where the memory may be used: the change bus's health (caches are used only while it hears every change). */
interface Health {
  readonly healthy: boolean;
}

const keyOf = (workspaceId: string, seasonId: string, serverId: string, uuid: string) =>
  `${workspaceId}|${seasonId}|${serverId}|${uuid}`;

/**
 * What the screening stage read of players it saw (`screeningContext`), kept so that an upload of a known player
 * asks the database nothing: the player, the last stored value and time of every statistic it has on that server
 * (with the observation the writer compares with), its verified values, and the workspace's definitions.
 *
 * It follows the ingest writer of this process: a committed write's values (`stored` of its change) are applied
 * by the writer's own rule (the latest observation wins; `updated_at` moves only when the value changes), so the
 * next upload is judged as a read after the commit would judge it. Any other change of those facts drops them:
 * corrections and erasures, imports, renames, season and server changes, a write by another instance (its NOTIFY
 * names the players), a lost LISTEN connection (everything); in doubt, the workspace's entries. A read that a
 * change overtook is not kept. Bounded: least recently used first out.
 */
export class ScreeningMemory {
  /** Entries by `workspace|season|server|uuid`, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, Entry>();
  private readonly byPerson = new Map<string, Set<string>>();
  /** Per workspace: the statistics' slots, and the definitions by key (a key missing is read: it may be new). */
  private readonly workspaces = new Map<string, Workspace>();
  private readonly readings = new Set<Reading>();
  private bytes = 0;

  constructor(
    private readonly health: Health,
    private readonly meter: CacheMeter | null = null,
    private readonly now: () => number = Date.now,
    private readonly limits = { entries: MEMORY_ENTRIES, bytes: MEMORY_BYTES, ttlMs: MEMORY_TTL_MS },
  ) {}

  /** A memory that hears every change, or null where the service must not cache (built on a transaction). */
  static on(changes: Changes): ScreeningMemory | null {
    if (!changes.caching) return null;
    const memory = new ScreeningMemory(changes.bus, changes.meter('screening'));
    changes.onChange((c) => memory.apply(c));
    return memory;
  }

  /**
   * The facts of an upload of `keys` by the player on that server, from memory, or undefined when any part is
   * not known (then read them with `read`).
   */
  recall(
    workspaceId: string,
    seasonId: string,
    serverId: string,
    uuid: string,
    keys: readonly string[],
  ): ScreeningContext | undefined {
    const found = this.health.healthy
      ? this.lookup(keyOf(workspaceId, seasonId, serverId, uuid), workspaceId, keys)
      : undefined;
    if (found) this.meter?.hit();
    else this.meter?.miss();
    return found;
  }

  private lookup(key: string, workspaceId: string, keys: readonly string[]): ScreeningContext | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.expires <= this.now()) {
      this.remove(key);
      return undefined;
    }
    const ws = this.workspaces.get(workspaceId);
    if (ws === undefined) return undefined;
    const definitions = new Map<string, DefinitionFacts>();
    const last = new Map<string, LastValue>();
    const verified = new Map<string, { value: number; at: number }>();
    for (const k of keys) {
      const d = ws.definitions.get(k);
      if (d === undefined) return undefined;
      definitions.set(k, d);
      // A statistic without a slot has no value of any player held here: none of this one's either.
      const slot = ws.slots.get(d.id);
      if (slot === undefined) continue;
      const i = slot * 3;
      if (i < e.last.length && !Number.isNaN(e.last[i + 2]!)) {
        last.set(d.id, { value: e.last[i]!, at: e.last[i + 1]!, observedAt: e.last[i + 2]! });
      }
      const j = slot * 2;
      if (e.verified !== null && j < e.verified.length && !Number.isNaN(e.verified[j + 1]!)) {
        verified.set(d.id, { value: e.verified[j]!, at: e.verified[j + 1]! });
      }
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    return { player: e.player, definitions, serverVerified: e.serverVerified, verified, last, hasStored: e.hasStored };
  }

  /** The workspace's slot of a statistic, given one if it has none (null: the workspace has too many). */
  private slotOf(ws: Workspace, statId: string): number | null {
    let slot = ws.slots.get(statId);
    if (slot === undefined) {
      if (ws.slots.size >= DEFINITIONS_PER_WORKSPACE) return null;
      slot = ws.slots.size;
      ws.slots.set(statId, slot);
    }
    return slot;
  }

  private workspace(workspaceId: string): Workspace {
    let ws = this.workspaces.get(workspaceId);
    if (ws === undefined) {
      ws = { slots: new Map(), definitions: new Map() };
      this.workspaces.set(workspaceId, ws);
    }
    return ws;
  }

  /** Reads the facts with `load` and keeps them, unless a change touched that player (or more) while it read. */
  async read(
    workspaceId: string,
    seasonId: string,
    serverId: string,
    uuid: string,
    load: () => Promise<ScreeningContext>,
  ): Promise<ScreeningContext> {
    const reading: Reading = {
      key: keyOf(workspaceId, seasonId, serverId, uuid),
      workspaceId,
      person: `${workspaceId}|${uuid}`,
      spoiled: !this.health.healthy,
    };
    this.readings.add(reading);
    try {
      const ctx = await load();
      if (!reading.spoiled && this.health.healthy) this.keep(reading, ctx);
      return ctx;
    } finally {
      this.readings.delete(reading);
    }
  }

  private keep(r: Reading, ctx: ScreeningContext): void {
    const ws = this.workspace(r.workspaceId);
    for (const [k, d] of ctx.definitions) ws.definitions.set(k, d);
    if (ws.definitions.size > DEFINITIONS_PER_WORKSPACE) {
      this.forgetWorkspace(r.workspaceId);
      this.workspaces.delete(r.workspaceId);
      return;
    }
    // A newcomer is read again once it has a row (its first upload, and the writer that makes it, are rare).
    if (ctx.player === null) return;
    // The read holds every value of the player there: the entry is made anew from it.
    let last: Float64Array = emptyLast(ws.slots.size);
    for (const [id, v] of ctx.last) {
      const slot = this.slotOf(ws, id);
      if (slot === null) return;
      last = grown(last, slot, 3);
      last.set([v.value, v.at, v.observedAt], slot * 3);
    }
    let verified: Float64Array | null = null;
    for (const [id, v] of ctx.verified) {
      const slot = this.slotOf(ws, id);
      if (slot === null) return;
      verified = grown(verified ?? emptyVerified(ws.slots.size), slot, 2);
      verified.set([v.value, v.at], slot * 2);
    }
    const e: Entry = {
      workspaceId: r.workspaceId,
      person: r.person,
      player: ctx.player,
      serverVerified: ctx.serverVerified,
      hasStored: ctx.hasStored,
      last,
      verified,
      expires: this.now() + this.limits.ttlMs,
      size: 0,
    };
    this.remove(r.key);
    this.put(r.key, e);
  }

  /** Holds `e` as the most recently used, counting its size, then evicts past the limits. */
  private put(key: string, e: Entry): void {
    e.size =
      ENTRY_BYTES + (e.last.length / 3) * SLOT_BYTES + (e.verified ? (e.verified.length / 2) * VERIFIED_SLOT_BYTES : 0);
    if (e.size > this.limits.bytes) return;
    this.bytes += e.size;
    this.entries.set(key, e);
    let keys = this.byPerson.get(e.person);
    if (keys === undefined) {
      keys = new Set();
      this.byPerson.set(e.person, keys);
    }
    keys.add(key);
    while (this.entries.size > this.limits.entries || this.bytes > this.limits.bytes) {
      const first = this.entries.keys().next();
      if (first.done) break;
      this.remove(first.value);
    }
  }

  /** Applies a change (null: anything may have changed). */
  apply(change: Change | null): void {
    if (change === null) {
      this.clear();
      return;
    }
    switch (change.topic) {
      case 'values':
        if (change.stored) this.follow(change.workspaceId, change.stored);
        else if (change.players) this.forgetPlayers(change.workspaceId, change.players);
        else this.forgetWorkspace(change.workspaceId);
        return;
      case 'player':
        if (change.players) this.forgetPlayers(change.workspaceId, change.players);
        else this.forgetWorkspace(change.workspaceId);
        return;
      case 'season':
      case 'server':
        this.forgetWorkspace(change.workspaceId);
        return;
      case 'definition':
        // New definitions change none known here (a key not known is read).
        if (change.added === true) return;
        this.workspaces.get(change.workspaceId)?.definitions.clear();
        for (const r of this.readings) if (r.workspaceId === change.workspaceId) r.spoiled = true;
        return;
      default:
        return;
    }
  }

  /**
   * Applies a committed write of this process by the writer's rule (`serverValueUpsert`): a value observed later
   * than the stored one replaces it, and its time of arrival moves only when the value changed; an earlier one is
   * refused. Observations are compared in ms, the stored one possibly finer: at the same ms, a different value
   * might go either way, so that entry is dropped. Verified values always replace.
   */
  private follow(workspaceId: string, stored: StoredValues): void {
    for (const [seasonId, serverId, statId, uuid, value, observedAt] of stored.values) {
      const held = this.heldSlot(workspaceId, seasonId, serverId, uuid, statId);
      if (held === null) continue;
      const { key, e, slot } = held;
      e.hasStored = true;
      const i = slot * 3;
      if (i >= e.last.length) this.resize(key, e, grown(e.last, slot, 3), e.verified);
      const last = e.last;
      if (Number.isNaN(last[i + 2]!) || last[i + 2]! < observedAt) {
        // The arrival time moves only when the value changed.
        if (Number.isNaN(last[i + 2]!) || last[i] !== value) last[i + 1] = stored.at;
        last[i] = value;
        last[i + 2] = observedAt;
      } else if (last[i + 2] === observedAt && last[i] !== value) {
        this.remove(key);
      }
    }
    for (const [seasonId, serverId, statId, uuid, value] of stored.verified) {
      const held = this.heldSlot(workspaceId, seasonId, serverId, uuid, statId);
      if (held === null) continue;
      const { key, e, slot } = held;
      // The server has verified values now. (Other players' entries may keep `false`: `above_verified` needs the
      // player's own verified value, and where there is one, the server has verified values.)
      e.serverVerified = true;
      const verified = grown(e.verified ?? emptyVerified(slot + 1), slot, 2);
      if (verified !== e.verified) this.resize(key, e, e.last, verified);
      verified[slot * 2] = value;
      verified[slot * 2 + 1] = stored.at;
    }
  }

  /**
   * The held entry of a written value and the statistic's slot in it, or null when none is held (a read in flight
   * for it is spoiled either way; an entry whose workspace has no slot left is dropped).
   */
  private heldSlot(
    workspaceId: string,
    seasonId: string,
    serverId: string,
    uuid: string,
    statId: string,
  ): { key: string; e: Entry; slot: number } | null {
    const key = keyOf(workspaceId, seasonId, serverId, uuid);
    this.spoil(key);
    const e = this.entries.get(key);
    const ws = this.workspaces.get(workspaceId);
    if (e === undefined || ws === undefined) return null;
    const slot = this.slotOf(ws, statId);
    if (slot === null) {
      this.remove(key);
      return null;
    }
    return { key, e, slot };
  }

  /** Gives a held entry new arrays, keeping its size counted. */
  private resize(key: string, e: Entry, last: Float64Array, verified: Float64Array | null): void {
    this.remove(key);
    e.last = last;
    e.verified = verified;
    this.put(key, e);
  }

  private spoil(key: string): void {
    for (const r of this.readings) if (r.key === key) r.spoiled = true;
  }

  private forgetPlayers(workspaceId: string, uuids: readonly string[]): void {
    for (const uuid of uuids) {
      const person = `${workspaceId}|${uuid}`;
      for (const r of this.readings) if (r.person === person) r.spoiled = true;
      const keys = this.byPerson.get(person);
      if (keys === undefined) continue;
      for (const k of [...keys]) this.remove(k);
    }
  }

  private forgetWorkspace(workspaceId: string): void {
    for (const r of this.readings) if (r.workspaceId === workspaceId) r.spoiled = true;
    for (const [k, e] of this.entries) if (e.workspaceId === workspaceId) this.remove(k);
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.bytes -= e.size;
    const keys = this.byPerson.get(e.person);
    keys?.delete(key);
    if (keys?.size === 0) this.byPerson.delete(e.person);
  }

  /** Forgets everything (and every read in flight). */
  clear(): void {
    for (const r of this.readings) r.spoiled = true;
    this.entries.clear();
    this.byPerson.clear();
    this.workspaces.clear();
    this.bytes = 0;
  }

  /** Entries and estimated bytes held (tests, diagnostics). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Whether the player's facts on that server are held (tests). */
  holds(workspaceId: string, seasonId: string, serverId: string, uuid: string): boolean {
    return this.entries.has(keyOf(workspaceId, seasonId, serverId, uuid));
  }
}
