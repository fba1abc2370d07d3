/**
 * The running program: loads `config.yml`, builds the sidecar host and the server, swaps whole validated
 * snapshots on reload, and drains on shutdown.
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ConfigLoadResult, type EndpointConfig, parseConfig } from './config.ts';
import { createSidecarHost, type SidecarHost, serverDirProblems } from './hosts/sidecar/sidecar-host.ts';
import type { Logger } from './logger.ts';
import { createEndpointServer, type EndpointServer, type EndpointSnapshot } from './server.ts';
import { YamlSyntaxError } from './yaml.ts';

/** A host the runtime can retire. */
export type ManagedHost = EndpointSnapshot['host'] & { deactivate(): void; close(): void };

/** Options of {@link startRuntime}. */
export interface RuntimeOptions {
  /** Path of `config.yml`. */
  readonly configPath: string;
  /** Where the runtime logs. */
  readonly logger: Logger;
  /** Builds the host for a configuration; defaults to the sidecar host. */
  readonly createHost?: (config: EndpointConfig) => Promise<ManagedHost>;
}

/** A started endpoint server program. */
export interface Runtime {
  /** The address it listens on, e.g. `http://127.0.0.1:4567`. */
  readonly url: string;
  /** The server. */
  readonly server: EndpointServer;
  /** The snapshot requests currently start with. */
  snapshot(): EndpointSnapshot;
  /** Reloads `config.yml`; resolves false when the file could not be used (the old one stays). */
  reload(): Promise<boolean>;
  /** Drains and stops; resolves when the server is closed. */
  shutdown(): Promise<void>;
}

/** The configuration file could not be read or parsed at start. */
export class ConfigLoadError extends Error {
  override readonly name = 'ConfigLoadError';
}

async function loadConfig(configPath: string, logger: Logger): Promise<ConfigLoadResult> {
  const file = path.resolve(configPath);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigLoadError(`Could not read ${file}: ${reason}`, { cause: error });
  }
  try {
    const result = parseConfig(text, { baseDir: path.dirname(file) });
    for (const warning of result.warnings) logger.warn(`${path.basename(file)}: ${warning}`);
    return result;
  } catch (error) {
    if (error instanceof YamlSyntaxError)
      throw new ConfigLoadError(
        `Could not parse ${file} at line ${error.line}, column ${error.column}: ${error.message}`,
        { cause: error },
      );
    throw error;
  }
}

function endpointCount(config: EndpointConfig): string {
  const n = config.endpoints?.size ?? 0;
  return `${n} endpoint${n === 1 ? '' : 's'}`;
}

function formatUrl(address: string, port: number): string {
  return address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

const sidecarHost = (config: EndpointConfig): Promise<SidecarHost> =>
  createSidecarHost({ serverDir: config.serverDir, world: config.world, servertap: config.servertap });

/** Warns about what the server folder lacks (sidecar only: a host given by the embedder reads no folder). */
async function warnAboutServerDir(options: RuntimeOptions, config: EndpointConfig): Promise<void> {
  if (options.createHost) return;
  for (const problem of await serverDirProblems(config.serverDir, config.world)) options.logger.warn(problem);
}

/** Loads the configuration, starts listening and returns the running program. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { logger } = options;
  const createHost = options.createHost ?? sidecarHost;
  const first = await loadConfig(options.configPath, logger);
  await warnAboutServerDir(options, first.config);
  let current: EndpointSnapshot = Object.freeze({ config: first.config, host: await createHost(first.config) });
  const server = createEndpointServer({ getSnapshot: () => current, logger });
  const address = await server.listen(first.config.port, first.config.bindAddress);
  const url = formatUrl(address.address, address.port);
  logger.info(`Listening on ${url} with ${endpointCount(first.config)}`);

  let reloading: Promise<boolean> = Promise.resolve(true);
  let stopping: Promise<void> | null = null;

  const retire = (host: ManagedHost, afterMs: number): void => {
    // Requests in flight finish on the old host; close it once they are past their time limit.
    setTimeout(() => host.close(), afterMs + 1000).unref();
  };

  const doReload = async (): Promise<boolean> => {
    let next: ConfigLoadResult;
    try {
      next = await loadConfig(options.configPath, logger);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.error(`${reason}; keeping the previous configuration`);
      return false;
    }
    const old = current;
    await warnAboutServerDir(options, next.config);
    const host = await createHost(next.config);
    current = Object.freeze({ config: next.config, host });
    // Logged once the new snapshot serves requests (a test waiting for this line may then request at once).
    if (next.config.bindAddress !== old.config.bindAddress || next.config.port !== old.config.port) {
      logger.warn(
        `bind_address/port changed to ${next.config.bindAddress}:${next.config.port}; ` +
          `restart to apply (still listening on ${url})`,
      );
    }
    if (JSON.stringify(next.config.clients) !== JSON.stringify(old.config.clients)) {
      logger.warn('headers/client/keep-alive timeouts or max_connections_per_address changed; restart to apply');
    }
    retire(old.host as ManagedHost, old.config.requestTimeoutSeconds * 1000);
    logger.info(`Reloaded ${path.basename(options.configPath)} with ${endpointCount(next.config)}`);
    return true;
  };

  return {
    url,
    server,
    snapshot: () => current,
    reload() {
      if (stopping) return Promise.resolve(false);
      reloading = reloading.then(doReload, doReload);
      return reloading;
    },
    shutdown() {
      if (stopping) return stopping;
      stopping = (async () => {
        const { config, host } = current;
        logger.info('Shutting down: new requests are answered 503 while requests in flight finish');
        await server.shutdown(config.requestTimeoutSeconds * 1000);
        (host as ManagedHost).deactivate();
        (host as ManagedHost).close();
        logger.info('Stopped');
      })();
      return stopping;
    },
  };
}
