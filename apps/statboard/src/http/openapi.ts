import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

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
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { deepLinking: true } });
}
