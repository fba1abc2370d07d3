import type { Queryable } from '#src/db/types.ts';

export interface AuditRow {
  id: string;
  workspace_id: string | null;
  actor_user_id: string | null;
  actor_label: string | null;
  actor_display_name: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  request_id: string | null;
  created_at: Date;
}

export interface AuditWrite {
  workspaceId: string | null;
  actorUserId: string | null;
  actorLabel: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  requestId: string | null;
}

export async function insertAudit(db: Queryable, e: AuditWrite): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO audit_log (workspace_id, actor_user_id, actor_label, action, target_type, target_id, before, after,
       ip, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10) RETURNING id`,
    [
      e.workspaceId,
      e.actorUserId,
      e.actorLabel,
      e.action,
      e.targetType,
      e.targetId,
      e.before === null ? null : JSON.stringify(e.before),
      e.after === null ? null : JSON.stringify(e.after),
      e.ip,
      e.requestId,
    ],
  );
  return rows[0]!.id;
}

export async function listAudit(
  db: Queryable,
  workspaceId: string,
  limit: number,
  offset: number | null,
): Promise<{ rows: AuditRow[]; total: number }> {
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = $1', [workspaceId]),
    offset === null
      ? Promise.resolve([])
      : db.query<AuditRow>(
          `SELECT a.id, a.workspace_id, a.actor_user_id, a.actor_label, u.display_name AS actor_display_name,
             a.action, a.target_type, a.target_id, a.before, a.after, a.ip, a.request_id, a.created_at
           FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
           WHERE a.workspace_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2 OFFSET $3`,
          [workspaceId, limit, offset],
        ),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
