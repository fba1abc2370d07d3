import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type AdminGuards, memberOf } from '#src/access/admin-guard.ts';
import type { AuthKey } from '#src/access/auth-key.ts';
import type { Member } from '#src/access/principal.ts';
import { READ_SCOPES } from '#src/access/scopes.ts';
import { ADMIN_DOC, adminErrors } from './schemas.ts';

/**
 * The key a signed-in member reads with on the console's mirrors of the key reads: every read scope, no
 * restriction, their workspace. It never leaves the process: no token, no rate limit, no last use.
 */
export function consoleKey(member: Member): AuthKey {
  return {
    id: `console:${member.userId}`,
    workspaceId: member.workspaceId,
    type: 'integration',
    scopes: new Set(READ_SCOPES),
    players: [],
    servers: [],
    seasons: [],
  };
}

export interface MirroredRead<P extends TSchema, Q extends TSchema> {
  /** The key route's path (under the plugin's prefix); the mirror is `/admin` + it. */
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  params?: P;
  querystring?: Q;
  /** The 200 answer (the key route's). */
  response: TSchema;
  /** Error statuses besides 401 and 403. */
  errors: number[];
}

/**
 * `GET /admin<url>`: what websites read with a key (leaderboards, a player's values and history, who is online),
 * for the console, signed in. Every role may read it; the answer is the key route's, computed by the same service
 * call with {@link consoleKey}: public players and statistics, as a website shows them.
 */
export async function mirrorForConsole<P extends TSchema, Q extends TSchema>(
  app: FastifyInstance,
  admin: AdminGuards,
  read: MirroredRead<P, Q>,
  answer: (key: AuthKey, params: Static<P>, query: Static<Q>, reply: FastifyReply) => unknown,
): Promise<void> {
  await app.register(async (instance) => {
    const scope = instance.withTypeProvider<TypeBoxTypeProvider>();
    await admin.enter(scope);
    scope.get(
      `/admin${read.url}`,
      {
        onRequest: admin.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: read.operationId,
          summary: read.summary,
          ...(read.description ? { description: read.description } : {}),
          ...(read.params ? { params: read.params } : {}),
          ...(read.querystring ? { querystring: read.querystring } : {}),
          response: { 200: read.response, ...adminErrors(401, 403, ...read.errors) },
        },
      },
      (request, reply) =>
        answer(consoleKey(memberOf(request)), request.params as Static<P>, request.query as Static<Q>, reply),
    );
  });
}
