import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '#src/http/schemas.ts';
import { keyOf, requireKey } from '#src/plugins/key-auth.ts';
import type { Services } from '#src/services.ts';
import { IngestBatchBody, IngestBatchResponse } from './schemas.ts';

export function ingestRoutes(services: Services, bodyLimit: number): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/ingest/batch',
      {
        bodyLimit,
        onRequest: requireKey(services.keys, 'ingest:write'),
        schema: {
          tags: ['Ingest'],
          operationId: 'ingestBatch',
          summary: 'Upload a batch of absolute statistics and events',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['ingest:write'],
          headers: Type.Object({
            'x-request-id': Type.Optional(
              Type.String({ description: 'Client request id, echoed when 1–128 printable ASCII characters' }),
            ),
          }),
          body: IngestBatchBody,
          response: { 200: IngestBatchResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429) },
        },
      },
      async (request) => {
        const result = await services.ingest.ingest(keyOf(request), request.body);
        return { ...result, request_id: request.id };
      },
    );
  };
}
