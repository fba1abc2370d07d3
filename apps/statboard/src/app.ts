import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';
import { trustOf } from './http/client-address.ts';
import { ConsoleSite } from './http/console.ts';
import { Cors } from './http/cors.ts';
import { FastReads, querystringParser } from './http/fast-reads.ts';
import { registerHtmlSecurity } from './http/html-security.ts';
import { HttpServer } from './http/http-server.ts';
import { registerOpenApi } from './http/openapi.ts';
import { SHARED_SCHEMAS } from './http/schemas.ts';
import { hasUnstorableText, urlMayHoldUnstorable } from './lib/storable.ts';
import { validatorCompiler } from './lib/validation.ts';
import { UNMATCHED_ROUTE } from './metrics/metrics.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { ApiKey, CreateApiKeyResponse } from './modules/api-keys/schemas.ts';
import { auditLogRoutes } from './modules/audit-log/routes.ts';
import { AuditRecord } from './modules/audit-log/schemas.ts';
import { loginRoutes } from './modules/auth/login.ts';
import { connectionTestRoutes, healthRoutes } from './modules/health/routes.ts';
import { historyRoutes } from './modules/history/routes.ts';
import { activityRoutes, ingestAdminRoutes, ingestRoutes } from './modules/ingest/routes.ts';
import { leaderboardRoutes } from './modules/leaderboards/routes.ts';
import { AdminMe, meRoutes } from './modules/me/routes.ts';
import { onlineRoutes } from './modules/online/routes.ts';
import { playerRoutes } from './modules/players/routes.ts';
import { AdminPlayer } from './modules/players/schemas.ts';
import { seasonRoutes } from './modules/seasons/routes.ts';
import { serverRoutes } from './modules/servers/routes.ts';
import { Server } from './modules/servers/schemas.ts';
import { setupRoutes } from './modules/setup/routes.ts';
import { publicStatRoutes, statRoutes } from './modules/stats/routes.ts';
import { PublicStat, StatDefinition } from './modules/stats/schemas.ts';
import { userRoutes } from './modules/users/routes.ts';
import { AdminUser } from './modules/users/schemas.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { Webhook, WebhookDelivery, WebhookWithSecret } from './modules/webhooks/schemas.ts';
import { registerErrorHandling, sendError } from './plugins/errors.ts';
import { keyGuard } from './plugins/key-auth.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RedisStateLog, RequestLimits } from './plugins/rate-limit.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { accessLog, lazyChildLogger } from './plugins/request-logger.ts';
import { adminGuards } from './plugins/session-auth.ts';
import type { Services } from './services.ts';

/** Shapes with an `$id`, registered once: routes refer to them and the OpenAPI document lists them as components. */
const COMPONENTS: TSchema[] = [
  ...SHARED_SCHEMAS,
  AdminMe,
  ApiKey,
  CreateApiKeyResponse,
  Server,
  AdminPlayer,
  StatDefinition,
  PublicStat,
  AdminUser,
  AuditRecord,
  Webhook,
  WebhookWithSecret,
  WebhookDelivery,
];

export interface AppOptions {
  config: Config;
  services: Services;
  /** The pino logger (the server's, writing asynchronously), or none (tests). */
  logger?: FastifyBaseLogger;
  /**
   * Cached key reads answered in front of Fastify where they are ready (default). Off only to compare both paths
   * in a test; it is also off while rate limits are counted in Redis.
   */
  fastReads?: boolean;
}

