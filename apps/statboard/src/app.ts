import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';
import { HotReads } from './http/hot-reads.ts';
import { registerOpenApi } from './http/openapi.ts';
import { SHARED_SCHEMAS } from './http/schemas.ts';
import { hasUnstorableText, urlMayHoldUnstorable } from './lib/storable.ts';
import { registerAdministration } from './modules/auth/register.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { ingestRoutes } from './modules/ingest/routes.ts';
import { leaderboardRoutes } from './modules/leaderboards/routes.ts';
import { playerRoutes } from './modules/players/routes.ts';
import { presenceRoutes } from './modules/presence/routes.ts';
import { seasonRoutes } from './modules/seasons/routes.ts';
import { registerErrorHandling, sendError } from './plugins/errors.ts';
import { MemoryRateLimiter, RedisRateLimiter, RequestLimits } from './plugins/rate-limit.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { LevelAwareLogController, lazyChildLogger, logsInfo } from './plugins/request-logger.ts';
import { validatorCompiler } from './plugins/validation.ts';
import type { Services } from './services.ts';

export interface AppOptions {
  config: Config;
  services: Services;
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | object;
}

/** Builds the Fastify app with every plugin and route. Never listens: `server.ts` does, tests use `inject()`. */
export async function buildApp({ config, services, logger = false }: AppOptions): Promise<FastifyInstance> {
  const limiter = config.redisUrl === null ? new MemoryRateLimiter() : new RedisRateLimiter(config.redisUrl);
  const limits = new RequestLimits(limiter, config.rateLimitPerMinute, config.authFailureLimitPerMinute);
  // Cached hot reads answered in front of Fastify, where they give exactly what Fastify would (http/hot-reads.ts).
  const hot = config.hotReads && limits.inProcess ? new HotReads(services, limits) : null;
  const app = Fastify({
    logger,
    childLoggerFactory: lazyChildLogger,
    logController: new LevelAwareLogController(),
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.ingestBodyLimit,
    // Behind a reverse proxy the client address comes from X-Forwarded-For; set TRUST_PROXY to enable.
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true },
    ...(hot ? { serverFactory: hot.serverFactory() } : {}),
    // Errors the router raises before any hook runs (a broken escape in the path, a path parameter over the
    // router's length limit) get the same error shape and X-Request-ID as everything else.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      const known =
        error.code === 'FST_ERR_BAD_URL'
          ? new AppError('BAD_REQUEST', 'The request path is malformed.')
          : new AppError('NOT_FOUND', 'No such route.');
      void sendError(reply, request, known);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('apiKey', null);
  app.decorate('limits', limits);
  app.decorate('hotReads', hot);
  app.addHook('onClose', async () => app.limits.close());
  if (hot) {
    // Fastify logs every request at info; the hot path logs nothing, so it stands aside when that level is on.
    if (logsInfo(app.log)) hot.close();
    // While shutting down, Fastify answers (503 on kept-alive connections).
    app.addHook('preClose', (done) => {
      hot.close();
      done();
    });
  }
  app.setValidatorCompiler(validatorCompiler);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  registerErrorHandling(app);

  // Hooks that run on every request are callback-style: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // PostgreSQL cannot store NUL or unpaired surrogates: refuse them as client errors before any SQL runs.
  app.addHook('preValidation', (request, _reply, done) => {
    if (urlMayHoldUnstorable(request.url) && (hasUnstorableText(request.query) || hasUnstorableText(request.params))) {
      done(
        new AppError(
          'BAD_REQUEST',
          'The request contains characters that cannot be stored (NUL or unpaired surrogates).',
        ),
      );
    } else if (request.body !== undefined && hasUnstorableText(request.body)) {
      done(
        new AppError('INVALID_PAYLOAD', 'The request is invalid.', {
          '(body)': ['must not contain NUL characters or unpaired surrogates'],
        }),
      );
    } else {
      done();
    }
  });

  await registerOpenApi(app, config.publicUrl);
  await registerAdministration(app, config, services);
  await app.register(healthRoutes(services.db, ''));
  await app.register(healthRoutes(services.db, 'V1'), { prefix: '/api/v1' });
  await app.register(
    async (v1) => {
      await v1.register(ingestRoutes(services, config.ingestBodyLimit));
      await v1.register(playerRoutes(services));
      await v1.register(leaderboardRoutes(services));
      await v1.register(presenceRoutes(services));
      await v1.register(seasonRoutes(services));
      v1.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );
  return app;
}
