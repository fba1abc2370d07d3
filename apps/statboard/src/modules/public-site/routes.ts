import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AdminGuards, actorOf, memberOf } from '#src/access/admin-guard.ts';
import { ADMIN_DOC, adminErrors } from '#src/http/schemas.ts';
import { PublicSiteRequest, PublicSiteResponse } from './schemas.ts';
import type { PublicSiteService } from './service.ts';
import { PAGE_ROUTES, type SitePages } from './site-pages.ts';

/** `GET|PUT /admin/public-site`: every role reads the settings, admins and owners change them. */
export function publicSiteAdminRoutes(sites: PublicSiteService, guards: AdminGuards): FastifyPluginAsyncTypebox {
  return async (app) => {
    await guards.enter(app);
    app.get(
      '/admin/public-site',
      {
        onRequest: guards.allow('read'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'getPublicSite',
          summary: "The workspace's public site: on or off, title, description, featured statistics, embedding origins",
          response: { 200: PublicSiteResponse, ...adminErrors(401, 403) },
        },
      },
      async (request) => ({ data: await sites.get(memberOf(request).workspaceId) }),
    );
    app.put(
      '/admin/public-site',
      {
        onRequest: guards.allow('write:config'),
        schema: {
          ...ADMIN_DOC,
          operationId: 'updatePublicSite',
          summary: 'Changes the public site settings named in the body (the others keep their value)',
          body: PublicSiteRequest,
          response: { 200: PublicSiteResponse, ...adminErrors(400, 401, 403, 422) },
        },
      },
      async (request) => ({
        data: await sites.update(actorOf(request), memberOf(request).workspaceId, request.body),
      }),
    );
  };
}

/**
 * The public pages at the root: `/p/<slug>/…` (HTML for people, not in the OpenAPI document). `/p` itself and every
 * other path under `/p/` is the one 404 page.
 */
export function publicPageRoutes(pages: SitePages): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    for (const { url, kind } of PAGE_ROUTES) {
      app.get(url, { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) =>
        pages.serve(request, reply, kind),
      );
    }
    app.get('/p', { schema: { hide: true } }, (request, reply) => pages.notFound(request, reply));
    app.get('/p/*', { schema: { hide: true } }, (request, reply) => pages.notFound(request, reply));
  };
}
