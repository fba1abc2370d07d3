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
/** Estimated bytes of an entry, and of each statistic it knows. */
const ENTRY_BYTES = 300;
const STAT_BYTES = 160;

/** What screening knows of a player on a server in a season. */
interface Entry {
  workspaceId: string;
  /** `workspace|uuid`: the index of the player's entries (a change names players, not seasons or servers). */
  person: string;
  player: NonNullable<ScreeningContext['player']>;
  serverVerified: boolean;
  hasStored: boolean;
  /** Statistics (definition ids) whose stored and verified values are known here, present or absent. */
  known: Set<string>;
  last: Map<string, LastValue>;
  verified: Map<string, { value: number; at: number }>;
  expires: number;
  size: number;
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
 * asks the database nothing: the player, the last stored value and time of each statistic it sent (with the
 * observation the writer compares with), its verified values, and the workspace's definitions.
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
  /** Definitions by workspace, then key; a key missing is read (it may be new). */
  private readonly definitions = new Map<string, Map<string, DefinitionFacts>>();
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
    const defs = this.definitions.get(workspaceId);
    if (defs === undefined) return undefined;
    const definitions = new Map<string, DefinitionFacts>();
    for (const k of keys) {
      const d = defs.get(k);
      if (d === undefined || !e.known.has(d.id)) return undefined;
      definitions.set(k, d);
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    return {
      player: e.player,
      definitions,
      serverVerified: e.serverVerified,
      verified: e.verified,
      last: e.last,
      hasStored: e.hasStored,
    };
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
    let defs = this.definitions.get(r.workspaceId);
    if (defs === undefined) {
      defs = new Map();
      this.definitions.set(r.workspaceId, defs);
    }
    for (const [k, d] of ctx.definitions) defs.set(k, d);
    if (defs.size > DEFINITIONS_PER_WORKSPACE) this.definitions.delete(r.workspaceId);
    // A newcomer is read again once it has a row (its first upload, and the writer that makes it, are rare).
    if (ctx.player === null) return;
    const old = this.entries.get(r.key);
    const now = this.now();
    // Merged into a live entry (another set of statistics), which keeps its age: the older facts set it.
    const e: Entry =
      old !== undefined && old.expires > now
        ? old
        : {
            workspaceId: r.workspaceId,
            person: r.person,
            player: ctx.player,
            serverVerified: false,
            hasStored: false,
            known: new Set(),
            last: new Map(),
            verified: new Map(),
            expires: now + this.limits.ttlMs,
            size: 0,
          };
    if (old !== undefined && old !== e) this.remove(r.key);
    e.player = ctx.player;
    e.serverVerified = ctx.serverVerified;
    e.hasStored = ctx.hasStored;
    for (const d of ctx.definitions.values()) {
      e.known.add(d.id);
      const last = ctx.last.get(d.id);
      if (last === undefined) e.last.delete(d.id);
      else e.last.set(d.id, last);
      const verified = ctx.verified.get(d.id);
      if (verified === undefined) e.verified.delete(d.id);
      else e.verified.set(d.id, verified);
    }
    this.bytes -= e.size;
    e.size = ENTRY_BYTES + STAT_BYTES * e.known.size;
    this.bytes += e.size;
    if (e.size > this.limits.bytes) {
      this.remove(r.key);
      return;
    }
    this.entries.delete(r.key);
    this.entries.set(r.key, e);
    let keys = this.byPerson.get(r.person);
    if (keys === undefined) {
      keys = new Set();
      this.byPerson.set(r.person, keys);
    }
    keys.add(r.key);
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
        this.definitions.delete(change.workspaceId);
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
      const key = keyOf(workspaceId, seasonId, serverId, uuid);
      this.spoil(key);
      const e = this.entries.get(key);
      if (e === undefined) continue;
      e.hasStored = true;
      if (!e.known.has(statId)) continue;
      const cur = e.last.get(statId);
      if (cur === undefined || cur.observedAt < observedAt) {
        const at = cur !== undefined && cur.value === value ? cur.at : stored.at;
        e.last.set(statId, { value, at, observedAt });
      } else if (cur.observedAt === observedAt && cur.value !== value) {
        this.remove(key);
      }
    }
    for (const [seasonId, serverId, statId, uuid, value] of stored.verified) {
      const key = keyOf(workspaceId, seasonId, serverId, uuid);
      this.spoil(key);
      const e = this.entries.get(key);
      if (e === undefined) continue;
      // The server has verified values now. (Other players' entries may keep `false`: `above_verified` needs the
      // player's own verified value, and where there is one, the server has verified values.)
      e.serverVerified = true;
      if (e.known.has(statId)) e.verified.set(statId, { value, at: stored.at });
    }
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
    this.definitions.clear();
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
