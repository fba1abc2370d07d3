import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import { bearerToken } from '#src/access/key-guard.ts';
import type { KeyVerifier } from '#src/access/key-verifier.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { errorResponses } from '#src/http/schemas.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { ping } from './repo.ts';
import { ConnectionWarning, type UploadReadinessDeps, uploadWarnings } from './upload-readiness.ts';

const Health = Type.Object({ status: Type.Literal('ok') }, { description: 'Healthy' });
const Unavailable = Type.Object(
  { status: Type.Literal('unavailable') },
  { description: 'The database is unreachable' },
);

const READY_WAIT_MS = 2_000;

/** One round trip to the database, given up after READY_WAIT_MS. */
async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await Promise.race([
      ping(db),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), READY_WAIT_MS).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}

const KeySummary = Type.Object(
  {
    type: Type.String({ description: 'client, website or integration' }),
    scopes: Type.Array(Type.String()),
  },
  { description: 'The key the request carried' },
);

/**
 * `GET /api/health`, outside `/api/v1`: the HM Stats mod's "Test connection" button. Without `Authorization`
 * it says whether the service and its database answer; with a key, also whether the key works and what it may
 * do (an unusable key is 401, and counts as a failed authentication like anywhere else), and, for a key that
 * uploads, `warnings` when every upload would be refused all the same (no active season, no server it may
 * upload through).
 */
export function connectionTestRoutes(
  db: Db,
  keys: KeyVerifier,
  limits: RequestLimits,
  workspace: UploadReadinessDeps,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/health',
      {
        schema: {
          tags: ['Health'],
          operationId: 'connectionTest',
          summary: "The mod's connection test: the service, its database and (with a key) the key",
          security: [{}, { bearerAuth: [] }],
          response: {
            200: Type.Object(
              {
                status: Type.Literal('ok'),
                key: Type.Optional(KeySummary),
                warnings: Type.Optional(
                  Type.Array(ConnectionWarning, {
                    minItems: 1,
                    description:
                      'With a key that uploads: why its uploads would be refused although the connection works ' +
                      '(absent when nothing stands in the way)',
                  }),
                ),
              },
              { description: 'Healthy' },
            ),
            ...errorResponses(401, 429),
            503: Unavailable,
          },
        },
      },
      async (request, reply) => {
        let found: AuthKey | null = null;
        if (request.headers.authorization !== undefined) {
          const token = bearerToken(request);
          found = token === null ? null : await keys.verify(token);
          if (!found) {
            await limits.authFailure(request);
            throw new AppError('INVALID_API_KEY', undefined, undefined, { headers: { 'WWW-Authenticate': 'Bearer' } });
          }
        }
        if (!(await databaseAnswers(db))) return reply.code(503).send({ status: 'unavailable' as const });
        if (!found) return { status: 'ok' as const };
        const key = { type: found.type, scopes: [...found.scopes].sort() };
        const warnings = await uploadWarnings(found, workspace);
        return warnings.length > 0 ? { status: 'ok' as const, key, warnings } : { status: 'ok' as const, key };
      },
    );
  };
}

/** Liveness and readiness; mounted both at `/health/*` and `/api/v1/health/*`. */
export function healthRoutes(db: Db, prefixForIds: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health/live',
      {
        schema: {
          tags: ['Health'],
          operationId: `healthLive${prefixForIds}`,
          security: [],
          response: { 200: Health },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/health/ready',
      {
        schema: {
          tags: ['Health'],
          operationId: `healthReady${prefixForIds}`,
          security: [],
          response: { 200: Health, 503: Unavailable },
        },
      },
      async (_request, reply) =>
        (await databaseAnswers(db))
          ? { status: 'ok' as const }
          : reply.code(503).send({ status: 'unavailable' as const }),
    );
  };
}
