import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';

/** What changed. Caches drop what a change may affect; `ids` narrow it, their absence means "all of the topic". */
export type Change =
  | { topic: 'key'; ids: string[] }
  | { topic: 'server' | 'season' | 'webhook' | 'site'; workspaceId: string }
  /**
   * Statistic definitions changed; `added`: only new ones, created by uploads (none renamed, hidden or changed),
   * which what is already rendered may leave out for its age.
   */
  | { topic: 'definition'; workspaceId: string; added?: boolean }
  /** Players were added to the workspace (lists of players and their totals change; nothing else does). */
  | { topic: 'roster'; workspaceId: string }
  /** A player's name or visibility changed: `players` (game UUIDs) when known, else any of the workspace. */
  | {
      topic: 'player';
      workspaceId: string;
      players?: string[];
      /** Only names changed (not visibility): counts of values, e.g. compact rank boards, stay as they are. */
      nameOnly?: boolean;
    }
  /**
   * Admin sessions ended (`ids`: their id hashes), or users or their roles changed (no `ids`: every session):
   * signed-in sessions are looked up again.
   */
  | { topic: 'session'; ids?: string[] }
  | {
      topic: 'values';
      workspaceId: string;
      pairs?: [seasonId: string, statId: string][] /** game UUIDs */;
      players?: string[];
      /** This process's own writes only (never in a NOTIFY): the changed public values of some statistics. */
      moves?: ValueMoves;
      /**
       * This process's own writes only (never in a NOTIFY), by an ingest writer outside any transaction: every
       * value it offered (the statement's rule decides which it kept), so the screening memory follows the write
       * instead of dropping what it knows of these players.
       */
      stored?: StoredValues;
    };

/** What an ingest write offered `server_stats` and `verified_stats`, with the statement's `now()`. */
export interface StoredValues {
  /** The write's `now()` (ms): a changed value's `updated_at`, a verified value's `received_at`. */
  at: number;
  /** Each value offered, one per (season, server, statistic, player): kept when observed no earlier than the stored one. */
  values: readonly [
    seasonId: string,
    serverId: string,
    statId: string,
    uuid: string,
    value: number,
    observedAt: number,
  ][];
  /** Verified values written (the agent's): always kept. */
  verified: readonly [seasonId: string, serverId: string, statId: string, uuid: string, value: number][];
}

/**
 * The values a write changed, of the statistics `stats` (those asked for by `ChangeBus.detailed`; every changed
 * value of them is in `rows`), and the id of the transaction that wrote them: what compact rank boards follow
 * values with, without reading them again.
 */
export interface ValueMoves {
  /** `pg_current_xact_id()` of the write (a board read before its commit applies it, one read after does not). */
  xid: string;
  stats: readonly string[];
  /**
   * Each changed value: its previous value (null: it had none) and its new one; for a hidden player's value (not
   * on the board, but where it stands among the ties matters to pages: see CompactBoard.hiddenAt), also the
   * player's id and the value's `updated_at` in microseconds (null for a public player's). Each server's value that
   * changed is there too, with its server's id (boards of one server).
   */
  rows: readonly MovedValue[];
}

/** A changed value of `ValueMoves`. */
export type MovedValue = [
  seasonId: string,
  statId: string,
  from: number | null,
  to: number,
  hiddenPlayer: string | null,
  atMicros: number | null,
  /** The server whose value it is (one server's board); absent or null: the network total. */
  serverId?: string | null,
  /** The gain it replaced (null: none) and its new gain: what boards of a season that counts gains move. */
  gainFrom?: number | null,
  gainTo?: number,
];

const CHANNEL = 'statboard_changes';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; wider changes are sent less precisely. */
const MAX_PAYLOAD = 7_000;

/** The same change, less precisely (the whole topic of the workspace): for one too wide for a NOTIFY payload. */
function narrowToFit(change: Change): Change {
  if (change.topic === 'values') return { topic: 'values', workspaceId: change.workspaceId };
  if (change.topic === 'player') return { topic: 'player', workspaceId: change.workspaceId };
  if (change.topic === 'key') return { topic: 'key', ids: [] };
  if (change.topic === 'session') return { topic: 'session' };
  return change;
}

/**
 * Cache invalidation across instances. A change is applied to this process's caches at once and published with
 * PostgreSQL NOTIFY, which every instance sharing the database LISTENs to (a few milliseconds later). While the
 * LISTEN connection is down, `healthy` is false and caches must not be used, so nothing can be served stale
 * because a notification was missed. With PGlite there is only one process and the bus is always healthy.
 */
