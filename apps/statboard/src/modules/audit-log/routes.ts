import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_DOC, adminErrors, PageQuery, PaginationRef } from '#src/http/schemas.ts';
import { type AdminGuards, memberOf } from '#src/plugins/session-auth.ts';
import { AuditRecord } from './schemas.ts';
import type { AuditService } from './service.ts';

/** `GET /admin/audit-log`: the workspace's audit records, newest first; admins and owners read it. */
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
          summary: 'Audit records of the workspace, newest first (read-only)',
          querystring: PageQuery,
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref(AuditRecord)), meta: PaginationRef }),
            ...adminErrors(401, 403, 422),
          },
        },
      },
      async (request) =>
        audit.list(memberOf(request).workspaceId, { page: request.query.page, perPage: request.query.per_page }),
    );
  };
}
