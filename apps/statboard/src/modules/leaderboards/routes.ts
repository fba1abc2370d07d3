import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastReads } from '#src/http/fast-reads.ts';
import { errorResponses, PlayerRef, SeasonRef } from '#src/http/schemas.ts';
import type { KeyGuard } from '#src/plugins/key-auth.ts';
import type { LeaderboardService } from './service.ts';

const LeaderboardQuery = Type.Object({
  season: Type.String({ minLength: 1, description: 'Season id or slug' }),
  stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
  limit: Type.Optional(Type.Integer({ default: 10, description: 'Clamped to 1–100' })),
});

/** `GET /leaderboards`: a cached read (answered on the fast path when cached). */
export function leaderboardRoutes(
  leaderboards: LeaderboardService,
  key: { guard: KeyGuard; reads: FastReads },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    key.reads.route(app, key.guard, {
      url: '/leaderboards',
      scope: 'leaderboards:read',
      querystring: LeaderboardQuery,
      doc: {
        tags: ['Public'],
        operationId: 'listLeaderboards',
        summary: 'Ranked values of one public statistic in a season',
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
      answer: (k, _params, query) => leaderboards.json(k, query),
    });
  };
}
