import type { Actor } from '#src/access/principal.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import type { IngestItem, IngestWriter } from '#src/modules/ingest/writer.ts';
import * as repo from './repo.ts';
import type { HeldValue, ReviewItem } from './schemas.ts';

const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());

function toHeld(v: repo.HeldRow): HeldValue {
  const rename = v.stat === '';
  return {
    stat: rename ? null : v.stat,
    rule: v.rule,
    previous_value: rename ? v.previous_username : v.previous_value,
    previous_at: iso(v.previous_at),
    value: rename ? (v.username ?? '') : (v.value ?? 0),
    observed_at: iso(v.observed_at)!,
    received_at: iso(v.received_at)!,
    allowed: v.allowed,
  };
}

function toItem(r: repo.ReviewItemRow): ReviewItem {
  return {
    id: r.id,
    status: r.status,
    player: { uuid: r.player_uuid, username: r.username },
    server: { id: r.server_id, name: r.server_name },
    key: r.key_id === null || r.key_name === null ? null : { id: r.key_id, name: r.key_name },
    created_at: isoRequired(r.created_at),
    updated_at: isoRequired(r.updated_at),
    uploads: r.uploads,
    items: r.values.map(toHeld),
  };
}

/**
 * The review queue of held values ("Trusting the numbers" in the README): a person approves an item (its held
 * values that are still the newest are stored through the ingest writer, so caches and ranks follow at once) or
 * rejects it (they are discarded). Decisions are for admins and audited.
 */
export class ReviewService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly writer: IngestWriter,
  ) {}

  async list(
    workspaceId: string,
    status: repo.ReviewStatus,
    page: number,
    perPage: number,
  ): Promise<{ data: ReviewItem[]; meta: { current_page: number; per_page: number; total: number } }> {
    const rows = await repo.listItems(this.db, workspaceId, status, perPage, (page - 1) * perPage);
    const total = rows[0]?.total ?? (await repo.countItems(this.db, workspaceId, status));
    return { data: rows.map(toItem), meta: { current_page: page, per_page: perPage, total } };
  }

  /** Open items of the workspace (`GET /admin/me`'s `open_reviews`). */
  openCount(workspaceId: string): Promise<number> {
    return repo.countItems(this.db, workspaceId, 'open');
  }

  /** Stores the item's held values that are still the newest; 404 unknown, 409 when the item is not open. */
  async approve(actor: Actor, workspaceId: string, id: string): Promise<{ item: ReviewItem; stored: number }> {
    const found = await this.open(workspaceId, id);
    // Written first, through the writer (caches, ranks, history and webhooks as for an upload); the item is closed
    // after, so a failed write leaves it open to approve again.
    const stored = await this.store(found);
    const item = await this.decide(actor, workspaceId, id, 'approved');
    return { item, stored };
  }

  /** Discards the item's held values; 404 unknown, 409 when the item is not open. */
  async reject(actor: Actor, workspaceId: string, id: string): Promise<{ item: ReviewItem; stored: number }> {
    await this.open(workspaceId, id);
    return { item: await this.decide(actor, workspaceId, id, 'rejected'), stored: 0 };
  }

  private async open(workspaceId: string, id: string): Promise<repo.ReviewItemRow> {
    const row = await repo.findItemForUpdate(this.db, workspaceId, id);
    if (!row) throw new AppError('NOT_FOUND', `Review item '${id}' not found.`);
    if (row.status !== 'open') throw new AppError('CONFLICT', `The review item is already ${row.status}.`);
    return row;
  }

  private decide(actor: Actor, workspaceId: string, id: string, status: 'approved' | 'rejected'): Promise<ReviewItem> {
    return this.db.transaction(async (tx) => {
      const row = await repo.findItemForUpdate(tx, workspaceId, id);
      if (!row) throw new AppError('NOT_FOUND', `Review item '${id}' not found.`);
      if (row.status !== 'open') throw new AppError('CONFLICT', `The review item is already ${row.status}.`);
      await repo.setStatus(tx, id, status);
      const before = toItem(row);
      const after = { ...before, status };
      await this.audit.record(tx, actor, {
        workspaceId,
        action: status === 'approved' ? 'REVIEW_APPROVED' : 'REVIEW_REJECTED',
        targetType: 'review_item',
        targetId: id,
        before,
        after,
      });
      return after;
    });
  }

  /** Writes the held values still the newest (and a held username still unchanged); returns how many. */
  private async store(row: repo.ReviewItemRow): Promise<number> {
    const values = row.values.filter((v) => v.stat !== '' && v.value !== null);
    const newest =
      values.length > 0
        ? await repo.stillNewest(this.db, row.workspace_id, row.server_id, row.player_uuid, values)
        : new Set<string>();
    const base = (seasonId: string, observedAt: Date, username: string): IngestItem => ({
      workspaceId: row.workspace_id,
      seasonId,
      serverId: row.server_id,
      player: { uuid: row.player_uuid, username },
      sessionId: null,
      observedAt,
      client: { modVersion: '', gameVersion: '', loaderVersion: null },
      stats: [],
      events: [],
    });
    // One writer item per (season, observation): the writer keeps each value's own observation time.
    const items = new Map<string, IngestItem>();
    for (const v of values) {
      if (!newest.has(v.stat)) continue;
      const k = `${v.season_id}|${v.observed_at}`;
      let it = items.get(k);
      if (!it) {
        it = base(v.season_id, new Date(v.observed_at), row.username);
        items.set(k, it);
      }
      it.stats.push({ key: v.stat, value: v.value! });
    }
    const rename = row.values.find((v) => v.stat === '');
    // A held username is stored while the player still has the name it would replace; it is the newest name now.
    if (rename?.username && rename.previous_username === row.username) {
      items.set('rename', base(rename.season_id, new Date(), rename.username));
    }
    await Promise.all([...items.values()].map((it) => this.writer.submit(it)));
    return [...items.values()].reduce((n, it) => n + it.stats.length, 0) + (items.has('rename') ? 1 : 0);
  }
}
