import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AdminGuards, actorOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors } from '#src/http/schemas.ts';
import { BootstrapRequest, BootstrapResponse } from './schemas.ts';
import type { SetupService } from './service.ts';

/** `POST /setup/bootstrap`: a signed-in user with a bootstrap token creates the first workspace and owns it. */
export function setupRoutes(setup: SetupService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.post(
      '/setup/bootstrap',
      {
        schema: {
          ...ADMIN_DOC,
          operationId: 'bootstrap',
          summary: 'Creates the first workspace with a bootstrap token; the caller becomes its owner',
          body: BootstrapRequest,
          response: { 201: BootstrapResponse, ...adminErrors(400, 401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const ws = await setup.bootstrap({ ...actor, userId: actor.userId! }, request.body);
        reply.code(201);
        return { data: { workspace_id: ws.id, role: 'owner' as const } };
      },
    );
  };
}
