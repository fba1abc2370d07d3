import type { Static } from '@sinclair/typebox';
import type { Actor } from '#src/access/principal.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { type Page, pageOffset } from '#src/lib/page.ts';
import { isoRequired } from '#src/lib/time.ts';
import { describeAudit } from './describe.ts';
import * as repo from './repo.ts';
import { withoutSecrets } from './sanitize.ts';
import type { AuditRecord as AuditRecordSchema } from './schemas.ts';

export type AuditRecord = Static<typeof AuditRecordSchema>;

/** Actions written to the audit log: every change of the admin API and the CLI. */
export type AuditAction =
  | 'API_KEY_CREATED'
  | 'API_KEY_UPDATED'
  | 'API_KEY_ROTATED'
  | 'API_KEY_REVOKED'
  | 'SERVER_CREATED'
  | 'SERVER_UPDATED'
  | 'SEASON_CREATED'
  | 'SEASON_ACTIVATED'
  | 'SEASON_UPDATED'
  | 'SEASON_ENDED'
  | 'PLAYER_UPDATED'
  | 'PLAYER_STATS_REMOVED'
  | 'PLAYER_ERASED'
  | 'PLAYER_UNBLOCKED'
  | 'STAT_UPDATED'
  | 'STATS_IMPORTED'
  | 'USER_ROLE_UPDATED'
  | 'WORKSPACE_BOOTSTRAPPED'
  | 'WORKSPACE_OWNER_BOOTSTRAPPED'
  | 'WORKSPACE_CREATED'
  | 'BOOTSTRAP_TOKEN_CREATED'
  | 'WEBHOOK_CREATED'
  | 'WEBHOOK_UPDATED'
  | 'WEBHOOK_DELETED'
  | 'WEBHOOK_SECRET_ROTATED'
  | 'REVIEW_APPROVED'
  | 'REVIEW_REJECTED'
  | 'PUBLIC_SITE_UPDATED';

/** Changes made with `npx statboard`. */
export const CLI_ACTOR: Actor = Object.freeze({ userId: null, label: 'cli', ip: null, requestId: null });

/** Changes the service makes by itself (a season starting or ending at its time). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ userId: null, label: 'system', ip: null, requestId: null });

/** What a change says about itself; the actor and the time are added by `record`. */
export interface AuditFacts {
  workspaceId: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/**
 * The append-only audit log. `record` takes the transaction of the change it describes, so both commit or
 * roll back together; secrets and hashes are stripped from before/after.
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  async record(tx: Queryable, actor: Actor, facts: AuditFacts): Promise<void> {
    await repo.insertAudit(tx, {
      workspaceId: facts.workspaceId,
      actorUserId: actor.userId,
      actorLabel: actor.label,
      action: facts.action,
      targetType: facts.targetType,
      targetId: facts.targetId,
      before: withoutSecrets(facts.before),
      after: withoutSecrets(facts.after),
      ip: actor.ip,
      requestId: actor.requestId,
    });
  }

  async list(
    workspaceId: string,
    q: { page: number; perPage: number; filter?: repo.AuditFilter },
  ): Promise<Page<AuditRecord>> {
    const offset = pageOffset(q.page, q.perPage);
    const { rows, total } = await repo.listAudit(this.db, workspaceId, q.filter ?? {}, q.perPage, offset);
    return { data: rows.map(toRecord), meta: { current_page: q.page, per_page: q.perPage, total } };
  }

  /**
   * The records matching `filter` as CSV (newest first, at most EXPORT_LIMIT rows): one line per record, with
   * `before` and `after` as JSON, then what people read (`summary`, `target_name`). A cell that a spreadsheet
   * would run as a formula is written as text.
   */
  async exportCsv(
    workspaceId: string,
    filter: repo.AuditFilter,
  ): Promise<{ csv: string; rows: number; truncated: boolean }> {
    const rows = await repo.exportAudit(this.db, workspaceId, filter, EXPORT_LIMIT + 1);
    const truncated = rows.length > EXPORT_LIMIT;
    const lines = [CSV_HEADER.join(',')];
    for (const r of rows.slice(0, EXPORT_LIMIT)) {
      const rec = toRecord(r);
      lines.push(
        [
          rec.created_at,
          rec.action,
          rec.actor.display_name ?? rec.actor.label ?? '',
          rec.actor.user_id ?? '',
          rec.target_type,
          rec.target_id ?? '',
          rec.ip ?? '',
          rec.request_id ?? '',
          rec.before === null ? '' : JSON.stringify(rec.before),
          rec.after === null ? '' : JSON.stringify(rec.after),
          rec.summary,
          rec.target_name ?? '',
        ]
          .map(csvCell)
          .join(','),
      );
    }
    return { csv: `${lines.join('\r\n')}\r\n`, rows: Math.min(rows.length, EXPORT_LIMIT), truncated };
  }
}

/** Rows of one CSV export at most. */
export const EXPORT_LIMIT = 100_000;

const CSV_HEADER = [
  'created_at',
  'action',
  'actor',
  'actor_user_id',
  'target_type',
  'target_id',
  'ip',
  'request_id',
  'before',
  'after',
  'summary',
  'target_name',
];

/** RFC 4180 quoting; a leading `=`, `+`, `-`, `@`, tab or CR is prefixed with `'` (no formula runs on open). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function toRecord(r: repo.AuditRow): AuditRecord {
  const words = describeAudit(r);
  return {
    id: r.id,
    workspace_id: r.workspace_id,
    actor: { user_id: r.actor_user_id, label: r.actor_label, display_name: r.actor_display_name },
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    target_name: words.target_name,
    summary: words.summary,
    before: r.before ?? null,
    after: r.after ?? null,
    ip: r.ip,
    request_id: r.request_id,
    created_at: isoRequired(r.created_at),
  };
}
