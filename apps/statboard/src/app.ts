import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { adminGuards } from './access/admin-guard.ts';
import { keyGuard } from './access/key-guard.ts';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';
import type { Edge, RoutePlugin } from './feature.ts';
import { FEATURES } from './features.ts';
import { trustOf } from './http/client-address.ts';
import { ConsoleSite } from './http/console.ts';
import { Cors } from './http/cors.ts';
import { FastReads, MAX_PARAM_LENGTH, querystringParser } from './http/fast-reads.ts';
import { registerHtmlSecurity } from './http/html-security.ts';
import { HttpServer } from './http/http-server.ts';
import { registerOpenApi } from './http/openapi.ts';
import { SHARED_SCHEMAS } from './http/schemas.ts';
import { hasUnstorableText, urlMayHoldUnstorable } from './lib/storable.ts';
import { validatorCompiler } from './lib/validation.ts';
import { UNMATCHED_ROUTE } from './metrics/metrics.ts';
import { registerErrorHandling, sendError } from './plugins/errors.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RedisStateLog, RequestLimits } from './plugins/rate-limit.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { accessLog, lazyChildLogger } from './plugins/request-logger.ts';
import type { Services } from './services.ts';

/**
 * Shapes with an `$id`, registered once: routes refer to them and the OpenAPI document lists them as components
 * (the shared ones, then each feature's).
 */
const COMPONENTS: TSchema[] = [...SHARED_SCHEMAS, ...FEATURES.flatMap((f) => f.schemas ?? [])];

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
    config.publicPageLimitPerMinute,
  );
  const reads = new FastReads(services.verifier, limits, fastReads && limits.inProcess);
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
    routerOptions: { ignoreTrailingSlash: true, querystringParser, maxParamLength: MAX_PARAM_LENGTH },
    serverFactory: http.factory((req, res, fallback) => reads.serve(req, res, fallback)),
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
  const edge: Edge = {
    config,
    limits,
    key: { guard: keyGuard(services.verifier, limits), reads },
    admin: adminGuards(services, config, limits),
  };
  const routes = FEATURES.map((f) => f.routes?.(services, edge) ?? {});
  const root: readonly RoutePlugin[] = routes.flatMap((r) => r.root ?? []);
  const v1Plugins: readonly RoutePlugin[] = routes.flatMap((r) => r.v1 ?? []);
  for (const plugin of root) await app.register(plugin);
  await app.register(
    async (v1) => {
      for (const plugin of v1Plugins) await v1.register(plugin);
      v1.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );
  return app;
}
