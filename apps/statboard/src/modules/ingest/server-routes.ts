import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type KeyGuard, keyOf } from '#src/access/key-guard.ts';

import { errorResponses } from '#src/http/schemas.ts';
import type { Metrics } from '#src/metrics/metrics.ts';
import { requireJsonBody } from './routes.ts';
import { IngestServerBody, IngestServerResponse } from './schemas.ts';
import type { ServerUploadService } from './server-upload.ts';

/** `POST /ingest/server`: a game server's own statistics (statboard-agent), verified values of the key's server. */
export function serverIngestRoutes(
  uploads: ServerUploadService,
  guard: KeyGuard,
  bodyLimit: number,
  metrics: Metrics | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/ingest/server',
      {
        bodyLimit,
        onRequest: guard('ingest:server'),
        onResponse: (request, reply, done) => {
          if (metrics) {
            const status = reply.statusCode;
            if (status < 400) {
              const players = (request.body as { players?: { stats?: unknown[] }[] } | undefined)?.players ?? [];
              metrics.ingest(
                'accepted',
                players.reduce((n, p) => n + (p.stats?.length ?? 0), 0),
                null,
              );
            } else if (status < 500) metrics.ingest('rejected', 0, request.failure?.code ?? `HTTP_${status}`);
            else metrics.ingest('error', 0, null);
          }
          done();
        },
        // As for batches: a wrong content type is 400 before the body is read.
        preParsing: requireJsonBody,
        schema: {
          tags: ['Ingest'],
          operationId: 'ingestServer',
          summary: "Upload a game server's own statistics (verified values of the key's one server), and who is online",
          description:
            "For statboard-agent. The key must hold `ingest:server`, which only integration keys restricted to exactly one server can hold; the values are that server's. 404 when the server is disabled or no season is active.",
          security: [{ bearerAuth: [] }],
          'x-required-scopes': ['ingest:server'],
          body: IngestServerBody,
          response: { 200: IngestServerResponse, ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
        },
      },
      async (request) => {
        const bytes = Number(request.headers['content-length']) || 0;
        const result = await uploads.upload(keyOf(request), request.body, bytes);
        return { ...result, request_id: request.id };
      },
    );
  };
}
