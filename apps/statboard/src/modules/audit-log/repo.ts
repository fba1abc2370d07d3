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
  /** The target's name today, for targets the record may not name itself (users, seasons); else null. */
  current_name: string | null;
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

/** What the audit log is narrowed to; every part optional. */
export interface AuditFilter {
  action?: string | undefined;
  /** A user's id, or a label such as `cli`. */
  actor?: string | undefined;
  /** Records at or after this time. */
  from?: Date | undefined;
  /** Records before this time. */
  to?: Date | undefined;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `WHERE …` of the workspace's records narrowed by `f`, with its parameters after `first`. */
function auditWhere(workspaceId: string, f: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [workspaceId];
  const parts = ['a.workspace_id = $1'];
  if (f.action !== undefined) {
    params.push(f.action);
    parts.push(`a.action = $${params.length}`);
  }
  if (f.actor !== undefined) {
    params.push(f.actor);
    parts.push(
      UUID_RE.test(f.actor) ? `a.actor_user_id = $${params.length}::uuid` : `a.actor_label = $${params.length}`,
    );
  }
  if (f.from !== undefined) {
    params.push(f.from);
    parts.push(`a.created_at >= $${params.length}`);
  }
  if (f.to !== undefined) {
    params.push(f.to);
    parts.push(`a.created_at < $${params.length}`);
  }
  return { where: parts.join(' AND '), params };
}

const AUDIT_COLUMNS = `a.id, a.workspace_id, a.actor_user_id, a.actor_label, u.display_name AS actor_display_name,
             a.action, a.target_type, a.target_id, a.before, a.after, a.ip, a.request_id, a.created_at,
             coalesce(tu.email, tu.display_name, ts.name) AS current_name`;

/**
 * The records with their actor, and the target's name today where the record may not carry one: a user (a
 * bootstrap redeemed keeps only ids) and a season (an import keeps only counts).
 */
const AUDIT_FROM = `audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
           LEFT JOIN users tu ON a.target_type = 'user' AND tu.id::text = a.target_id
           LEFT JOIN seasons ts ON a.target_type = 'season' AND ts.workspace_id = a.workspace_id
             AND ts.id::text = a.target_id`;

/** A page of the workspace's records (newest first) matching `filter`, and how many match. */
export async function listAudit(
  db: Queryable,
  workspaceId: string,
  filter: AuditFilter,
  limit: number,
  offset: number | null,
): Promise<{ rows: AuditRow[]; total: number }> {
  const { where, params } = auditWhere(workspaceId, filter);
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a WHERE ${where}`, params),
    offset === null
      ? Promise.resolve([])
      : db.query<AuditRow>(
          `SELECT ${AUDIT_COLUMNS}
           FROM ${AUDIT_FROM}
           WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, limit, offset],
        ),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** At most `limit` records matching `filter`, newest first (the CSV export). */
export function exportAudit(
  db: Queryable,
  workspaceId: string,
  filter: AuditFilter,
  limit: number,
): Promise<AuditRow[]> {
  const { where, params } = auditWhere(workspaceId, filter);
  return db.query<AuditRow>(
    `SELECT ${AUDIT_COLUMNS}
     FROM ${AUDIT_FROM}
     WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1}`,
    [...params, limit],
  );
}
