import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sendJsonNowOrLater } from '#src/http/json-text.ts';
import { errorResponses, PlayerRef, SeasonRef } from '#src/http/schemas.ts';
import { keyOf, requireKey } from '#src/plugins/key-auth.ts';
import type { Services } from '#src/services.ts';

export function leaderboardRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/leaderboards',
      {
        onRequest: requireKey(services.keys, 'leaderboards:read'),
        schema: {
          tags: ['Public'],
          operationId: 'listLeaderboards',
          summary: 'Ranked values of one public statistic in a season',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['leaderboards:read'],
          querystring: Type.Object({
            season: Type.String({ minLength: 1, description: 'Season id or slug' }),
            stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
            limit: Type.Optional(Type.Integer({ default: 10, description: 'Clamped to 1–100' })),
          }),
          response: {
            200: Type.Object({
              season: SeasonRef,
              stat: Type.String(),
              entries: Type.Array(
                Type.Object({
                  rank: Type.Integer({ description: 'Competition rank: 1, 2, 2, 4' }),
                  player: PlayerRef,
                  value: Type.Number(),
                  updated_at: Type.String({ format: 'date-time' }),
                }),
              ),
            }),
            ...errorResponses(401, 403, 404, 422, 429),
          },
        },
      },
      // Answered without a promise when the answer is cached (the hot path); otherwise built, or refused.
      (request, reply) => sendJsonNowOrLater(reply, services.leaderboards.json(keyOf(request), request.query)),
    );
  };
}
