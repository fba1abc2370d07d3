import type { Feature } from '#src/feature.ts';
import { PageRenderer } from './pages.ts';
import { publicPageRoutes, publicSiteAdminRoutes } from './routes.ts';
import { PublicSiteSettings } from './schemas.ts';
import { PublicSiteService } from './service.ts';
import { SitePages } from './site-pages.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** The public site's settings (`/admin/public-site`), and which site a `/p/<slug>/` address is. */
    readonly publicSite: PublicSiteService;
  }
}

export const publicSiteFeature = {
  name: 'public-site',
  services: { publicSite: (s) => new PublicSiteService(s.db, s.changes, s.audit) },
  schemas: [PublicSiteSettings],
  routes: (s, { admin, config, limits, key }) => {
    const pages = new SitePages(s, new PageRenderer(s, config.publicUrl), limits, config.pageCacheBytes);
    // Page requests are answered before Fastify builds its request when the fast path is on (as cached key reads).
    key.reads.under('/p/', (req, res, url, fallback) => pages.serveFast(req, res, url, key.reads, fallback));
    return {
      v1: [publicSiteAdminRoutes(s.publicSite, admin)],
      root: [publicPageRoutes(pages)],
    };
  },
} satisfies Feature;
