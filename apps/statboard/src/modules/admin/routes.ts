import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '#src/config.ts';
import { PaginationRef, SeasonRef } from '#src/http/schemas.ts';
import { memberOf, principalOf, requirePermission, requireSession } from '#src/plugins/session-auth.ts';
import type { Services } from '#src/services.ts';
import { change } from './change.ts';
import {
  AdminMe,
  AdminPlayer,
  AdminUser,
  AuditRecord,
  adminErrors,
  CreateSeasonRequest,
  Security,
  Server,
  ServerRequest,
  StatDefinition,
  UpdateStatRequest,
  UpdateUserRequest,
} from './schemas.ts';

const Admin = { tags: ['Admin'], security: Security };

/**
 * The admin API besides keys: me, servers, seasons, players, statistic definitions, users and the audit log.
 * Roles (DECISIONS): every role reads, except users and the audit log (admin); analysts also change players
 * and statistics; admins also change servers and seasons and manage users.
 */
export function adminRoutes(services: Services, config: Config): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', requireSession(services, config));
    const read = requirePermission('read');
    const readUsers = requirePermission('read:users');
    const writePlayers = requirePermission('write:players');
    const writeConfig = requirePermission('write:config');
    const writeUsers = requirePermission('write:users');

    app.get(
      '/admin/me',
      {
        schema: {
          ...Admin,
          operationId: 'adminMe',
          summary: 'The signed-in user and their workspace role (null before bootstrap or without a role)',
          response: { 200: Type.Ref(AdminMe), ...adminErrors(401, 403) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return {
          id: p.userId,
          display_name: p.displayName,
          email: p.email,
          workspace_id: p.workspaceId,
          role: p.role,
          needs_bootstrap: p.role === null && (await services.bootstrap.needsBootstrap()),
        };
      },
    );

    // Servers
    const ServerParams = Type.Object({ server: Type.String({ format: 'uuid' }) });
    app.get(
      '/admin/servers',
      {
        onRequest: read,
        schema: {
          ...Admin,
          operationId: 'listServers',
          summary: 'Registered game servers',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(Server)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await services.servers.list(memberOf(request).workspaceId) }),
    );
    app.post(
      '/admin/servers',
      {
        onRequest: writeConfig,
        schema: {
          ...Admin,
          operationId: 'createServer',
          summary: 'Registers a server; (hostname, port) is unique per workspace',
          body: ServerRequest,
          response: { 201: Type.Object({ data: Type.Ref(Server) }), ...adminErrors(400, 401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const ws = memberOf(request).workspaceId;
        const server = await change(services, request, async (s, audit) => {
          const after = await s.servers.create(ws, request.body);
          await audit({ action: 'SERVER_CREATED', targetType: 'server', targetId: after.id, before: null, after });
          return after;
        });
        reply.code(201);
        return { data: server };
      },
    );
    app.put(
      '/admin/servers/:server',
      {
        onRequest: writeConfig,
        schema: {
          ...Admin,
          operationId: 'updateServer',
          summary: 'Replaces a server (name, display_name, hostname, port, enabled)',
          params: ServerParams,
          body: ServerRequest,
          response: { 200: Type.Object({ data: Type.Ref(Server) }), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const server = await change(services, request, async (s, audit) => {
          const { before, after } = await s.servers.update(ws, request.params.server, request.body);
          await audit({ action: 'SERVER_UPDATED', targetType: 'server', targetId: after.id, before, after });
          return after;
        });
        return { data: server };
      },
    );

    // Seasons
    app.get(
      '/admin/seasons',
      {
        onRequest: read,
        schema: {
          ...Admin,
          operationId: 'adminListSeasons',
          summary: 'Seasons of the workspace',
          response: { 200: Type.Object({ data: Type.Array(SeasonRef) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await services.seasons.list(memberOf(request).workspaceId) }),
    );
    app.post(
      '/admin/seasons',
      {
        onRequest: writeConfig,
        schema: {
          ...Admin,
          operationId: 'createSeason',
          summary: 'Creates a season (active: true also activates it)',
          body: CreateSeasonRequest,
          response: { 201: Type.Object({ data: SeasonRef }), ...adminErrors(400, 401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const ws = memberOf(request).workspaceId;
        const season = await change(services, request, async (s, audit) => {
          const previous = request.body.active === true ? await s.seasons.active(ws) : null;
          const after = await s.seasons.create(ws, request.body);
          await audit({
            action: 'SEASON_CREATED',
            targetType: 'season',
            targetId: after.id,
            before: null,
            after: previous ? { ...after, replaced_active_season: previous } : after,
          });
          return after;
        });
        reply.code(201);
        return { data: season };
      },
    );
    app.post(
      '/admin/seasons/:season/activate',
      {
        onRequest: writeConfig,
        schema: {
          ...Admin,
          operationId: 'activateSeason',
          summary: 'Activates a season (by id or slug); the previously active one is deactivated',
          params: Type.Object({ season: Type.String({ minLength: 1, maxLength: 255, description: 'id or slug' }) }),
          response: { 200: Type.Object({ data: SeasonRef }), ...adminErrors(401, 403, 404) },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const season = await change(services, request, async (s, audit) => {
          const target = await s.seasons.find(ws, request.params.season);
          const { season: after, previous } = await s.seasons.activate(ws, request.params.season);
          await audit({
            action: 'SEASON_ACTIVATED',
            targetType: 'season',
            targetId: after.id,
            before: { season: target, active_season: previous },
            after,
          });
          return after;
        });
        return { data: season };
      },
    );

    // Players
    app.get(
      '/admin/players',
      {
        onRequest: read,
        schema: {
          ...Admin,
          operationId: 'adminListPlayers',
          summary: 'Players of the workspace, public or not (at most 500)',
          querystring: Type.Object({
            search: Type.Optional(Type.String({ maxLength: 64, description: 'Username substring or exact UUID' })),
          }),
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(AdminPlayer)) }), ...adminErrors(401, 403, 422) },
        },
      },
      async (request) => ({
        data: await services.playerAdmin.list(memberOf(request).workspaceId, request.query.search),
      }),
    );
    app.put(
      '/admin/players/:player',
      {
        onRequest: writePlayers,
        schema: {
          ...Admin,
          operationId: 'adminUpdatePlayer',
          summary: "Sets a player's visibility (player: game UUID or id)",
          params: Type.Object({ player: Type.String({ format: 'uuid' }) }),
          body: Type.Object({ public: Type.Boolean() }),
          response: { 200: Type.Object({ data: Type.Ref(AdminPlayer) }), ...adminErrors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const player = await change(services, request, async (s, audit) => {
          const { before, after } = await s.playerAdmin.setPublic(ws, request.params.player, request.body.public);
          await audit({ action: 'PLAYER_UPDATED', targetType: 'player', targetId: after.id, before, after });
          return after;
        });
        return { data: player };
      },
    );

    // Statistic definitions
    app.get(
      '/admin/stats',
      {
        onRequest: read,
        schema: {
          ...Admin,
          operationId: 'adminListStats',
          summary: 'Statistic definitions, public or not, by key',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(StatDefinition)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await services.statDefinitions.list(memberOf(request).workspaceId) }),
    );
    app.put(
      '/admin/stats/:key',
      {
        onRequest: writePlayers,
        schema: {
          ...Admin,
          operationId: 'adminUpdateStat',
          summary: "Changes a statistic's visibility, display name or sort order (omitted fields are kept)",
          params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }) }),
          body: UpdateStatRequest,
          response: {
            200: Type.Object({ data: Type.Ref(StatDefinition) }),
            ...adminErrors(400, 401, 403, 404, 422),
          },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const stat = await change(services, request, async (s, audit) => {
          const { before, after } = await s.statDefinitions.update(ws, request.params.key, request.body);
          await audit({ action: 'STAT_UPDATED', targetType: 'stat_definition', targetId: after.key, before, after });
          return after;
        });
        return { data: stat };
      },
    );

    // Users
    app.get(
      '/admin/users',
      {
        onRequest: readUsers,
        schema: {
          ...Admin,
          operationId: 'listUsers',
          summary: 'Everyone who has signed in, with their role here (null: none)',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(AdminUser)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await services.users.list(memberOf(request).workspaceId) }),
    );
    app.put(
      '/admin/users/:user',
      {
        onRequest: writeUsers,
        schema: {
          ...Admin,
          operationId: 'updateUserRole',
          summary: "Sets a user's role; only owners grant or change owner; the last owner stays (409)",
          params: Type.Object({ user: Type.String({ format: 'uuid' }) }),
          body: UpdateUserRequest,
          response: { 200: Type.Object({ data: Type.Ref(AdminUser) }), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const member = memberOf(request);
        const user = await change(services, request, async (s, audit) => {
          const { before, after } = await s.users.setRole(
            { userId: member.userId, role: member.role },
            member.workspaceId,
            request.params.user,
            request.body.role,
          );
          await audit({ action: 'USER_ROLE_UPDATED', targetType: 'user', targetId: after.id, before, after });
          return after;
        });
        return { data: user };
      },
    );

    // Audit log
    app.get(
      '/admin/audit-log',
      {
        onRequest: readUsers,
        schema: {
          ...Admin,
          operationId: 'listAuditLog',
          summary: 'Audit records of the workspace, newest first (read-only)',
          querystring: Type.Object({
            page: Type.Integer({ minimum: 1, default: 1 }),
            per_page: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
          }),
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref(AuditRecord)), meta: PaginationRef }),
            ...adminErrors(401, 403, 422),
          },
        },
      },
      async (request) =>
        services.audit.list(memberOf(request).workspaceId, {
          page: request.query.page,
          perPage: request.query.per_page,
        }),
    );
  };
}
