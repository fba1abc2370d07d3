import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Db } from '#src/db/types.ts';
import { ping } from './repo.ts';

const Health = Type.Object({ status: Type.Literal('ok') }, { description: 'Healthy' });
const Unavailable = Type.Object(
  { status: Type.Literal('unavailable') },
  { description: 'The database is unreachable' },
);

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
      async (_request, reply) => {
        try {
          await Promise.race([
            ping(db),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref()),
          ]);
          return { status: 'ok' as const };
        } catch {
          return reply.code(503).send({ status: 'unavailable' as const });
        }
      },
    );
  };
}
