import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import type { KeyGuard } from '#src/access/key-guard.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { ADMIN_DOC, adminErrors, errorResponses, SeasonRef } from '#src/http/schemas.ts';
import { CreateSeasonRequest, UpdateSeasonRequest } from './schemas.ts';
import type { SeasonService } from './service.ts';

const SeasonParams = Type.Object({
  season: Type.String({ minLength: 1, maxLength: 255, description: 'id or slug' }),
});

/**
 * `GET /seasons` for keys; `/admin/seasons` to list (every role), create, change and activate (admin and owner).
 */
export function seasonRoutes(
  seasons: SeasonService,
  guards: { key: { guard: KeyGuard; reads: FastReads }; admin: AdminGuards },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    guards.key.reads.route(app, guards.key.guard, {
      url: '/seasons',
      scope: 'stats:read',
      doc: {
        tags: ['Public'],
        operationId: 'listSeasons',
        summary: 'Seasons visible to the key (only its restricted seasons when it has a season restriction)',
        response: { 200: Type.Object({ data: Type.Array(SeasonRef) }), ...errorResponses(401, 403, 429) },
      },
      answer: (k) => seasons.listJson(k),
    });

    await app.register(async (instance) => {
      const admin = instance.withTypeProvider<TypeBoxTypeProvider>();
      await guards.admin.enter(admin);
      const write = guards.admin.allow('write:config');
      admin.get(
        '/admin/seasons',
        {
          onRequest: guards.admin.allow('read'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminListSeasons',
            summary: 'Seasons of the workspace',
            response: { 200: Type.Object({ data: Type.Array(SeasonRef) }), ...adminErrors(401, 403) },
          },
        },
        async (request) => ({ data: await seasons.list(memberOf(request).workspaceId) }),
      );
      admin.post(
        '/admin/seasons',
        {
          onRequest: write,
          schema: {
            ...ADMIN_DOC,
            operationId: 'createSeason',
            summary: 'Creates a season (active: true also activates it)',
            body: CreateSeasonRequest,
            response: { 201: Type.Object({ data: SeasonRef }), ...adminErrors(400, 401, 403, 409, 422) },
          },
        },
        async (request, reply) => {
          reply.code(201);
          return { data: await seasons.create(actorOf(request), memberOf(request).workspaceId, request.body) };
        },
      );
      admin.put(
        '/admin/seasons/:season',
        {
          onRequest: write,
          schema: {
            ...ADMIN_DOC,
            operationId: 'updateSeason',
            summary:
              'Changes a season (by id or slug): the fields given replace its own (a null time clears it); its scoring applies to every read at once',
            params: SeasonParams,
            body: UpdateSeasonRequest,
            response: { 200: Type.Object({ data: SeasonRef }), ...adminErrors(400, 401, 403, 404, 409, 422) },
          },
        },
        async (request) => ({
          data: await seasons.update(
            actorOf(request),
            memberOf(request).workspaceId,
            request.params.season,
            request.body,
          ),
        }),
      );
      admin.post(
        '/admin/seasons/:season/activate',
        {
          onRequest: write,
          schema: {
            ...ADMIN_DOC,
            operationId: 'activateSeason',
            summary: 'Activates a season (by id or slug); the previously active one is deactivated',
            params: SeasonParams,
            response: { 200: Type.Object({ data: SeasonRef }), ...adminErrors(401, 403, 404) },
          },
        },
        async (request) => ({
          data: await seasons.activate(actorOf(request), memberOf(request).workspaceId, request.params.season),
        }),
      );
    });
  };
}
