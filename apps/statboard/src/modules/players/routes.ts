import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { type KeyGuard, keyOf } from '#src/access/key-guard.ts';
import { mirrorForConsole } from '#src/http/console-reads.ts';
import type { FastReads } from '#src/http/fast-reads.ts';
import { sendJsonNowOrLater, sendJsonText } from '#src/http/json-text.ts';
import { ADMIN_DOC, adminErrors, errorResponses, PlayerRef } from '#src/http/schemas.ts';
import type { PlayerAdminService } from './admin-service.ts';
import type { PlayerErasure } from './erasure.ts';
import {
  AdminPlayer,
  ErasePlayerQuery,
  PlayerBlock,
  PlayerListQuery,
  PlayerListResponse,
  PlayerParams,
  PlayerStatsQuery,
  PlayerStatsResponse,
  RemovePlayerStatsQuery,
  RemovePlayerStatsResponse,
  UpdatePlayerRequest,
} from './schemas.ts';
import type { PlayerService } from './service.ts';

export interface PlayerRouteDeps {
  players: PlayerService;
  playerAdmin: PlayerAdminService;
  erasure: PlayerErasure;
  key: { guard: KeyGuard; reads: FastReads };
  admin: AdminGuards;
}

/**
 * `/players…` for keys; `/admin/players` to list (every role) and to set visibility (analyst and up); corrections
 * (admin and owner) and erasure (owner).
 */
export function playerRoutes({
  players,
  playerAdmin,
  erasure,
  key,
  admin,
}: PlayerRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    key.reads.route(app, key.guard, {
      url: '/players',
      scope: 'players:read',
      querystring: PlayerListQuery,
      doc: {
        tags: ['Public'],
        operationId: 'listPlayers',
        summary: 'Public players the key may read',
        response: { 200: PlayerListResponse, ...errorResponses(401, 403, 422, 429) },
      },
      answer: (k, _params, query) =>
        players.listJson(k, {
          search: query.search,
          username: query.username,
          page: query.page,
          perPage: query.per_page,
        }),
    });

    app.get(
      '/players/:player',
      {
        onRequest: key.guard('players:read'),
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
      async (request) => players.get(keyOf(request), request.params.player),
    );

    const statsSummary = "A player's statistics in a season (default: the active season)";
    key.reads.route(app, key.guard, {
      url: '/players/:player/stats',
      scope: 'stats:read',
      params: PlayerParams,
      querystring: PlayerStatsQuery,
      doc: {
        tags: ['Public'],
        operationId: 'getPlayerStats',
        summary: statsSummary,
        response: { 200: PlayerStatsResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
      answer: (k, params, query) => players.statsJson(k, params.player, query.season, query.server),
    });
    await mirrorForConsole(
      app,
      admin,
      {
        url: '/players/:player/stats',
        operationId: 'adminGetPlayerStats',
        summary: `${statsSummary} (the console's view of \`GET /players/{player}/stats\`)`,
        params: PlayerParams,
        querystring: PlayerStatsQuery,
        response: PlayerStatsResponse,
        errors: [404, 422],
      },
      (k, params, query, reply) =>
        sendJsonNowOrLater(reply, players.statsJson(k, params.player, query.season, query.server)),
    );

    await app.register(async (instance) => {
      const scope = instance.withTypeProvider<TypeBoxTypeProvider>();
      await admin.enter(scope);
      scope.get(
        '/admin/players',
        {
          onRequest: admin.allow('read'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminListPlayers',
            summary: 'Players of the workspace, public or not (at most 500)',
            querystring: Type.Object({
              search: Type.Optional(Type.String({ maxLength: 64, description: 'Username substring or exact UUID' })),
            }),
            response: { 200: Type.Object({ data: Type.Array(Type.Ref(AdminPlayer)) }), ...adminErrors(401, 403, 422) },
          },
        },
        // Up to 500 records, rendered by the database as the schema's serializer would write them.
        async (request, reply) =>
          sendJsonText(reply, await playerAdmin.listJson(memberOf(request).workspaceId, request.query.search)),
      );
      scope.put(
        '/admin/players/:player',
        {
          onRequest: admin.allow('write:players'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminUpdatePlayer',
            summary: "Sets a player's visibility (player: game UUID or id)",
            params: Type.Object({ player: Type.String({ format: 'uuid' }) }),
            body: UpdatePlayerRequest,
            response: { 200: Type.Object({ data: Type.Ref(AdminPlayer) }), ...adminErrors(400, 401, 403, 404, 422) },
          },
        },
        async (request) => ({
          data: await playerAdmin.update(
            actorOf(request),
            memberOf(request).workspaceId,
            request.params.player,
            request.body,
          ),
        }),
      );
      const playerParams = Type.Object({ player: Type.String({ format: 'uuid', description: 'Game UUID or id' }) });
      scope.delete(
        '/admin/players/:player/stats',
        {
          onRequest: admin.allow('remove:values'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminRemovePlayerStats',
            summary:
              "Removes a player's values of a season (of one statistic, of one server) and their history (admin)",
            params: playerParams,
            querystring: RemovePlayerStatsQuery,
            response: { 200: RemovePlayerStatsResponse, ...adminErrors(401, 403, 404, 422) },
          },
        },
        async (request) => ({
          data: await erasure.removeValues(
            actorOf(request),
            memberOf(request).workspaceId,
            request.params.player,
            request.query,
          ),
        }),
      );
      scope.delete(
        '/admin/players/:player',
        {
          onRequest: admin.allow('erase:players'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminErasePlayer',
            summary:
              'Erases a player: values, history, sessions, events and name; `block=true` also discards their later uploads (owner)',
            params: playerParams,
            querystring: ErasePlayerQuery,
            response: { 204: Type.Null({ description: 'Player erased' }), ...adminErrors(401, 403, 404, 422) },
          },
        },
        async (request, reply) => {
          await erasure.erase(
            actorOf(request),
            memberOf(request).workspaceId,
            request.params.player,
            request.query.block === true,
          );
          return reply.code(204).send(null);
        },
      );
      scope.delete(
        '/admin/players/:player/block',
        {
          onRequest: admin.allow('erase:players'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminUnblockPlayer',
            summary: "Accepts a blocked player's uploads again (owner)",
            params: Type.Object({ player: Type.String({ format: 'uuid', description: 'Game UUID' }) }),
            response: { 204: Type.Null({ description: 'Player unblocked' }), ...adminErrors(401, 403, 404) },
          },
        },
        async (request, reply) => {
          await erasure.unblock(actorOf(request), memberOf(request).workspaceId, request.params.player);
          return reply.code(204).send(null);
        },
      );
      scope.get(
        '/admin/players/blocked',
        {
          onRequest: admin.allow('read'),
          schema: {
            ...ADMIN_DOC,
            operationId: 'adminListBlockedPlayers',
            summary: 'Players whose uploads are discarded, the newest block first',
            response: { 200: Type.Object({ data: Type.Array(Type.Ref(PlayerBlock)) }), ...adminErrors(401, 403) },
          },
        },
        async (request) => ({ data: await erasure.listBlocks(memberOf(request).workspaceId) }),
      );
    });
  };
}
