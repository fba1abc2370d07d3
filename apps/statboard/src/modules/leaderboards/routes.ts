import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AdminGuards } from '#src/access/admin-guard.ts';
import type { KeyGuard } from '#src/access/key-guard.ts';
import { mirrorForConsole } from '#src/http/console-reads.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { sendJsonNowOrLater } from '#src/http/json-text.ts';
import { errorResponses } from '#src/http/schemas.ts';
import { Leaderboard, LeaderboardQuery, Rank, RankQuery } from './schemas.ts';
import type { LeaderboardService } from './service.ts';

/**
 * `GET /leaderboards` and `/leaderboards/rank`: cached reads (answered on the fast path when cached), and their
 * mirrors for the console under `/admin` when `admin` is given.
 */
export function leaderboardRoutes(
  leaderboards: LeaderboardService,
  key: { guard: KeyGuard; reads: FastReads },
  admin: AdminGuards | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const summary = 'Ranked values of one public statistic in a season';
    key.reads.route(app, key.guard, {
      url: '/leaderboards',
      scope: 'leaderboards:read',
      querystring: LeaderboardQuery,
      doc: {
        tags: ['Public'],
        operationId: 'listLeaderboards',
        summary,
        response: { 200: Leaderboard, ...errorResponses(401, 403, 404, 422, 429) },
      },
      answer: (k, _params, query) => leaderboards.json(k, query),
    });

    const rankSummary = "A player's rank in a leaderboard and the entries around it";
    key.reads.route(app, key.guard, {
      url: '/leaderboards/rank',
      scope: 'leaderboards:read',
      querystring: RankQuery,
      doc: {
        tags: ['Public'],
        operationId: 'getLeaderboardRank',
        summary: rankSummary,
        response: { 200: Rank, ...errorResponses(401, 403, 404, 422, 429) },
      },
      answer: (k, _params, query) => leaderboards.rankJson(k, query),
    });

    if (admin) {
      await mirrorForConsole(
        app,
        admin,
        {
          url: '/leaderboards',
          operationId: 'adminListLeaderboards',
          summary: `${summary} (the console's view of \`GET /leaderboards\`)`,
          querystring: LeaderboardQuery,
          response: Leaderboard,
          errors: [404, 422],
        },
        (k, _params, query, reply) => sendJsonNowOrLater(reply, leaderboards.json(k, query)),
      );
      await mirrorForConsole(
        app,
        admin,
        {
          url: '/leaderboards/rank',
          operationId: 'adminGetLeaderboardRank',
          summary: `${rankSummary} (the console's view of \`GET /leaderboards/rank\`)`,
          querystring: RankQuery,
          response: Rank,
          errors: [404, 422],
        },
        (k, _params, query, reply) => sendJsonNowOrLater(reply, leaderboards.rankJson(k, query)),
      );
    }
  };
}
