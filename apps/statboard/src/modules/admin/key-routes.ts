import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '#src/config.ts';
import type { ApiKey as ApiKeyRecord, KeyInput } from '#src/modules/keys/types.ts';
import { memberOf, requirePermission, requireSession } from '#src/plugins/session-auth.ts';
import type { Services } from '#src/services.ts';
import { change } from './change.ts';
import {
  ApiKey,
  adminErrors,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  RotateApiKeyRequest,
  Security,
  UpdateApiKeyRequest,
} from './schemas.ts';

const KeyParams = Type.Object({ key: Type.String({ format: 'uuid', description: 'API key id' }) });

/** The admin view of a key: `uuid_restrictions` mirrors `player_restrictions` for the original dashboard. */
function view(key: ApiKeyRecord): ApiKeyRecord & { uuid_restrictions: string[] } {
  return { ...key, uuid_restrictions: key.player_restrictions };
}

interface KeyBody {
  name: string;
  description?: string | null;
  scopes: string[];
  player_restrictions?: string[];
  uuid_restrictions?: string[];
  server_restrictions?: string[];
  season_restrictions?: string[];
  expires_at?: string | null;
}

/** `uuid_restrictions` is an alias of `player_restrictions` (DECISIONS, "API keys"); both lists are merged. */
function keyInput(body: KeyBody): KeyInput {
  const players =
    body.player_restrictions === undefined && body.uuid_restrictions === undefined
      ? undefined
      : [...(body.player_restrictions ?? []), ...(body.uuid_restrictions ?? [])];
  return {
    name: body.name,
    description: body.description,
    scopes: body.scopes,
    player_restrictions: players,
    server_restrictions: body.server_restrictions,
    season_restrictions: body.season_restrictions,
    expires_at: body.expires_at,
  };
}

/** `/admin/api-keys`: list, create, update, rotate, revoke. Reads: every role; changes: admin and owner. */
export function adminKeyRoutes(services: Services, config: Config): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', requireSession(services, config));
    const read = requirePermission('read');
    const write = requirePermission('write:config');

    app.get(
      '/admin/api-keys',
      {
        onRequest: read,
        schema: {
          tags: ['Admin'],
          operationId: 'listApiKeys',
          summary: 'API keys of the workspace, newest first, without secrets',
          security: Security,
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(ApiKey)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: (await services.keys.list(memberOf(request).workspaceId)).map(view) }),
    );

    app.post(
      '/admin/api-keys',
      {
        onRequest: write,
        schema: {
          tags: ['Admin'],
          operationId: 'createApiKey',
          summary: 'Creates a key; the secret (the whole token) is returned only here',
          security: Security,
          body: CreateApiKeyRequest,
          response: { 201: Type.Ref(CreateApiKeyResponse), ...adminErrors(400, 401, 403, 422) },
        },
      },
      async (request, reply) => {
        const ws = memberOf(request).workspaceId;
        const created = await change(services, request, async (s, audit) => {
          const out = await s.keys.create(ws, { ...keyInput(request.body), type: request.body.type });
          await audit({
            action: 'API_KEY_CREATED',
            targetType: 'api_key',
            targetId: out.data.id,
            before: null,
            after: out.data,
          });
          return out;
        });
        reply.code(201);
        return { data: view(created.data), secret: created.secret };
      },
    );

    app.put(
      '/admin/api-keys/:key',
      {
        onRequest: write,
        schema: {
          tags: ['Admin'],
          operationId: 'updateApiKey',
          summary: 'Replaces name, description, scopes, restrictions and expiry (omitted ones are cleared)',
          security: Security,
          params: KeyParams,
          body: UpdateApiKeyRequest,
          response: { 200: Type.Object({ data: Type.Ref(ApiKey) }), ...adminErrors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const updated = await change(services, request, async (s, audit) => {
          const before = await s.keys.get(ws, request.params.key);
          const after = await s.keys.update(ws, before.id, keyInput(request.body));
          await audit({ action: 'API_KEY_UPDATED', targetType: 'api_key', targetId: after.id, before, after });
          return after;
        });
        return { data: view(updated) };
      },
    );

    app.post(
      '/admin/api-keys/:key/rotate',
      {
        onRequest: write,
        // The body is optional: no body means no grace period.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        schema: {
          tags: ['Admin'],
          operationId: 'rotateApiKey',
          summary: 'Issues a new key with the same settings and revokes the old one (after grace_seconds, if given)',
          security: Security,
          params: KeyParams,
          body: RotateApiKeyRequest,
          response: { 200: Type.Ref(CreateApiKeyResponse), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const ws = memberOf(request).workspaceId;
        const grace = request.body.grace_seconds ?? 0;
        const rotated = await change(services, request, async (s, audit) => {
          const before = await s.keys.get(ws, request.params.key);
          const out = await s.keys.rotate(ws, before.id, grace);
          await audit({
            action: 'API_KEY_ROTATED',
            targetType: 'api_key',
            targetId: before.id,
            before,
            after: { revoked: out.previous, replacement: out.data, grace_seconds: grace },
          });
          return out;
        });
        return { data: view(rotated.data), secret: rotated.secret };
      },
    );

    app.post(
      '/admin/api-keys/:key/revoke',
      {
        onRequest: write,
        schema: {
          tags: ['Admin'],
          operationId: 'revokeApiKey',
          summary: 'Revokes a key at once, on every instance',
          security: Security,
          params: KeyParams,
          response: { 204: Type.Null({ description: 'Key revoked' }), ...adminErrors(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const ws = memberOf(request).workspaceId;
        await change(services, request, async (s, audit) => {
          const before = await s.keys.get(ws, request.params.key);
          const after = await s.keys.revoke(ws, before.id);
          await audit({ action: 'API_KEY_REVOKED', targetType: 'api_key', targetId: after.id, before, after });
        });
        return reply.code(204).send(null);
      },
    );
  };
}
