import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '#src/config.ts';
import { principalOf, requireSession } from '#src/plugins/session-auth.ts';
import type { Services } from '#src/services.ts';
import { adminErrors, BootstrapRequest, BootstrapResponse, Security } from './schemas.ts';

/**
 * `POST /setup/bootstrap` (DECISIONS): a signed-in user with a valid bootstrap token creates the first
 * workspace and becomes its owner. The BootstrapService makes it single-use and race-free; the owner
 * membership and the audit record commit in the same transaction.
 */
export function bootstrapRoutes(services: Services, config: Config): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/setup/bootstrap',
      {
        onRequest: requireSession(services, config),
        schema: {
          tags: ['Admin'],
          operationId: 'bootstrap',
          summary: 'Creates the first workspace with a bootstrap token; the caller becomes its owner',
          security: Security,
          body: BootstrapRequest,
          response: {
            201: BootstrapResponse,
            ...adminErrors(400, 401, 403, 409, 422),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const ws = await services.bootstrap.bootstrap(
          request.body.token,
          request.body.workspace_name,
          async (tx, ws) => {
            await services.users.addOwner(tx, ws.id, p.userId);
            await services.audit.record(tx, {
              workspaceId: ws.id,
              actorUserId: p.userId,
              action: 'WORKSPACE_BOOTSTRAPPED',
              targetType: 'workspace',
              targetId: ws.id,
              before: null,
              after: { ...ws, owner_user_id: p.userId },
              ip: request.ip,
              requestId: request.id,
            });
          },
        );
        reply.code(201);
        return { data: { workspace_id: ws.id, role: 'owner' as const } };
      },
    );
  };
}
