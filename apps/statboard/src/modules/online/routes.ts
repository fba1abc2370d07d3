import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, PlayerRef } from '#src/http/schemas.ts';
import { type KeyGuard, keyOf } from '#src/plugins/key-auth.ts';
import type { OnlineService } from './service.ts';

/** `GET /online`: public players with an open session seen in the last two minutes. */
export function onlineRoutes(online: OnlineService, guard: KeyGuard): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/online',
      {
        onRequest: guard('presence:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getOnlinePlayers',
          summary: 'Public players with an open session seen in the last two minutes',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['presence:read'],
          querystring: Type.Object({
            server: Type.Optional(
              Type.String({
                format: 'uuid',
                description: 'Only players whose open session is on this server (its id)',
              }),
            ),
          }),
          response: {
            200: Type.Object({
              data: Type.Array(
                Type.Object({
                  player: PlayerRef,
                  online: Type.Boolean(),
                  last_seen_at: Type.String({ format: 'date-time' }),
                  server: Type.Object(
                    { id: Type.String({ format: 'uuid' }), name: Type.String() },
                    { description: "The server of the player's latest open session" },
                  ),
                }),
              ),
            }),
            ...errorResponses(401, 403, 422, 429),
          },
        },
      },
      async (request) => ({ data: await online.online(keyOf(request), request.query.server) }),
    );
  };
}
