import type { ChangeBus } from '#src/cache/bus.ts';
import type { Db } from '#src/db/types.ts';
import { bucketRange, DAY_MS, HOUR_MS } from '#src/lib/time-buckets.ts';
import { touchServers } from '#src/modules/servers/repo.ts';
import * as repo from './repo.ts';

/** How long rejected batches stay readable (`GET /admin/ingest/rejections`). */
export const REJECTIONS_KEPT_MS = 7 * 24 * 3_600_000;
/** Counts and times are written this often, in one statement each, never per request. */
const FLUSH_MS = 5_000;

/**
 * An activity bucket that ended this long ago is taken as final and kept in memory: its sessions ended or moved
 * past it (a heartbeat comes every minute or so, the online window is two minutes), and every instance has written
 * its counts for it (every FLUSH_MS). What could still change it is a session heard of again after a silence longer
 * than this that spans it, which the admin overview may then miss; an import, which may add players first seen in
 * the past, forgets the workspace's buckets.
 */
export const ACTIVITY_SEALED_AFTER_MS = 10 * 60_000;
/** Final activity buckets kept (~200 bytes each): 50 overviews of the longest range (400 buckets). */
const SEALED_BUCKETS_KEPT = 20_000;

/**
 * Distinct (code, server address, player) groups one key gets in `ingest_rejections` a day (UTC). A client key
 * lives on players' machines: without a bound, uploads naming a new hostname each would write a group each.
 */
export const REJECTION_GROUPS_PER_KEY_DAY = 100;
/** The code of the one group per key and day that counts the rejections past its first groups. */
export const OVERFLOW_CODE = 'OVERFLOW';
const OVERFLOW_MESSAGE = `Rejections in groups past the first ${REJECTION_GROUPS_PER_KEY_DAY} of this key in a day (UTC)`;

/** A rejected batch, as far as the request got: the key and the body may be unknown. */
export interface Rejection {
  workspaceId: string;
  code: string;
  message: string;
  keyId: string | null;
  hostname: string | null;
  port: number | null;
  playerUuid: string | null;
}

/** The groups a key has in a day: admitted in this process, and whether those the table holds were counted in. */
interface KeyDayGroups {
  at: repo.KeyDay;
  /** `code|hostname|port|player` of the groups admitted (at most REJECTION_GROUPS_PER_KEY_DAY), oldest first. */
  groups: Set<string>;
  /** Whether the groups already in the table (written before a restart, or by another instance) are in `groups`. */
  checked: boolean;
}

const bucketKey = (b: Omit<repo.RejectionBucket, 'message' | 'count' | 'firstAt' | 'lastAt'>) =>
  [b.workspaceId, b.hour.getTime(), b.code, b.keyId, b.hostname, b.port, b.playerUuid].join('|');
const groupOf = (b: { code: string; hostname: string | null; port: number | null; playerUuid: string | null }) =>
  [b.code, b.hostname, b.port, b.playerUuid].join('|');
const keyDayOf = (workspaceId: string, keyId: string | null, day: number) => `${workspaceId}|${keyId}|${day}`;

/** Adds `b` to the bucket of its hour and group in `into`: counts add up, times widen, the newest message wins. */
function addBucket(into: Map<string, repo.RejectionBucket>, b: repo.RejectionBucket): void {
  const k = bucketKey(b);
  const kept = into.get(k);
  if (!kept) {
    into.set(k, b);
    return;
  }
  kept.count += b.count;
  if (b.firstAt < kept.firstAt) kept.firstAt = b.firstAt;
  if (b.lastAt >= kept.lastAt) {
    kept.lastAt = b.lastAt;
    kept.message = b.message;
  }
}

/**
 * What ingest tells the operator: rejected batches counted per hour by reason, key, server address and player,
 * and when each server last had a batch accepted. Both are collected in memory and written every few seconds (and
 * at shutdown), so a flood of bad uploads costs one statement per interval, not one per request.
 *
 * Bounded: a key gets at most REJECTION_GROUPS_PER_KEY_DAY distinct groups a day; the rest of its rejections that
 * day are counted in one overflow group (code OVERFLOW, no server or player). The groups admitted are kept in
 * memory for the day; at the first write of a key-day, those the table already holds are counted in, so the bound
 * also holds across writes and restarts. (Instances running side by side each admit up to the bound after their
 * first write: the table may then hold up to that many per instance.)
 */