/** Builds the Fastify app with every plugin and route. Never listens: `server.ts` does, tests use `inject()`. */
export async function buildApp({ config, services, logger, fastReads = true }: AppOptions): Promise<FastifyInstance> {
  const limiter =
    config.redisUrl === null
      ? new MemoryRateLimiter()
      : new RedisRateLimiter(config.redisUrl, (logger as RedisStateLog | undefined) ?? null);
  const limits = new RequestLimits(
    limiter,
    config.rateLimitPerMinute,
    config.authFailureLimitPerMinute,
    config.loginLimitPerMinute,
  );
  const reads = new FastReads(services.keys, limits, fastReads && limits.inProcess);
  const cors = new Cors(config.corsOrigins);
  const trust = trustOf(config.trustProxy);
  const http = new HttpServer(config.timeouts, cors.enabled ? cors : null, trust);
  reads.trust = trust;
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // One access line per request, written by `logRequest` (below and on the fast read path), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.ingestBodyLimit,
    // TRUST_PROXY: request.ip (rate limits, the audit log, the access log) comes from X-Forwarded-For only when
    // the connection comes from a trusted proxy.
    trustProxy: config.trustProxy === false ? false : config.trustProxy === true ? true : [...config.trustProxy],
    routerOptions: { ignoreTrailingSlash: true, querystringParser },
    serverFactory: http.factory((req, res) => reads.serve(req, res)),
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
  const access = accessLog(logger);
  reads.accessLog = access;
  const metrics = services.metrics;
  reads.metrics = metrics;

  app.decorate('fastReads', reads);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('principal', null);
  app.decorateRequest('failure', null);
  app.addHook('onReady', async () => limits.ready());
  app.addHook('onClose', async () => limits.close());
  // Shutting down: requests in flight are answered, new ones on open connections get 503 with
  // `Connection: close`, and connections close as their answers are written.
  app.addHook('preClose', (done) => {
    reads.close();
    http.drain();
    done();
  });
  app.decorate('httpServer', http);
  app.setValidatorCompiler(validatorCompiler);
  for (const schema of COMPONENTS) app.addSchema(schema);
  const site = new ConsoleSite();
  registerErrorHandling(app, (request, reply) => site.notFound(request, reply));
  // Before any route or plugin is registered, so every HTML answer (error pages included) gets its policy.
  registerHtmlSecurity(app);

  // Hooks that run on every request are callback-style: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (access) {
    app.addHook('onResponse', (request, reply, done) => {
      access.write(request.id, request.method, request.url, request.ip, reply.statusCode, reply.elapsedTime);
      done();
    });
    app.addHook('onClose', (_instance, done) => {
      access.flush();
      done();
    });
  }
  if (metrics) {
    // Labelled by the route's template (`/api/v1/players/:player`), never the path a client sent.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
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
  site.register(app);
  const guard = keyGuard(services.keys, limits);
  const admin = adminGuards(services, config, limits);
  const key = { guard, reads };
  await app.register(loginRoutes(config, services, limits));
  await app.register(healthRoutes(services.db, ''));
  await app.register(connectionTestRoutes(services.db, services.keys, limits, services));
  await app.register(healthRoutes(services.db, 'V1'), { prefix: '/api/v1' });
  await app.register(
    async (v1) => {
      await v1.register(
        ingestRoutes(services.ingest, guard, config.ingestBodyLimit, services.diagnostics, services.metrics),
      );
      await v1.register(ingestAdminRoutes(services.diagnostics, admin));
      await v1.register(activityRoutes(services.diagnostics, admin));
      await v1.register(playerRoutes({ players: services.players, playerAdmin: services.playerAdmin, key, admin }));
      await v1.register(leaderboardRoutes(services.leaderboards, key, admin));
      await v1.register(historyRoutes(services.history, key, admin));
      await v1.register(onlineRoutes(services.online, key, admin));
      await v1.register(seasonRoutes(services.seasons, { key, admin }));
      await v1.register(apiKeyRoutes(services.keys, admin));
      await v1.register(serverRoutes(services.servers, admin));
      await v1.register(publicStatRoutes(services.stats, key));
      await v1.register(statRoutes(services.stats, admin));
      await v1.register(userRoutes(services.users, admin));
      await v1.register(auditLogRoutes(services.audit, admin));
      await v1.register(webhookRoutes(services.webhooks, admin));
      await v1.register(meRoutes(services.setup, admin, config.publicUrl));
      await v1.register(setupRoutes(services.setup, admin));
      v1.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );
  return app;
}
