import type { Db } from '#src/db/types.ts';
import { touchServers } from '#src/modules/servers/repo.ts';
import * as repo from './repo.ts';

/** How long rejected batches stay readable (`GET /admin/ingest/rejections`). */
export const REJECTIONS_KEPT_MS = 7 * 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Counts and times are written this often, in one statement each, never per request. */
const FLUSH_MS = 5_000;

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
  private timer: NodeJS.Timeout | null = null;
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  rejected(r: Rejection): void {
    const at = new Date(this.now());
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
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

  accepted(serverId: string): void {
    this.lastIngest.set(serverId, new Date(this.now()));
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
    this.pending.clear();
    this.lastIngest.clear();
    try {
      if (buckets.length > 0) await repo.addRejections(this.db, buckets);
      if (servers.length > 0) {
        await touchServers(
          this.db,
          servers.map(([id]) => id),
          servers.map(([, at]) => at),
        );
      }
      const now = this.now();
      if (now - this.lastPurge > HOUR_MS) {
        this.lastPurge = now;
        await repo.deleteRejectionsBefore(this.db, new Date(now - REJECTIONS_KEPT_MS - HOUR_MS));
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
      this.schedule();
      throw err;
    }
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
