import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import type { KeyGuard } from '#src/access/key-guard.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { ADMIN_DOC, adminErrors, errorResponses } from '#src/http/schemas.ts';
import { PublicStat, StatDefinition, UpdateStatRequest } from './schemas.ts';
import type { StatDefinitionService } from './service.ts';

/** `/admin/stats`: statistic definitions; every role reads, analysts and up change them. */
export function statRoutes(stats: StatDefinitionService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/stats',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'adminListStats',
          summary: 'Statistic definitions, public or not, by key',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(StatDefinition)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await stats.list(memberOf(request).workspaceId) }),
    );
    app.put(
      '/admin/stats/:key',
      {
        onRequest: guards.allow('write:players'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'adminUpdateStat',
          summary:
            "Changes a statistic's visibility, display name, unit or sort order (omitted fields are kept; a null " +
            'name or unit goes back to the default)',
          params: Type.Object({
            key: Type.String({ minLength: 1, maxLength: 255, description: "The statistic's key, or its id" }),
          }),
          body: UpdateStatRequest,
          response: {
            200: Type.Object({ data: Type.Ref(StatDefinition) }),
            ...adminErrors(400, 401, 403, 404, 422),
          },
        },
      },
      async (request) => ({
        data: await stats.update(actorOf(request), memberOf(request).workspaceId, request.params.key, request.body),
      }),
    );
  };
}

/** `GET /stats`: the public statistic definitions, for websites building pickers and labels. */
export function publicStatRoutes(
  stats: StatDefinitionService,
  key: { guard: KeyGuard; reads: FastReads },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    key.reads.route(app, key.guard, {
      url: '/stats',
      scope: 'stats:read',
      doc: {
        tags: ['Public'],
        operationId: 'listStats',
        summary: 'Public statistics: key, display name, category, sort order and unit, by key',
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(PublicStat)) }), ...errorResponses(401, 403, 429) },
      },
      answer: (k) => stats.publicJson(k.workspaceId),
    });
  };
}
