import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors, Uuid } from '#src/http/schemas.ts';
import { ReviewDecision, ReviewListQuery, ReviewListResponse } from './schemas.ts';
import type { ReviewService } from './service.ts';

const ItemParams = Type.Object({ id: Uuid });

/** `/admin/review`: held values of client uploads; every role reads, admins decide. */
export function reviewRoutes(review: ReviewService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/review',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'adminListReview',
          summary:
            'Review items (one open item per server and player) with their held values and evidence, newest first',
          querystring: ReviewListQuery,
          response: { 200: ReviewListResponse, ...adminErrors(401, 403, 422) },
        },
      },
      async (request) =>
        review.list(
          memberOf(request).workspaceId,
          request.query.status ?? 'open',
          request.query.page,
          request.query.per_page,
        ),
    );
    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/admin/review/:id/${decision}`,
        {
          onRequest: guards.allow('write:config'),
          schema: {
            ...ADMIN_DOC,
            operationId: decision === 'approve' ? 'adminApproveReview' : 'adminRejectReview',
            summary:
              decision === 'approve'
                ? 'Stores the held values that are still the newest (ranks and caches follow at once); 409 when not open'
                : 'Discards the held values; 409 when not open',
            params: ItemParams,
            response: { 200: ReviewDecision, ...adminErrors(400, 401, 403, 404, 409) },
          },
        },
        async (request) => {
          const { workspaceId } = memberOf(request);
          const id = request.params.id.toLowerCase();
          const actor = actorOf(request);
          return {
            data:
              decision === 'approve'
                ? await review.approve(actor, workspaceId, id)
                : await review.reject(actor, workspaceId, id),
          };
        },
      );
    }
  };
}
