import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { mirrorForConsole } from '#src/http/console-reads.ts';
import { errorResponses, PlayerRef } from '#src/http/schemas.ts';
import { type KeyGuard, keyOf } from '#src/plugins/key-auth.ts';
import type { AdminGuards } from '#src/plugins/session-auth.ts';
import type { OnlineService } from './service.ts';

const OnlineQuery = Type.Object({
  server: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Only players whose open session is on this server (its id)',
    }),
  ),
});

const Online = Type.Object({
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
});

const SUMMARY = 'Public players with an open session seen in the last two minutes';

/**
 * `GET /online`: public players with an open session seen in the last two minutes; and its mirror for the
 * console under `/admin` when `admin` is given.
 */
export function onlineRoutes(
  online: OnlineService,
  guard: KeyGuard,
  admin: AdminGuards | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/online',
      {
        onRequest: guard('presence:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getOnlinePlayers',
          summary: SUMMARY,
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['presence:read'],
          querystring: OnlineQuery,
          response: { 200: Online, ...errorResponses(401, 403, 422, 429) },
        },
      },
      async (request) => ({ data: await online.online(keyOf(request), request.query.server) }),
    );
    if (admin) {
      await mirrorForConsole(
        app,
        admin,
        {
          url: '/online',
          operationId: 'adminGetOnlinePlayers',
          summary: `${SUMMARY} (the console's view of \`GET /online\`)`,
          querystring: OnlineQuery,
          response: Online,
          errors: [422],
        },
        async (k, _params, query) => ({ data: await online.online(k, query.server) }),
      );
    }
  };
}
