import { pino } from 'pino';
import pretty from 'pino-pretty';
import { buildApp } from './app.ts';
import { ChangeBus } from './cache/bus.ts';
import { notifyChange } from './cache/repo.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { Availability } from './db/availability.ts';
import { migrate } from './db/migrate.ts';
import { DatabaseBusyError, openDatabase } from './db/open.ts';
import { boundHeapGrowth } from './lib/heap.ts';
import { MetricsListener } from './metrics/listener.ts';
import { Metrics } from './metrics/metrics.ts';
import { HistoryFolder } from './modules/history/fold.ts';
import { Pruner } from './modules/retention/pruner.ts';
import { SeasonScheduler } from './modules/seasons/scheduler.ts';
import { ensureStartupBootstrapToken, warnAboutLoopbackPublicUrl } from './modules/setup/startup.ts';
import { WebhookDispatcher } from './modules/webhooks/dispatcher.ts';
import { buildServices } from './services.ts';

/**
 * The service's logger. JSON lines (for log collectors) go to stdout asynchronously: a request never waits for
 * its access line, lines that come together are written together, and what is still buffered is written at
 * exit. Readable lines (LOG_FORMAT=pretty, the default on a terminal) show the time, level and message, with
 * the fields on the same line.
 */
function createLogger(config: Config) {
  const format = config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (format === 'json') return pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: false }));
  return pino(
    { level: config.logLevel },
    pretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      singleLine: true,
    }),
  );
}

/** Why the service cannot listen on HOST:PORT, in one line that says what to change. */
function listenProblem(err: unknown, config: Config): string {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `port ${config.port} on ${config.host}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is in use: is another Statboard running? Stop it, or set PORT (or HOST) to listen elsewhere.`;
    case 'EACCES':
      return `${where} needs privileges this process lacks: set PORT to 1024 or above (and put a reverse proxy in front).`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine: set HOST to one of its addresses (or 0.0.0.0).`;
    default:
      return `cannot listen on ${where}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * loadConfig → open and migrate the database → buildApp → listen → bootstrap tokens and background work;
 * SIGTERM/SIGINT drain and close within SHUTDOWN_TIMEOUT_SECONDS.
 */
async function main(): Promise<void> {
  boundHeapGrowth();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config);
  // Metrics first: a port already taken stops the start before anything else is opened.
  const metrics = config.metricsPort === null ? null : new Metrics();
  let metricsListener: MetricsListener | null = null;
  if (metrics && config.metricsPort !== null) {
    try {
      metricsListener = await MetricsListener.start(metrics, config.host, config.metricsPort);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      process.stderr.write(
        code === 'EADDRINUSE'
          ? `METRICS_PORT ${config.metricsPort} is in use on ${config.host}: choose another port or stop what uses it.\n`
          : `METRICS_PORT ${config.metricsPort}: cannot listen on ${config.host} (${String(err)}).\n`,
      );
      process.exit(2);
    }
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    logger.info({ url: `http://${host}:${metricsListener.port}/metrics` }, 'metrics listening');
  }
  let db: Awaited<ReturnType<typeof openDatabase>>;
  try {
    db = await openDatabase(config, new Availability(logger), (err) =>
      logger.warn({ err }, 'embedded database checkpoint failed; retried at the next period'),
    );
  } catch (err) {
    if (err instanceof DatabaseBusyError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(3);
    }
    throw err;
  }
  // Several instances share a PostgreSQL server: caches are invalidated across them with LISTEN/NOTIFY.
  const bus =
    config.databaseUrl === null
      ? ChangeBus.local()
      : await ChangeBus.postgres(config.databaseUrl, (payload) => notifyChange(db, payload));
  const services = buildServices(db, config, { bus, metrics });
  const app = await buildApp({ config, services, logger });
  const { applied } = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  logger.info(
    { database: db.kind === 'pg' ? 'postgresql' : `embedded (PGlite) in ${config.dataDir}` },
    'database ready',
  );
  const folder = new HistoryFolder(db, config.historyRetentionDays, logger);
  folder.start();
  const pruner = new Pruner(db, services.sessions, config.eventRetentionDays, logger);
  pruner.start();
  const dispatcher = new WebhookDispatcher(db, services.outbox, {
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: config.webhooks.allowPrivate,
    log: logger,
    ...(metrics ? { onResult: (result) => metrics.webhookDelivery(result) } : {}),
  });
  dispatcher.start();
  const scheduler = new SeasonScheduler(services.seasons, { log: logger });
  scheduler.start();

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    const limit = config.timeouts.shutdownMs;
    logger.info({ signal, timeout_s: limit / 1000 }, 'shutting down');
    // Connections still open near the end are closed, so that writing what is buffered and closing the
    // database fit in the time left; past the limit the process exits anyway.
    setTimeout(() => app.httpServer.closeAll(), Math.max(0, limit - 2_000)).unref();
    setTimeout(() => {
      logger.error({ timeout_s: limit / 1000 }, 'shutdown timed out; exiting');
      process.exit(1);
    }, limit).unref();
    try {
      await app.close();
      await folder.stop();
      await pruner.stop();
      await dispatcher.stop();
      await scheduler.stop();
      await metricsListener?.close();
      await services.flush();
      await bus.close();
      await db.close();
      logger.info({ took_ms: Date.now() - started }, 'shut down');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // One line and exit 2 (a configuration problem), before any token is made or printed.
    process.stderr.write(`${listenProblem(err, config)}\n`);
    closing = true;
    await Promise.allSettled([folder.stop(), pruner.stop(), dispatcher.stop(), scheduler.stop()]);
    await app.close().catch(() => undefined);
    await metricsListener?.close().catch(() => undefined);
    await bus.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(2);
  }
  warnAboutLoopbackPublicUrl(config, logger);
  // A stop asked for while it started needs no token any more.
  if (!closing) await ensureStartupBootstrapToken(services, config, logger);
}

await main();
