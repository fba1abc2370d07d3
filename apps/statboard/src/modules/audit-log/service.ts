import type { Static } from '@sinclair/typebox';
import type { Db, Queryable } from '#src/db/types.ts';
import { type Page, pageOffset } from '#src/lib/page.ts';
import { isoRequired } from '#src/lib/time.ts';
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
  | 'PLAYER_UPDATED'
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
  | 'WEBHOOK_SECRET_ROTATED';

/**
 * Who makes a change, and through which request: a signed-in user over HTTP, or a label such as `cli` where
 * there is no user. Every change operation of the services takes one and writes it into its audit record.
 */
export interface Actor {
  userId: string | null;
  label: string | null;
  ip: string | null;
  requestId: string | null;
}

/** Changes made with `npx statboard`. */
export const CLI_ACTOR: Actor = Object.freeze({ userId: null, label: 'cli', ip: null, requestId: null });

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

  async list(workspaceId: string, q: { page: number; perPage: number }): Promise<Page<AuditRecord>> {
    const { rows, total } = await repo.listAudit(this.db, workspaceId, q.perPage, pageOffset(q.page, q.perPage));
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
