import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, PlayerRef, SeasonRef } from '#src/http/schemas.ts';
import { PlayerParams } from '#src/modules/players/schemas.ts';
import { type KeyGuard, keyOf } from '#src/plugins/key-auth.ts';
import type { HistoryService } from './service.ts';

const Interval = Type.Union([Type.Literal('hour'), Type.Literal('day')]);

/** `GET /players/{player}/stats/history`: how one value grew, by hour or by day. */
export function historyRoutes(history: HistoryService, guard: KeyGuard): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/players/:player/stats/history',
      {
        onRequest: guard('stats:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getPlayerStatHistory',
          summary: "How one of a player's values changed, by hour or by day (UTC)",
          description:
            'For each bucket in which the value changed, its value at the end of that bucket, oldest first. ' +
            'Default: the last 30 days by day (by hour: the last 7 days); at most 400 buckets. Points older than ' +
            "the service's HISTORY_RETENTION_DAYS are kept one per day.",
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['stats:read'],
          params: PlayerParams,
          querystring: Type.Object({
            stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
            season: Type.Optional(Type.String({ description: 'Season id or slug (default: the active season)' })),
            from: Type.Optional(Type.String({ format: 'date-time', description: 'Start (its bucket is included)' })),
            to: Type.Optional(Type.String({ format: 'date-time', description: 'End, exclusive (default: now)' })),
            interval: Type.Optional({ ...Interval, default: 'day' }),
          }),
          response: {
            200: Type.Object({
              player: PlayerRef,
              season: SeasonRef,
              stat: Type.String(),
              interval: Interval,
              points: Type.Array(
                Type.Object({
                  at: Type.String({ format: 'date-time', description: "The bucket's start" }),
                  value: Type.Number({ description: 'The value at the end of the bucket' }),
                }),
              ),
            }),
            ...errorResponses(401, 403, 404, 422, 429),
          },
        },
      },
      async (request) => history.history(keyOf(request), request.params.player, request.query),
    );
  };
}