export class IngestDiagnostics {
  private readonly pending = new Map<string, repo.RejectionBucket>();
  /** Groups admitted by `workspace|key|day number`; earlier days are forgotten after a write. */
  private readonly keyDays = new Map<string, KeyDayGroups>();
  private readonly lastIngest = new Map<string, Date>();
  /** Upload counts by workspace and hour. */
  private readonly counts = new Map<
    string,
    { workspaceId: string; hour: Date; accepted: number; rejected: number; values: number }
  >();
  private timer: NodeJS.Timeout | null = null;
  private lastPurge = 0;
  /** Final activity buckets by `workspace|interval|start` (ms), oldest first; and reads in flight. */
  private readonly sealed = new Map<string, repo.ActivityRow>();
  private readonly reading = new Map<string, Promise<repo.ActivityRow[]>>();
  /** Moves when kept buckets are forgotten: a read that started before is not kept. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    bus: ChangeBus | null = null,
  ) {
    bus?.subscribe((change) => {
      // An import (a change of a workspace's players as a whole) may add players first seen in the past; an
      // unhealthy bus may have lost one.
      if (change === null) this.forget(() => true);
      else if (change.topic === 'player' && change.players === undefined) {
        const prefix = `${change.workspaceId}|`;
        this.forget((k) => k.startsWith(prefix));
      }
    });
  }

  private forget(match: (key: string) => boolean): void {
    this.generation++;
    for (const k of this.sealed.keys()) if (match(k)) this.sealed.delete(k);
  }

  private count(workspaceId: string, hour: Date) {
    const k = `${workspaceId}|${hour.getTime()}`;
    let c = this.counts.get(k);
    if (!c) {
      c = { workspaceId, hour, accepted: 0, rejected: 0, values: 0 };
      this.counts.set(k, c);
    }
    return c;
  }

  /**
   * Counts a rejection. `count`: how many (values dropped from an accepted batch count each); `batch`: false when
   * the batch itself was accepted (a note about part of it, or a warning), which the upload counts leave alone.
   */
  rejected(r: Rejection, count = 1, batch = true): void {
    const at = new Date(this.now());
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
    if (batch) this.count(r.workspaceId, hour).rejected++;
    const day = Math.floor(at.getTime() / DAY_MS);
    const kd = keyDayOf(r.workspaceId, r.keyId, day);
    let groups = this.keyDays.get(kd);
    if (!groups) {
      groups = {
        at: { workspaceId: r.workspaceId, keyId: r.keyId, day: new Date(day * DAY_MS) },
        groups: new Set(),
        checked: false,
      };
      this.keyDays.set(kd, groups);
    }
    const group = groupOf(r);
    if (!groups.groups.has(group) && groups.groups.size >= REJECTION_GROUPS_PER_KEY_DAY) {
      this.add(this.overflow({ ...r, hour, count, firstAt: at, lastAt: at }));
    } else {
      groups.groups.add(group);
      this.add({ ...r, hour, count, firstAt: at, lastAt: at });
    }
    this.schedule();
  }

  /** The overflow bucket that counts `b` instead (same workspace, key and hour). */
  private overflow(b: repo.RejectionBucket): repo.RejectionBucket {
    return { ...b, code: OVERFLOW_CODE, message: OVERFLOW_MESSAGE, hostname: null, port: null, playerUuid: null };
  }

  /** Adds a bucket to those waiting for the next write. */
  private add(b: repo.RejectionBucket): void {
    addBucket(this.pending, b);
  }

