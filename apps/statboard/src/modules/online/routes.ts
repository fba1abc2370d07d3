import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AdminGuards } from '#src/access/admin-guard.ts';
import type { KeyGuard } from '#src/access/key-guard.ts';
import { mirrorForConsole } from '#src/http/console-reads.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { sendJsonNowOrLater } from '#src/http/json-text.ts';
import { errorResponses, PlayerRef } from '#src/http/schemas.ts';
import type { OnlineService } from './service.ts';

const OnlineQuery = Type.Object({
  server: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        "Only players whose open session is on this server (its id); outside the key's server restriction 403. Without it, a key with a server restriction lists its servers only",
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
  key: { guard: KeyGuard; reads: FastReads },
  admin: AdminGuards | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    key.reads.route(app, key.guard, {
      url: '/online',
      scope: 'presence:read',
      querystring: OnlineQuery,
      doc: {
        tags: ['Public'],
        operationId: 'getOnlinePlayers',
        summary: SUMMARY,
        response: { 200: Online, ...errorResponses(401, 403, 422, 429) },
      },
      answer: (k, _params, query) => online.json(k, query.server),
    });
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
        (k, _params, query, reply) => sendJsonNowOrLater(reply, online.json(k, query.server)),
      );
    }
  };
}
