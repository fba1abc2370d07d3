import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest, RequestPayload } from 'fastify';
import { type AdminGuards, memberOf } from '#src/access/admin-guard.ts';
import { type KeyGuard, keyOf } from '#src/access/key-guard.ts';
import { AppError } from '#src/errors.ts';
import { ADMIN_DOC, adminErrors, errorResponses, PageQuery, PaginationRef } from '#src/http/schemas.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { Metrics } from '#src/metrics/metrics.ts';
import type { IngestDiagnostics } from './diagnostics.ts';
import { RejectionLog } from './rejection-log.ts';
import { IngestBatchBody, IngestBatchQuery, IngestBatchResponse } from './schemas.ts';

/** `?dry_run=true`: as sent (before validation, in the key guard) or as validated (a boolean, afterwards). */
const isDryRun = (request: FastifyRequest) => {
  const v = (request.query as { dry_run?: unknown }).dry_run;
  return v === true || v === 'true';
};

import type { IngestService } from './service.ts';

/** The server address and player a rejected body named, as far as it could be read. */
function namedIn(body: unknown): { hostname: string | null; port: number | null; player: string | null } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as {
    server?: { hostname?: unknown; port?: unknown };
    player?: { uuid?: unknown };
  };
  const hostname = typeof b.server?.hostname === 'string' ? b.server.hostname.slice(0, 253).toLowerCase() : null;
  const port = Number.isInteger(b.server?.port) ? (b.server!.port as number) : null;
  const uuid = typeof b.player?.uuid === 'string' && isUuid(b.player.uuid) ? b.player.uuid.toLowerCase() : null;
  return { hostname, port: hostname === null ? null : port, player: uuid };
}

/**
 * `POST /ingest/batch`: the mod's uploads. Every rejected upload (a 4xx) is logged, bounded, with its reason,
 * key, server and player, and counted for `GET /admin/ingest/rejections` when its key is known (a dry run is
 * not counted).
 */
export function ingestRoutes(
  ingest: IngestService,
  guard: KeyGuard,
  bodyLimit: number,
  diagnostics: IngestDiagnostics | null = null,
  metrics: Metrics | null = null,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const rejections = new RejectionLog(app.log);
    app.addHook('onClose', (_i, done) => {
      rejections.close();
      done();
    });
    app.post(
      '/ingest/batch',
      {
        bodyLimit,
        // A dry run leaves no trace, not even the key's last use.
        onRequest: guard('ingest:write', { records: (request) => !isDryRun(request) }),
        onResponse: (request, reply, done) => {
          const error = request.failure;
          if (metrics) {
            const status = reply.statusCode;
            if (status < 400) {
              const values = (request.body as { stats?: unknown[] } | undefined)?.stats?.length ?? 0;
              metrics.ingest(isDryRun(request) ? 'dry_run' : 'accepted', values, null);
            } else if (status < 500) {
              metrics.ingest('rejected', 0, error?.code ?? `HTTP_${status}`);
            } else {
              metrics.ingest('error', 0, null);
            }
          }
          if (error && reply.statusCode >= 400 && reply.statusCode < 500) {
            const code = error.code;
            const named = namedIn(request.body);
            const key = request.apiKey;
            rejections.note({
              code,
              reason: error.message,
              key: key?.id ?? null,
              server: named.hostname === null ? null : `${named.hostname}:${named.port ?? '?'}`,
              player: named.player,
            });
            if (key && diagnostics && !isDryRun(request)) {
              diagnostics.rejected({
                workspaceId: key.workspaceId,
                code,
                message: error.message,
                keyId: key.id,
                hostname: named.hostname,
                port: named.port,
                playerUuid: named.player,
              });
            }
          }
          done();
        },
        // Order of checks: a wrong content type is 400 before the body is read (so before 413), and
        // Fastify's built-in text/plain parser must not turn such a body into a schema error (422).
        preParsing: requireJsonBody,
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

const Rejection = Type.Object({
  code: Type.String({
    description:
      'The error code the upload got; PLAYER_BLOCKED for uploads of a blocked player (answered 200 and discarded); OVERFLOW for the one group a key gets a day (UTC) counting its rejections past its first 100 groups (server and player null)',
  }),
  message: Type.String({ description: 'The latest message of that rejection' }),
  count: Type.Integer(),
  first_at: Type.String({ format: 'date-time' }),
  last_at: Type.String({ format: 'date-time' }),
  key: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()]),
  server: Type.Union([Type.Object({ hostname: Type.String(), port: Type.Integer() }), Type.Null()]),
  player_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
});

/** `GET /admin/ingest/rejections`: rejected uploads of the last 7 days, grouped, newest first (every role). */
export function ingestAdminRoutes(diagnostics: IngestDiagnostics, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/ingest/rejections',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'listIngestRejections',
          summary:
            'Rejected uploads of the last 7 days, grouped by reason, key, server address and player, newest first',
          querystring: PageQuery,
          response: {
            200: Type.Object({ data: Type.Array(Rejection), meta: PaginationRef }),
            ...adminErrors(401, 403, 422),
          },
        },
      },
      async (request) => {
        const { page, per_page: perPage } = request.query;
        // What was counted in the last seconds is written first, so the list is current.
        await diagnostics.flush();
        const { data, total } = await diagnostics.list(memberOf(request).workspaceId, page, perPage);
        return { data, meta: { current_page: page, per_page: perPage, total } };
      },
    );
  };
}

const ActivityQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before `to`' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
  interval: Type.Optional(Type.Union([Type.Literal('hour'), Type.Literal('day')], { default: 'hour' })),
});

const ActivityBucket = Type.Object({
  at: Type.String({ format: 'date-time', description: "The bucket's start (UTC)" }),
  batches_accepted: Type.Integer(),
  batches_rejected: Type.Integer(),
  values_written: Type.Integer({ description: 'Statistic values in accepted batches' }),
  active_players: Type.Integer({ description: 'Players with a session during the bucket' }),
  new_players: Type.Integer({ description: 'Players seen for the first time during the bucket' }),
});

/** `GET /admin/activity`: uploads and players per hour or day, every bucket present (every role). */
export function activityRoutes(diagnostics: IngestDiagnostics, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/activity',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'getActivity',
          summary: 'Accepted and rejected batches, values written, active and new players per hour or day',
          querystring: ActivityQuery,
          response: { 200: Type.Object({ data: Type.Array(ActivityBucket) }), ...adminErrors(401, 403, 422) },
        },
      },
      async (request) => ({
        data: await diagnostics.activity(memberOf(request).workspaceId, request.query),
      }),
    );
  };
}

/**
 * Uploads take JSON only: a wrong content type is 400 before the body is read (so before 413), and Fastify's
 * built-in text/plain parser never turns such a body into a schema error (422).
 */
export async function requireJsonBody(
  request: FastifyRequest,
  _reply: unknown,
  payload: RequestPayload,
): Promise<RequestPayload> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('BAD_REQUEST', 'The request body must be application/json.');
  return payload;
}
