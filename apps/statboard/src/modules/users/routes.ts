import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors } from '#src/http/schemas.ts';
import { AdminUser, UpdateUserRequest } from './schemas.ts';
import type { UserService } from './service.ts';

/**
 * `/admin/users`: the workspace's members and their roles; admins and owners read and change them, and give a
 * role to someone who signed in without one. Members of other workspaces are out of reach (404, as unknown).
 */
export function userRoutes(users: UserService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/users',
      {
        onRequest: guards.allow('read:users'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'listUsers',
          summary: 'The members of this workspace with their roles (users of other workspaces are never listed)',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(AdminUser)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await users.list(memberOf(request).workspaceId) }),
    );
    app.put(
      '/admin/users/:user',
      {
        onRequest: guards.allow('write:users'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'updateUserRole',
          summary:
            "Sets a user's role; only owners grant or change owner; the last owner stays (409). Reaches this " +
            "workspace's members and users without any membership; anyone else is 404, as an unknown user",
          params: Type.Object({
            user: Type.Union([Type.String({ format: 'uuid' }), Type.String({ format: 'email', maxLength: 320 })], {
              description:
                "The user's id, or the email address they signed in with when their identity provider verified it " +
                '(they must have signed in once; 409 when several users share it: use the id)',
            }),
          }),
          body: UpdateUserRequest,
          response: { 200: Type.Object({ data: Type.Ref(AdminUser) }), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const member = memberOf(request);
        const actor = { ...actorOf(request), role: member.role };
        return { data: await users.setRole(actor, member.workspaceId, request.params.user, request.body) };
      },
    );
  };
}
