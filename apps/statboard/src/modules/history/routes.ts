import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AdminGuards } from '#src/access/admin-guard.ts';
import type { KeyGuard } from '#src/access/key-guard.ts';
import { mirrorForConsole } from '#src/http/console-reads.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { sendJsonNowOrLater } from '#src/http/json-text.ts';
import { errorResponses } from '#src/http/schemas.ts';
import { PlayerParams } from '#src/modules/players/schemas.ts';
import { History, HistoryQuery } from './schemas.ts';
import type { HistoryService } from './service.ts';

const SUMMARY = "How one of a player's values changed, by hour or by day (UTC)";
const DESCRIPTION =
  'For each bucket in which the value changed, its value at the end of that bucket, oldest first. ' +
  'Default: the last 30 days by day (by hour: the last 7 days); at most 400 buckets. Points older than ' +
  "the service's HISTORY_RETENTION_DAYS are kept one per day.";

/**
 * `GET /players/{player}/stats/history`: how one value grew, by hour or by day; and its mirror for the console
 * under `/admin` when `admin` is given.
 */
export function historyRoutes(
  history: HistoryService,
  key: { guard: KeyGuard; reads: FastReads },
  admin: AdminGuards | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    key.reads.route(app, key.guard, {
      url: '/players/:player/stats/history',
      scope: 'stats:read',
      params: PlayerParams,
      querystring: HistoryQuery,
      doc: {
        tags: ['Public'],
        operationId: 'getPlayerStatHistory',
        summary: SUMMARY,
        description: DESCRIPTION,
        response: { 200: History, ...errorResponses(401, 403, 404, 422, 429) },
      },
      answer: (k, params, query) => history.historyJson(k, params.player, query),
    });
    if (admin) {
      await mirrorForConsole(
        app,
        admin,
        {
          url: '/players/:player/stats/history',
          operationId: 'adminGetPlayerStatHistory',
          summary: `${SUMMARY} (the console's view of \`GET /players/{player}/stats/history\`)`,
          description: DESCRIPTION,
          params: PlayerParams,
          querystring: HistoryQuery,
          response: History,
          errors: [404, 422],
        },
        (k, params, query, reply) => sendJsonNowOrLater(reply, history.historyJson(k, params.player, query)),
      );
    }
  };
}
