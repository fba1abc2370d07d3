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
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      default: 0,
      description: 'Entries skipped (0–10000); ranks stay ranks of the whole board',
    }),
  ),
});

const RankQuery = Type.Object({
  season: Type.String({ minLength: 1, description: 'Season id or slug' }),
  stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
  player: Type.String({ format: 'uuid', description: 'Game player UUID' }),
  around: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 50, default: 5, description: 'Entries shown above and below the player' }),
  ),
});

const Entry = Type.Object({
  rank: Type.Integer({ description: 'Competition rank: 1, 2, 2, 4' }),
  player: PlayerRef,
  value: Type.Number(),
  updated_at: Type.String({ format: 'date-time' }),
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
            entries: Type.Array(Entry),
          }),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
      answer: (k, _params, query) => leaderboards.json(k, query),
    });

    key.reads.route(app, key.guard, {
      url: '/leaderboards/rank',
      scope: 'leaderboards:read',
      querystring: RankQuery,
      doc: {
        tags: ['Public'],
        operationId: 'getLeaderboardRank',
        summary: "A player's rank in a leaderboard and the entries around it",
        response: {
          200: Type.Object({
            season: SeasonRef,
            stat: Type.String(),
            total: Type.Integer({ description: 'Public players with a value' }),
            entry: Entry,
            entries: Type.Array(Entry, {
              description: 'Up to `around` entries above the player, its own, and up to `around` below, in order',
            }),
          }),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
      answer: (k, _params, query) => leaderboards.rankJson(k, query),
    });
  };
}
