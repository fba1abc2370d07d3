import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors, PageQuery, PaginationRef } from '#src/http/schemas.ts';
import { Webhook, WebhookDelivery, WebhookRequest, WebhookWithSecret } from './schemas.ts';
import type { WebhookService } from './service.ts';

const WebhookParams = Type.Object({ webhook: Type.String({ format: 'uuid', description: 'Webhook id' }) });

/**
 * `/admin/webhooks`: list, create, replace, delete, rotate the secret, test, deliveries. Admins and owners only,
 * reads included: a webhook's URL may carry the receiver's own token (a Discord webhook URL does).
 */
export function webhookRoutes(webhooks: WebhookService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    const admin = guards.allow('write:config');

    app.get(
      '/admin/webhooks',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'listWebhooks',
          summary: 'Webhooks of the workspace, oldest first, with their backlog and latest attempt (no secrets)',
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(Webhook)) }), ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await webhooks.list(memberOf(request).workspaceId) }),
    );

    app.post(
      '/admin/webhooks',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'createWebhook',
          summary: 'Creates a webhook; its signing secret is returned only here',
          description:
            'The URL must be http(s); a host that is or resolves to a loopback, private, link-local or reserved ' +
            'address is refused (422) unless the service runs with WEBHOOK_ALLOW_PRIVATE=1.',
          body: WebhookRequest,
          response: { 201: Type.Ref(WebhookWithSecret), ...adminErrors(400, 401, 403, 422) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return webhooks.create(actorOf(request), memberOf(request).workspaceId, request.body);
      },
    );

    app.put(
      '/admin/webhooks/:webhook',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'updateWebhook',
          summary: 'Replaces url, events, description and enabled (a disabled webhook is sent nothing)',
          params: WebhookParams,
          body: WebhookRequest,
          response: { 200: Type.Object({ data: Type.Ref(Webhook) }), ...adminErrors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ({
        data: await webhooks.update(
          actorOf(request),
          memberOf(request).workspaceId,
          request.params.webhook,
          request.body,
        ),
      }),
    );

    app.delete(
      '/admin/webhooks/:webhook',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'deleteWebhook',
          summary: 'Deletes a webhook with its deliveries',
          params: WebhookParams,
          response: { 204: Type.Null({ description: 'Webhook deleted' }), ...adminErrors(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await webhooks.remove(actorOf(request), memberOf(request).workspaceId, request.params.webhook);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/admin/webhooks/:webhook/rotate-secret',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'rotateWebhookSecret',
          summary: 'Issues a new signing secret (returned only here); the old one also signs for 24 hours',
          params: WebhookParams,
          response: { 200: Type.Ref(WebhookWithSecret), ...adminErrors(401, 403, 404) },
        },
      },
      async (request) => webhooks.rotateSecret(actorOf(request), memberOf(request).workspaceId, request.params.webhook),
    );

    app.post(
      '/admin/webhooks/:webhook/test',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'testWebhook',
          summary: 'Queues a webhook.test event for this webhook; its attempts appear in its deliveries',
          params: WebhookParams,
          response: {
            202: Type.Object({ data: Type.Ref(WebhookDelivery) }),
            ...adminErrors(401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        reply.code(202);
        return {
          data: await webhooks.test(actorOf(request), memberOf(request).workspaceId, request.params.webhook),
        };
      },
    );

    app.get(
      '/admin/webhooks/:webhook/deliveries',
      {
        onRequest: admin,
        schema: {
          ...ADMIN_DOC,
          operationId: 'listWebhookDeliveries',
          summary: 'Deliveries of a webhook, newest first, each with every attempt',
          params: WebhookParams,
          querystring: PageQuery,
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref(WebhookDelivery)), meta: PaginationRef }),
            ...adminErrors(401, 403, 404, 422),
          },
        },
      },
      async (request) =>
        webhooks.deliveries(memberOf(request).workspaceId, request.params.webhook, {
          page: request.query.page,
          perPage: request.query.per_page,
        }),
    );
  };
}
