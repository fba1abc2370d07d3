import type { Db, Queryable } from '#src/db/types.ts';
import { isoRequired } from '#src/lib/time.ts';
import type { Page } from '#src/modules/players/service.ts';
import * as repo from './repo.ts';
import { withoutSecrets } from './sanitize.ts';

/** Actions written to the audit log (DECISIONS: every admin change). */
export type AuditAction =
  | 'API_KEY_CREATED'
  | 'API_KEY_UPDATED'
  | 'API_KEY_ROTATED'
  | 'API_KEY_REVOKED'
  | 'SERVER_CREATED'
  | 'SERVER_UPDATED'
  | 'SEASON_CREATED'
  | 'SEASON_ACTIVATED'
  | 'PLAYER_UPDATED'
  | 'STAT_UPDATED'
  | 'USER_ROLE_UPDATED'
  | 'WORKSPACE_BOOTSTRAPPED'
  | 'WORKSPACE_CREATED'
  | 'BOOTSTRAP_TOKEN_CREATED';

export interface AuditEntry {
  workspaceId: string | null;
  /** The signed-in user, or null for the CLI (then `actorLabel: 'cli'`). */
  actorUserId: string | null;
  actorLabel?: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  requestId?: string | null;
}

/** An audit record as `GET /admin/audit-log` shows it. */
export interface AuditRecord {
  id: string;
  workspace_id: string | null;
  actor: { user_id: string | null; label: string | null; display_name: string | null };
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  request_id: string | null;
  created_at: string;
}

/**
 * The append-only audit log. `record` takes the transaction of the change it describes, so both commit or
 * roll back together; secrets and hashes are stripped from before/after.
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  async record(db: Queryable, entry: AuditEntry): Promise<string> {
    return repo.insertAudit(db, {
      workspaceId: entry.workspaceId,
      actorUserId: entry.actorUserId,
      actorLabel: entry.actorLabel ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      before: withoutSecrets(entry.before ?? null),
      after: withoutSecrets(entry.after ?? null),
      ip: entry.ip ?? null,
      requestId: entry.requestId ?? null,
    });
  }

  async list(workspaceId: string, q: { page: number; perPage: number }): Promise<Page<AuditRecord>> {
    const offset = (q.page - 1) * q.perPage;
    const { rows, total } = await repo.listAudit(
      this.db,
      workspaceId,
      q.perPage,
      Number.isSafeInteger(offset) && offset < 2 ** 31 ? offset : null,
    );
    return {
      data: rows.map((r) => ({
        id: r.id,
        workspace_id: r.workspace_id,
        actor: { user_id: r.actor_user_id, label: r.actor_label, display_name: r.actor_display_name },
        action: r.action,
        target_type: r.target_type,
        target_id: r.target_id,
        before: r.before ?? null,
        after: r.after ?? null,
        ip: r.ip,
        request_id: r.request_id,
        created_at: isoRequired(r.created_at),
      })),
      meta: { current_page: q.page, per_page: q.perPage, total },
    };
  }
}
