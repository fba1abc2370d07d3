/**
 * A minimal logger: information on stdout, warnings and errors on stderr.
 * @packageDocumentation
 */

/** Where the server writes what happens. */
export interface Logger {
  /** Normal operation. */
  info(message: string): void;
  /** Configuration problems, failed renders. */
  warn(message: string): void;
  /** Failures that need attention. */
  error(message: string): void;
}

/** Writes `[INFO]`, `[WARN]` and `[ERROR]` lines with a timestamp. */
export function createConsoleLogger(): Logger {
  const line = (level: string, message: string): string => `${new Date().toISOString()} [${level}] ${message}\n`;
  return {
    info: (message) => process.stdout.write(line('INFO', message)),
    warn: (message) => process.stderr.write(line('WARN', message)),
    error: (message) => process.stderr.write(line('ERROR', message)),
  };
}

/** Discards everything. */
export const silentLogger: Logger = Object.freeze({
  info: () => {},
  warn: () => {},
  error: () => {},
});
