import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, principalOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors, NullableString, Uuid } from '#src/http/schemas.ts';
import type { SetupService } from '#src/modules/setup/service.ts';
import { Role } from '#src/modules/users/schemas.ts';

export const AdminMe = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString({ format: 'email' }),
    workspace_id: Type.Union([Uuid, Type.Null()]),
    role: Type.Union([Role, Type.Null()]),
    needs_bootstrap: Type.Boolean(),
  },
  { $id: 'AdminMe' },
);

/** `GET /admin/me`: the signed-in user and their role (null before bootstrap or without a role). */
export function meRoutes(setup: SetupService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/me',
      {
        schema: {
          ...ADMIN_DOC,
          operationId: 'adminMe',
          summary: 'The signed-in user and their workspace role (null before bootstrap or without a role)',
          response: { 200: Type.Ref(AdminMe), ...adminErrors(401, 403) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return {
          id: p.userId,
          display_name: p.displayName,
          email: p.email,
          workspace_id: p.workspaceId,
          role: p.role,
          needs_bootstrap: p.role === null && (await setup.needsBootstrap()),
        };
      },
    );
  };
}
