import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors, PageQuery, PaginationRef } from '#src/http/schemas.ts';
import type { AuditFilter } from './repo.ts';
import { AuditRecord } from './schemas.ts';
import { type AuditService, EXPORT_LIMIT } from './service.ts';

const AuditFilterQuery = {
  action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only this action, e.g. API_KEY_CREATED' }),
  ),
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 120, description: "Only changes by this user (id) or label (e.g. 'cli')" }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Records before this time' })),
};

function filterOf(q: { action?: string; actor?: string; from?: string; to?: string }): AuditFilter {
  return {
    action: q.action,
    actor: q.actor,
    from: q.from === undefined ? undefined : new Date(q.from),
    to: q.to === undefined ? undefined : new Date(q.to),
  };
}

/**
 * `GET /admin/audit-log`: the workspace's audit records, newest first, narrowed by action, actor and time; and
 * `GET /admin/audit-log/export`, the same as CSV. Admins and owners read them.
 */
export function auditLogRoutes(audit: AuditService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/audit-log',
      {
        onRequest: guards.allow('read:users'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'listAuditLog',
          summary: 'Audit records of the workspace, newest first (read-only), narrowed by action, actor and time',
          querystring: Type.Object({ ...PageQuery.properties, ...AuditFilterQuery }),
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref(AuditRecord)), meta: PaginationRef }),
            ...adminErrors(401, 403, 422),
          },
        },
      },
      async (request) =>
        audit.list(memberOf(request).workspaceId, {
          page: request.query.page,
          perPage: request.query.per_page,
          filter: filterOf(request.query),
        }),
    );
    app.get(
      '/admin/audit-log/export',
      {
        onRequest: guards.allow('read:users'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'exportAuditLog',
          summary: `The audit records matching the filters as CSV, newest first (at most ${EXPORT_LIMIT.toLocaleString('en-US')})`,
          description:
            'Columns: created_at, action, actor, actor_user_id, target_type, target_id, ip, request_id, before and ' +
            'after (JSON), then summary and target_name (what people read). `X-Truncated: true` when more records ' +
            'matched than the limit.',
          querystring: Type.Object(AuditFilterQuery),
          response: {
            200: {
              description: 'CSV (RFC 4180), UTF-8',
              content: { 'text/csv': { schema: Type.String() } },
            },
            ...adminErrors(401, 403, 422),
          },
        },
      },
      async (request, reply) => {
        const { csv, truncated } = await audit.exportCsv(memberOf(request).workspaceId, filterOf(request.query));
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="statboard-audit-log-${day}.csv"`)
          .header('x-truncated', String(truncated))
          .send(csv);
      },
    );
  };
}
