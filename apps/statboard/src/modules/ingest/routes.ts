import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/errors.ts';
import { errorResponses } from '#src/http/schemas.ts';
import { type KeyGuard, keyOf } from '#src/plugins/key-auth.ts';
import { IngestBatchBody, IngestBatchQuery, IngestBatchResponse } from './schemas.ts';

/** `?dry_run=true` (as sent: the guard runs before the query is validated). */
const isDryRun = (request: FastifyRequest) => (request.query as { dry_run?: unknown }).dry_run === 'true';

import type { IngestService } from './service.ts';

/** `POST /ingest/batch`: the mod's uploads. */
export function ingestRoutes(ingest: IngestService, guard: KeyGuard, bodyLimit: number): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/ingest/batch',
      {
        bodyLimit,
        // A dry run leaves no trace, not even the key's last use.
        onRequest: guard('ingest:write', { records: (request) => !isDryRun(request) }),
        // Order of checks: a wrong content type is 400 before the body is read (so before 413), and
        // Fastify's built-in text/plain parser must not turn such a body into a schema error (422).
        preParsing: async (request, _reply, payload) => {
          const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
          if (type !== 'application/json') {
            throw new AppError('BAD_REQUEST', 'The request body must be application/json.');
          }
          return payload;
        },
        schema: {
          tags: ['Ingest'],
          operationId: 'ingestBatch',
          summary: 'Upload a batch of absolute statistics and events',
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['ingest:write'],
          headers: Type.Object({
            'x-request-id': Type.Optional(
              Type.String({
                description:
                  'Client request id, echoed when 1–128 printable ASCII characters without quotes, angle brackets, backslash or backtick; else a new UUID',
              }),
            ),
          }),
          querystring: IngestBatchQuery,
          body: IngestBatchBody,
          response: { 200: IngestBatchResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429) },
        },
      },
      async (request) => {
        const dryRun = request.query.dry_run === true;
        const bytes = Number(request.headers['content-length']) || 0;
        const result = await ingest.ingest(keyOf(request), request.body, bytes, dryRun);
        return dryRun
          ? { ...result, dry_run: true as const, request_id: request.id }
          : { ...result, request_id: request.id };
      },
    );
  };
}