  /**
   * Counts in the groups the table already holds for the key-days not yet checked (in one read), and moves the
   * buckets of groups past the bound into their overflow group. Returns the buckets to write.
   */
  private async bounded(buckets: repo.RejectionBucket[]): Promise<repo.RejectionBucket[]> {
    const unchecked = new Map<string, KeyDayGroups>();
    for (const b of buckets) {
      if (b.code === OVERFLOW_CODE) continue;
      const kd = keyDayOf(b.workspaceId, b.keyId, Math.floor(b.hour.getTime() / DAY_MS));
      const groups = this.keyDays.get(kd);
      if (groups && !groups.checked) unchecked.set(kd, groups);
    }
    if (unchecked.size === 0) return buckets;
    const list = [...unchecked.values()];
    const stored = list.map(() => new Set<string>());
    const rows = await repo.rejectionGroupsOf(
      this.db,
      list.map((g) => g.at),
      REJECTION_GROUPS_PER_KEY_DAY,
      OVERFLOW_CODE,
    );
    for (const row of rows) {
      stored[row.i]?.add(groupOf({ ...row, playerUuid: row.player_uuid }));
    }
    const moved = new Set<string>();
    for (const [i, groups] of list.entries()) {
      // The table's groups first, then this process's in the order they came, up to the bound.
      const admitted = stored[i]!;
      const kd = keyDayOf(groups.at.workspaceId, groups.at.keyId, groups.at.day.getTime() / DAY_MS);
      for (const g of groups.groups) {
        if (admitted.has(g)) continue;
        if (admitted.size < REJECTION_GROUPS_PER_KEY_DAY) admitted.add(g);
        else moved.add(`${kd}|${g}`);
      }
      groups.groups = admitted;
      groups.checked = true;
    }
    if (moved.size === 0) return buckets;
    const out = new Map<string, repo.RejectionBucket>();
    for (const b of buckets) {
      const kd = keyDayOf(b.workspaceId, b.keyId, Math.floor(b.hour.getTime() / DAY_MS));
      addBucket(out, moved.has(`${kd}|${groupOf(b)}`) ? this.overflow(b) : b);
    }
    return [...out.values()];
  }

  /** Forgets the groups of days before today: their buckets were written. */
  private forgetPastDays(): void {
    const today = Math.floor(this.now() / DAY_MS) * DAY_MS;
    for (const [kd, groups] of this.keyDays) if (groups.at.day.getTime() < today) this.keyDays.delete(kd);
  }

