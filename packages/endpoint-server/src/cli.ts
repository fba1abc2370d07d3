/**
 * `endpoint-server --config <config.yml>`: the sidecar program. Console commands on stdin: `reload`, `stop`;
 * `SIGHUP` reloads; `SIGTERM` and `SIGINT` drain and exit 0.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createConsoleLogger } from './logger.ts';
import { ConfigLoadError, startRuntime } from './runtime.ts';

const USAGE = `Usage: endpoint-server [--config <config.yml>]

Serves the endpoints of config.yml as JSON, reading a Minecraft server folder.
Console commands: reload, stop, help. Signals: SIGHUP reloads, SIGTERM/SIGINT stop.`;

function version(): string {
  // From src/ (tsx) or from the transpiled copy under node_modules/.cache/endpoint-server/.
  for (const candidate of ['../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'endpoint-server') return pkg.version ?? '0.0.0';
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

async function main(): Promise<number | null> {
  let values: { config?: string; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string', short: 'c' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const logger = createConsoleLogger();
  let runtime: Awaited<ReturnType<typeof startRuntime>>;
  try {
    runtime = await startRuntime({ configPath: values.config ?? 'config.yml', logger });
  } catch (error) {
    if (error instanceof ConfigLoadError) logger.error(error.message);
    else logger.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }

  const stop = (): void => {
    runtime.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  const reload = (): void => {
    void runtime.reload();
  };

  process.on('SIGHUP', reload);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const console = createInterface({ input: process.stdin, terminal: false });
  console.on('line', (line) => {
    const command = line.trim().toLowerCase();
    if (command === '') return;
    if (command === 'reload') reload();
    else if (command === 'stop' || command === 'end') stop();
    else if (command === 'help') logger.info('Commands: reload, stop, help');
    else logger.warn(`Unknown command '${line.trim()}'; commands: reload, stop, help`);
  });
  return null;
}

main().then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
