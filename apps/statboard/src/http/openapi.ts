import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { contentSecurityPolicy } from './html-security.ts';

/**
 * The `<style>` element Swagger UI's logo (an inline SVG) inserts, allowed by its hash rather than every inline
 * style by 'unsafe-inline'. An upgrade of Swagger UI that changes it shows as a refusal in the docs' browser test.
 */
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * The policy of the browsable docs: Swagger UI's scripts, styles and images from this origin (its icons are
 * `data:` SVGs), the document fetched from this origin, "Try it out" calls to this origin.
 */
const DOCS_POLICY = contentSecurityPolicy({
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': `'self' ${SWAGGER_LOGO_STYLE}`,
  'img-src': "'self' data:",
  'connect-src': "'self'",
});

/** Registers the OpenAPI 3.1 document (generated from the route schemas) and the browsable docs. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Statboard API',
        version: '1.0.0',
        description:
          'Stats collection service for Minecraft communities. Drop-in compatible with the Minecraft Stats API v1: ' +
          'game clients upload with scoped Bearer API keys (`stb_<type>_<id>_<secret>`); websites and integrations read.',
      },
      servers: [{ url: publicUrl }],
      tags: [{ name: 'Health' }, { name: 'Ingest' }, { name: 'Public' }, { name: 'Admin' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'StatboardApiKey' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'statboard_session' },
        },
      },
    },
    // Shared schemas keep their `$id` as the component name (`#/components/schemas/Player`), stable across builds.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: schema && documentedSchema(schema), url }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/v1/docs',
    uiConfig: { deepLinking: true },
    // Set on every answer under /api/v1/docs: Swagger UI's own files and the document only; no framing.
    staticCSP: DOCS_POLICY,
  });
}

/**
 * The route schema as the document shows it. A query parameter with a default is optional for the client even
 * though the validation schema lists it as required (the default fills it in before the check), so it is shown
 * as optional. The validation schema itself is left untouched.
 */
function documentedSchema(schema: FastifySchema): FastifySchema {
  const query = schema.querystring as { properties?: Record<string, { default?: unknown }>; required?: string[] };
  if (!query?.properties || !Array.isArray(query.required)) return schema;
  const props = query.properties;
  const required = query.required.filter((name) => props[name]?.default === undefined);
  if (required.length === query.required.length) return schema;
  return { ...schema, querystring: { ...query, required } };
}
