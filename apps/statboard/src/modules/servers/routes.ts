import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors } from '#src/http/schemas.ts';
import { Server, ServerRequest } from './schemas.ts';
import type { ServerService } from './service.ts';

const ServerParams = Type.Object({ server: Type.String({ format: 'uuid' }) });

/** `/admin/servers`: list (every role), create and replace (admin and owner). */
export function serverRoutes(servers: ServerService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    const write = guards.allow('write:config');
    app.get(
      '/admin/servers',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'listServers',
          summary: 'Registered game servers',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(Server)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await servers.list(memberOf(request).workspaceId) }),
    );
    app.post(
      '/admin/servers',
      {
        onRequest: write,
        schema: {
          ...ADMIN_DOC,
          operationId: 'createServer',
          summary: 'Registers a server; (hostname, port) is unique per workspace',
          body: ServerRequest,
          response: { 201: Type.Object({ data: Type.Ref(Server) }), ...adminErrors(400, 401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return { data: await servers.create(actorOf(request), memberOf(request).workspaceId, request.body) };
      },
    );
    app.put(
      '/admin/servers/:server',
      {
        onRequest: write,
        schema: {
          ...ADMIN_DOC,
          operationId: 'updateServer',
          summary: 'Replaces a server (name, display_name, hostname, port, enabled)',
          params: ServerParams,
          body: ServerRequest,
          response: { 200: Type.Object({ data: Type.Ref(Server) }), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => ({
        data: await servers.update(
          actorOf(request),
          memberOf(request).workspaceId,
          request.params.server,
          request.body,
        ),
      }),
    );
  };
}
