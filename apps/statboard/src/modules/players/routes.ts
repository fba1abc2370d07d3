import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sendJsonNowOrLater } from '#src/http/json-text.ts';
import { errorResponses, PaginationRef, PlayerRef, SeasonRef } from '#src/http/schemas.ts';
import { keyOf, requireKey } from '#src/plugins/key-auth.ts';
import type { Services } from '#src/services.ts';

const PlayerParams = Type.Object({ player: Type.String({ format: 'uuid', description: 'Game player UUID' }) });

export function playerRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/players',
      {
        onRequest: requireKey(services.keys, 'players:read'),
        schema: {
          tags: ['Public'],
          operationId: 'listPlayers',
          summary: 'Public players the key may read',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['players:read'],
          querystring: Type.Object({
            search: Type.Optional(Type.String({ maxLength: 64, description: 'Case-insensitive username substring' })),
            // Ajv's integer check lets `Infinity` through (a 500 when the page is echoed): bound it.
            page: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 }),
            per_page: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
            season: Type.Optional(
              Type.String({ description: 'Accepted for compatibility; players are not per season' }),
            ),
          }),
          response: {
            200: Type.Object({ data: Type.Array(PlayerRef), meta: PaginationRef }),
            ...errorResponses(401, 403, 422, 429),
          },
        },
      },
      async (request) =>
        services.players.list(keyOf(request), {
          search: request.query.search,
          page: request.query.page,
          perPage: request.query.per_page,
        }),
    );

    app.get(
      '/players/:player',
      {
        onRequest: requireKey(services.keys, 'players:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getPlayer',
          summary: 'One public player (a bare Player)',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['players:read'],
          params: PlayerParams,
          response: { 200: PlayerRef, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => services.players.get(keyOf(request), request.params.player),
    );

    app.get(
      '/players/:player/stats',
      {
        onRequest: requireKey(services.keys, 'stats:read'),
        schema: {
          tags: ['Public'],
          operationId: 'getPlayerStats',
          summary: "A player's statistics in a season (default: the active season)",
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['stats:read'],
          params: PlayerParams,
          querystring: Type.Object({ season: Type.Optional(Type.String({ description: 'Season id or slug' })) }),
          response: {
            200: Type.Object({
              player: PlayerRef,
              season: SeasonRef,
              stats: Type.Array(
                Type.Object({
                  key: Type.String(),
                  value: Type.Number(),
                  updated_at: Type.String({ format: 'date-time' }),
                }),
              ),
            }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      // Answered without a promise when the answer is cached (the hot path); otherwise built, or refused.
      (request, reply) =>
        sendJsonNowOrLater(
          reply,
          services.players.statsJson(keyOf(request), request.params.player, request.query.season),
        ),
    );
  };
}
