import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, PlayerRef } from '#src/http/schemas.ts';
import { keyOf, requireKey } from '#src/plugins/key-auth.ts';
import type { Services } from '#src/services.ts';

export function presenceRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/online',
      {
        onRequest: requireKey(services.keys, 'presence:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getOnlinePlayers',
          summary: 'Public players with an open session seen in the last two minutes',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['presence:read'],
          response: {
            200: Type.Object({
              data: Type.Array(
                Type.Object({
                  player: PlayerRef,
                  online: Type.Boolean(),
                  last_seen_at: Type.String({ format: 'date-time' }),
                }),
              ),
            }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (request) => ({ data: await services.presence.online(keyOf(request)) }),
    );
  };
}
