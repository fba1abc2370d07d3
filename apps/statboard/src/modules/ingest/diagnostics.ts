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

/**
 * What ingest tells the operator: rejected batches counted per hour by reason, key, server address and player,
 * and when each server last had a batch accepted. Both are collected in memory and written every few seconds (and
 * at shutdown), so a flood of bad uploads costs one statement per interval, not one per request.
 */
export class IngestDiagnostics {
  private readonly pending = new Map<string, repo.RejectionBucket>();
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

  rejected(r: Rejection): void {
    const at = new Date(this.now());
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
    this.count(r.workspaceId, hour).rejected++;
    const k = [r.workspaceId, hour.getTime(), r.code, r.keyId, r.hostname, r.port, r.playerUuid].join('|');
    const b = this.pending.get(k);
    if (b) {
      b.count++;
      b.lastAt = at;
      b.message = r.message;
    } else {
      this.pending.set(k, { ...r, hour, count: 1, firstAt: at, lastAt: at });
    }
    this.schedule();
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
    const buckets = [...this.pending.values()];
    const servers = [...this.lastIngest];
    const counts = [...this.counts.values()];
    this.pending.clear();
    this.lastIngest.clear();
    this.counts.clear();
    try {
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
      for (const b of buckets) {
        const k = [b.workspaceId, b.hour.getTime(), b.code, b.keyId, b.hostname, b.port, b.playerUuid].join('|');
        const newer = this.pending.get(k);
        if (newer) {
          newer.count += b.count;
          newer.firstAt = b.firstAt;
        } else {
          this.pending.set(k, b);
        }
      }
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
    const rows = await repo.listRejections(this.db, workspaceId, since, perPage, (page - 1) * perPage);
    // Past the last page there is no row to carry the total: ask for it.
    const total =
      rows[0]?.total ??
      (page > 1 ? ((await repo.listRejections(this.db, workspaceId, since, 1, 0))[0]?.total ?? 0) : 0);
    return {
      data: rows.map((r) => ({
        code: r.code,
        message: r.message,
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
