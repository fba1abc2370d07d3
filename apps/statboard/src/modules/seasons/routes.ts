import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, SeasonRef } from '#src/http/schemas.ts';
import { keyOf, requireKey } from '#src/plugins/key-auth.ts';
import type { Services } from '#src/services.ts';

export function seasonRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/seasons',
      {
        onRequest: requireKey(services.keys, 'stats:read'),
        schema: {
          tags: ['Public'],
          operationId: 'listSeasons',
          summary: 'Seasons visible to the key (only its restricted seasons when it has a season restriction)',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['stats:read'],
          response: { 200: Type.Object({ data: Type.Array(SeasonRef) }), ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => {
        const key = keyOf(request);
        return { data: await services.seasons.list(key.workspaceId, key.seasons.length > 0 ? key.seasons : null) };
      },
    );
  };
}