export class ChangeBus {
  private readonly emitter = new EventEmitter();
  private readonly detailSources: (() => Iterable<string>)[] = [];
  private listener: pg.Client | null = null;
  private notifier: ((payload: string) => Promise<void>) | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Caches may be read only while this is true. */
  healthy: boolean;
  /** Tells this instance's own notifications apart (process ids repeat across hosts). */
  private readonly instance = randomUUID();
  /** How every payload of this instance starts: its own notifications are recognised without parsing them. */
  private readonly ownPrefix = `{"from":"${this.instance}","change":`;

  private constructor(private readonly url: string | null) {
    this.healthy = url === null;
    this.emitter.setMaxListeners(50);
  }

  /** A bus for one process (PGlite, tests): local only, always healthy. */
  static local(): ChangeBus {
    return new ChangeBus(null);
  }

  /**
   * A bus that tells other instances of what this process changes and hears nothing (the CLI: it keeps no
   * caches, but the running service must drop what a command changed).
   */
  static announcing(notify: (payload: string) => Promise<void>): ChangeBus {
    const bus = new ChangeBus(null);
    bus.notifier = notify;
    return bus;
  }

  /** A bus that listens on the PostgreSQL server at `url` and notifies through `notify`. */
  static async postgres(url: string, notify: (payload: string) => Promise<void>): Promise<ChangeBus> {
    const bus = new ChangeBus(url);
    bus.notifier = notify;
    await bus.connect();
    return bus;
  }

  /**
   * Which of `statIds` (definition ids) a write should report the changed values of (`ValueMoves`): those that
   * the sources given to `wantDetail` name (compact rank boards held or being read).
   */
  detailed(statIds: readonly string[]): string[] {
    if (this.detailSources.length === 0 || statIds.length === 0) return [];
    const wanted = new Set<string>();
    for (const source of this.detailSources) for (const id of source()) wanted.add(id);
    if (wanted.size === 0) return [];
    return [...new Set(statIds)].filter((id) => wanted.has(id));
  }

  /** Adds a source of the statistics whose changes are wanted with their values (see `detailed`). */
  wantDetail(source: () => Iterable<string>): void {
    this.detailSources.push(source);
  }

  /** Called with every change, local or from another instance; `null` means "drop everything". */
  subscribe(fn: (change: Change | null) => void): void {
    this.emitter.on('change', fn);
  }

  /** Applies a change to this process's caches only. */
  applyLocal(change: Change): void {
    this.emitter.emit('change', change);
  }

  /**
   * The NOTIFY payload that tells the other instances about `change`, or null without a shared bus. For a
   * statement that notifies by itself (`pg_notify` in the write), delivered exactly at its commit.
   */
  payloadFor(change: Change): string | null {
    if (!this.notifier) return null;
    const payload = `${this.ownPrefix}${JSON.stringify(change)}}`;
    return payload.length <= MAX_PAYLOAD ? payload : `${this.ownPrefix}${JSON.stringify(narrowToFit(change))}}`;
  }

  /** Applies a change locally, then tells the other instances. */
  async publish(change: Change): Promise<void> {
    this.emitter.emit('change', change);
    const payload = this.payloadFor(change);
    if (payload !== null && this.notifier) {
      try {
        await this.notifier(payload);
      } catch {
        // Other instances keep serving from their caches until their entries expire (a bounded TTL).
      }
    }
  }

  private async connect(): Promise<void> {
    // Bounded connect, and keepalive so that a server that vanished is noticed (the listener then reconnects).
    const client = new pg.Client({ connectionString: this.url!, connectionTimeoutMillis: 5_000, keepAlive: true });
    const fail = () => {
      if (this.listener !== client) return;
      this.listener = null;
      this.healthy = false;
      this.emitter.emit('change', null);
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.connect().catch(() => undefined), 1_000);
    };
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      // Our own changes were applied when they were made.
      if (msg.payload.startsWith(this.ownPrefix)) return;
      try {
        const { change } = JSON.parse(msg.payload) as { change: Change };
        this.emitter.emit('change', change);
      } catch {
        this.emitter.emit('change', null);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.connect().catch(() => undefined), 1_000);
      throw err;
    }
    this.listener = client;
    // Anything may have changed while nobody listened.
    this.emitter.emit('change', null);
    this.healthy = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.healthy = false;
    if (this.retry) clearTimeout(this.retry);
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => undefined);
  }
}

export { CHANNEL as CHANGE_CHANNEL };
