import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, principalOf, SESSION_COOKIE } from '#src/access/admin-guard.ts';
import type { Principal } from '#src/access/principal.ts';
import { PERMISSIONS, permissionsOf } from '#src/access/roles.ts';
import { ADMIN_DOC, adminErrors, NullableString, Uuid } from '#src/http/schemas.ts';
import { isLoopbackUrl } from '#src/lib/loopback-url.ts';
import type { ReviewService } from '#src/modules/screening/service.ts';
import type { SessionService } from '#src/modules/sessions/service.ts';
import type { SetupService } from '#src/modules/setup/service.ts';
import { Role } from '#src/modules/users/schemas.ts';
import type { UserService } from '#src/modules/users/service.ts';

export const AdminMe = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString({ format: 'email' }),
    workspace_id: Type.Union([Uuid, Type.Null()], {
      description: 'The workspace the session acts in: the one chosen (PUT /admin/me/workspace), else the oldest',
    }),
    role: Type.Union([Role, Type.Null()]),
    needs_bootstrap: Type.Boolean(),
    permissions: Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p))), {
      description: "What the role allows in that workspace (empty without a role): the console's rules",
    }),
    workspaces: Type.Array(Type.Object({ id: Uuid, name: Type.String(), slug: Type.String(), role: Role }), {
      description: 'Every workspace the user belongs to, with their role there; the oldest membership first',
    }),
    public_url: Type.String({
      description: "PUBLIC_URL: the service's address for others, as the mod's config gives it",
    }),
    public_url_loopback: Type.Boolean({
      description: "PUBLIC_URL names the machine it is used on: players' clients cannot reach it",
    }),
    open_reviews: Type.Integer({
      description:
        'Review items waiting for a decision in that workspace (held values of client uploads); 0 without one',
    }),
  },
  { $id: 'AdminMe' },
);

const ChooseWorkspaceRequest = Type.Object({ id: Uuid });

export interface MeServices {
  setup: SetupService;
  users: UserService;
  sessions: SessionService;
  review: ReviewService;
}

/**
 * `GET /admin/me`: the signed-in user, their role and its permissions in the workspace the session acts in,
 * every workspace they belong to, and the service's PUBLIC_URL (for the mod's config); `PUT /admin/me/workspace`:
 * act in another of them.
 */
export function meRoutes(
  { setup, users, sessions, review }: MeServices,
  guards: AdminGuards,
  publicUrl: string,
): FastifyPluginAsyncTypebox {
  const publicUrlLoopback = isLoopbackUrl(publicUrl);
  const me = async (p: Principal) => ({
    id: p.userId,
    display_name: p.displayName,
    email: p.email,
    workspace_id: p.workspaceId,
    role: p.role,
    needs_bootstrap: p.role === null && (await setup.needsBootstrap()),
    permissions: [...permissionsOf(p.role)],
    workspaces: await users.memberships(p.userId),
    public_url: publicUrl,
    public_url_loopback: publicUrlLoopback,
    open_reviews: p.workspaceId === null || p.role === null ? 0 : await review.openCount(p.workspaceId),
  });
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
      async (request) => me(principalOf(request)),
    );
    app.put(
      '/admin/me/workspace',
      {
        schema: {
          ...ADMIN_DOC,
          operationId: 'adminChooseWorkspace',
          summary:
            'Acts in another of your workspaces from now on (this session, and your next ones); 404 for a workspace you are not a member of',
          body: ChooseWorkspaceRequest,
          response: { 200: Type.Ref(AdminMe), ...adminErrors(400, 401, 403, 404, 422) },
        },
      },
      async (request) =>
        me(await sessions.chooseWorkspace(request.cookies[SESSION_COOKIE], request.body.id.toLowerCase())),
    );
  };
}
