import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_DOC, adminErrors, NullableString, Uuid } from '#src/http/schemas.ts';
import { isLoopbackUrl } from '#src/lib/loopback-url.ts';
import type { SetupService } from '#src/modules/setup/service.ts';
import { Role } from '#src/modules/users/schemas.ts';
import { type AdminGuards, principalOf } from '#src/plugins/session-auth.ts';

export const AdminMe = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString({ format: 'email' }),
    workspace_id: Type.Union([Uuid, Type.Null()]),
    role: Type.Union([Role, Type.Null()]),
    needs_bootstrap: Type.Boolean(),
    public_url: Type.String({
      description: "PUBLIC_URL: the service's address for others, as the mod's config gives it",
    }),
    public_url_loopback: Type.Boolean({
      description: "PUBLIC_URL names the machine it is used on: players' clients cannot reach it",
    }),
  },
  { $id: 'AdminMe' },
);

/** `GET /admin/me`: the signed-in user and their role (null before bootstrap or without a role). */
export function meRoutes(setup: SetupService, guards: AdminGuards, publicUrl: string): FastifyPluginAsyncTypebox {
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
          public_url: publicUrl,
          public_url_loopback: isLoopbackUrl(publicUrl),
        };
      },
    );
  };
}
