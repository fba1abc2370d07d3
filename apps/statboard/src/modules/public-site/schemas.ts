import { type Static, Type } from '@sinclair/typebox';

/** The shapes of `GET|PUT /admin/public-site`. */

export const MAX_FEATURED_STATS = 10;
export const MAX_EMBED_ORIGINS = 20;

const FIELDS = {
  enabled: Type.Boolean({ description: 'The pages at `/p/<workspace slug>/` answer (off: they are 404)' }),
  title: Type.String({ maxLength: 100, description: "The site's name (empty: the workspace's name)" }),
  description: Type.String({ maxLength: 300, description: 'One or two sentences shown under the title' }),
  featured_stats: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
    maxItems: MAX_FEATURED_STATS,
    description:
      'Statistic keys whose top 10 the home page shows, in order (a hidden one, or one not uploaded yet, is left out until it is public)',
  }),
  embed_origins: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
    maxItems: MAX_EMBED_ORIGINS,
    description:
      'Origins (`https://club.example`, `http://127.0.0.1:8080`) whose pages may frame the embeds; empty: any',
  }),
};

export const PublicSiteSettings = Type.Object(FIELDS, { $id: 'PublicSiteSettings' });
/** The body of `PUT /admin/public-site`: the fields to change; a field left out keeps its value. */
export const PublicSiteRequest = Type.Partial(Type.Object(FIELDS));
export type PublicSiteSettings = Static<typeof PublicSiteSettings>;

export const PublicSiteResponse = Type.Object({ data: Type.Ref(PublicSiteSettings) });