  /** A batch with `values` statistics was committed through `serverId`. */
  accepted(workspaceId: string, serverId: string, values: number): void {
    const at = new Date(this.now());
    this.lastIngest.set(serverId, at);
    const c = this.count(workspaceId, new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS));
    c.accepted++;
    c.values += values;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => undefined);
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what was collected (also at shutdown). A failed write is retried with the next one. */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    let buckets = [...this.pending.values()];
    const servers = [...this.lastIngest];
    const counts = [...this.counts.values()];
    this.pending.clear();
    this.lastIngest.clear();
    this.counts.clear();
    try {
      if (buckets.length > 0) buckets = await this.bounded(buckets);
      if (counts.length > 0 || buckets.length > 0 || servers.length > 0) {
        // One transaction: on failure nothing was written, and everything is kept for the next write.
        await this.db.transaction(async (tx) => {
          if (counts.length > 0) await repo.addActivity(tx, counts);
          if (buckets.length > 0) await repo.addRejections(tx, buckets);
          if (servers.length > 0) {
            await touchServers(
              tx,
              servers.map(([id]) => id),
              servers.map(([, at]) => at),
            );
          }
        });
      }
    } catch (err) {
      // Kept for the next write (the database may be away): counts are added, times keep the latest.
      for (const b of buckets) this.add(b);
      for (const [id, at] of servers) if (!this.lastIngest.has(id)) this.lastIngest.set(id, at);
      for (const c of counts) {
        const now = this.count(c.workspaceId, c.hour);
        now.accepted += c.accepted;
        now.rejected += c.rejected;
        now.values += c.values;
      }
      this.schedule();
      throw err;
    }
    this.forgetPastDays();
    const now = this.now();
    if (now - this.lastPurge > HOUR_MS) {
      this.lastPurge = now;
      // Old buckets are forgotten at most once an hour; a failure is retried then.
      await repo.deleteRejectionsBefore(this.db, new Date(now - REJECTIONS_KEPT_MS - HOUR_MS)).catch(() => undefined);
    }
  }

  /**
   * Uploads and players per hour or day from `from` to `to` (default: the last 24 hours by hour), every bucket
   * present; at most 400 buckets.
   */
  async activity(workspaceId: string, q: { from?: string; to?: string; interval?: 'hour' | 'day' }) {
    const { from, to, interval } = bucketRange(
      q,
      this.now(),
      { interval: 'hour', span: { hour: 24 * HOUR_MS, day: 24 * HOUR_MS } },
      'activity',
    );
    // What was counted in the last seconds is written first, so the numbers are current.
    await this.flush();
    const step = interval === 'hour' ? HOUR_MS : DAY_MS;
    const n = Math.ceil((to.getTime() - from.getTime()) / step);
    const sealedBefore = this.now() - ACTIVITY_SEALED_AFTER_MS;
    const prefix = `${workspaceId}|${interval}|`;
    // Final buckets from memory as far as they go; the rest (the recent ones) in one read.
    const rows: repo.ActivityRow[] = [];
    let start = from.getTime();
    for (; start < from.getTime() + n * step; start += step) {
      const kept = start + step <= sealedBefore ? this.sealed.get(prefix + start) : undefined;
      if (kept === undefined) break;
      rows.push(kept);
    }
    if (rows.length < n) {
      // Concurrent reads of the same buckets share one query (the buckets do not depend on `to` beyond their count).
      const key = `${prefix}${start}|${n - rows.length}`;
      let read = this.reading.get(key);
      if (!read) {
        const generation = this.generation;
        read = repo.activity(this.db, workspaceId, new Date(start), to, interval).then((fresh) => {
          if (generation === this.generation) {
            for (const r of fresh) {
              const at = new Date(r.at).getTime();
              if (at + step <= sealedBefore) this.keep(prefix + at, r);
            }
          }
          return fresh;
        });
        this.reading.set(key, read);
        void read.then(
          () => this.reading.delete(key),
          () => this.reading.delete(key),
        );
      }
      rows.push(...(await read));
    }
    return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  }

  private keep(key: string, row: repo.ActivityRow): void {
    this.sealed.delete(key);
    this.sealed.set(key, row);
    if (this.sealed.size > SEALED_BUCKETS_KEPT) this.sealed.delete(this.sealed.keys().next().value!);
  }

  /** Rejections of the last 7 days, grouped, newest first. */
  async list(workspaceId: string, page: number, perPage: number) {
    const since = new Date(this.now() - REJECTIONS_KEPT_MS);
    const rows = await repo.listRejections(this.db, workspaceId, since, perPage, (page - 1) * perPage, OVERFLOW_CODE);
    // Past the last page there is no row to carry the total: ask for it.
    const total =
      rows[0]?.total ??
      (page > 1 ? ((await repo.listRejections(this.db, workspaceId, since, 1, 0, OVERFLOW_CODE))[0]?.total ?? 0) : 0);
    return {
      data: rows.map((r) => ({
        code: r.code,
        message: r.code === OVERFLOW_CODE ? overflowMessage(r.count, new Date(r.first_at)) : r.message,
        count: r.count,
        first_at: new Date(r.first_at).toISOString(),
        last_at: new Date(r.last_at).toISOString(),
        key: r.key_id === null ? null : { id: r.key_id, name: r.key_name ?? '' },
        server: r.hostname === null || r.port === null ? null : { hostname: r.hostname, port: r.port },
        player_uuid: r.player_uuid,
      })),
      total,
    };
  }
}

/** The overflow group's message: how many, and which day (an overflow group is one key's one day). */
function overflowMessage(count: number, firstAt: Date): string {
  const day = firstAt.toISOString().slice(0, 10);
  return `${count} more rejection${count === 1 ? '' : 's'} in groups past the first ${REJECTION_GROUPS_PER_KEY_DAY} of this key on ${day} (UTC); their servers and players are not recorded`;
}
