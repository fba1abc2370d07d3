import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { sendJsonText } from '#src/http/json-text.ts';
import { ADMIN_DOC, adminErrors } from '#src/http/schemas.ts';
import {
  ApiKey,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  RotateApiKeyRequest,
  UpdateApiKeyRequest,
} from './schemas.ts';
import type { KeyAdminService } from './service.ts';

const KeyParams = Type.Object({ key: Type.String({ format: 'uuid', description: 'API key id' }) });

/** `/admin/api-keys`: list, create, update, rotate, revoke. Reads: every role; changes: admin and owner. */
export function apiKeyRoutes(keys: KeyAdminService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    const read = guards.allow('read');
    const write = guards.allow('write:config');

    app.get(
      '/admin/api-keys',
      {
        onRequest: read,
        schema: {
          ...ADMIN_DOC,
          operationId: 'listApiKeys',
          summary: 'API keys of the workspace, newest first, without secrets',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(ApiKey)) }), ...adminErrors(401, 403) },
        },
      },
      // JSON.stringify writes the bytes the schema's serializer would (records with exactly its fields, in its
      // order) without the serializer's check of every value against each branch of a nullable field.
      async (request, reply) => sendJsonText(reply, await keys.listJson(memberOf(request).workspaceId)),
    );

    app.post(
      '/admin/api-keys',
      {
        onRequest: write,
        schema: {
          ...ADMIN_DOC,
          operationId: 'createApiKey',
          summary: 'Creates a key; the secret (the whole token) is returned only here',
          body: CreateApiKeyRequest,
          response: { 201: Type.Ref(CreateApiKeyResponse), ...adminErrors(400, 401, 403, 422) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return keys.create(actorOf(request), memberOf(request).workspaceId, request.body);
      },
    );

    app.put(
      '/admin/api-keys/:key',
      {
        onRequest: write,
        schema: {
          ...ADMIN_DOC,
          operationId: 'updateApiKey',
          summary: 'Replaces name, description, scopes, restrictions and expiry (omitted ones are cleared)',
          params: KeyParams,
          body: UpdateApiKeyRequest,
          response: { 200: Type.Object({ data: Type.Ref(ApiKey) }), ...adminErrors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ({
        data: await keys.update(actorOf(request), memberOf(request).workspaceId, request.params.key, request.body),
      }),
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
          ...ADMIN_DOC,
          operationId: 'rotateApiKey',
          summary: 'Issues a new key with the same settings and revokes the old one (after grace_seconds, if given)',
          params: KeyParams,
          body: RotateApiKeyRequest,
          response: { 200: Type.Ref(CreateApiKeyResponse), ...adminErrors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => keys.rotate(actorOf(request), memberOf(request).workspaceId, request.params.key, request.body),
    );

    app.post(
      '/admin/api-keys/:key/revoke',
      {
        onRequest: write,
        schema: {
          ...ADMIN_DOC,
          operationId: 'revokeApiKey',
          summary: 'Revokes a key at once, on every instance',
          params: KeyParams,
          response: { 204: Type.Null({ description: 'Key revoked' }), ...adminErrors(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await keys.revoke(actorOf(request), memberOf(request).workspaceId, request.params.key);
        return reply.code(204).send(null);
      },
    );
  };
}
