import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SCOPES } from './access/scopes.ts';
import { ChangeBus } from './cache/bus.ts';
import { notifyChange } from './cache/repo.ts';
import { type CliResult, type CliValues, need, OPTIONS, UsageError } from './cli-args.ts';
import { ConfigError, loadConfig } from './config.ts';
import { backupEmbedded, restoreEmbedded } from './db/embedded-backup.ts';
import { migrate } from './db/migrate.ts';
import { DatabaseBusyError, openDatabase } from './db/open.ts';
import { AppError } from './errors.ts';
import type { Command } from './feature.ts';
import { FEATURES } from './features.ts';
import { buildServices, type Services } from './services.ts';

/**
 * `npx statboard <command>`: operate a workspace without any UI. Thin: parse arguments into the same request
 * bodies the admin API takes, call the same service operations (which validate them with the same schemas and
 * write the same audit records, with the actor `cli`), print, map errors to exit codes. With `--json` stdout
 * carries exactly one JSON document (errors too) and nothing else.
 */

const SCOPES_HELP = `Scopes: ${SCOPES.join(', ')} (client keys: ingest:write only; website keys: read scopes only; integration keys: any; ingest:server: an integration key restricted to exactly one server, for statboard-agent).`;

/** The commands of the features, in the order of `FEATURES`. */
const FEATURE_COMMANDS: ReadonlyMap<string, Command> = new Map(
  FEATURES.flatMap((f) => f.cli ?? []).map((c) => [c.name, c]),
);

/** A command's lines of the usage text: its name, then its options (and any further lines, indented). */
function usageLines(name: string, usage: string): string {
  return `  ${name}${usage === '' ? '' : ` ${usage}`}`;
}

const USAGE = `Usage: statboard <command> [options] [--json]

Commands:
  migrate                                   apply pending database migrations
${[...FEATURE_COMMANDS.values()].map((c) => usageLines(c.name, c.usage)).join('\n')}
  backup --out FILE                         copy the embedded database to FILE (stop the service first)
  restore --from FILE [--force]             replace the embedded database with a backup (--force when it
                                            holds workspaces; the replaced one is kept beside it)

W is a workspace id or slug. The database is the service's: DATABASE_URL, else the embedded one under DATA_DIR.
${SCOPES_HELP}
\`statboard <command> --help\` shows one command.`;

/** The usage lines of one command (its line and the indented lines under it), from USAGE. */
function usageOf(command: string): string {
  const lines = USAGE.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
  if (at < 0) return USAGE;
  const own = [lines[at]!];
  for (const l of lines.slice(at + 1)) {
    if (!/^ {4,}/.test(l)) break;
    own.push(l);
  }
  const scopes = command.startsWith('key ') ? `\n${SCOPES_HELP}` : '';
  return `Usage: statboard ${own.map((l) => l.trim()).join('\n       ')} [--json]${scopes}`;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest of `candidates` to `word`, when it is close enough to be a typo. */
function closest(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** parseArgs' message, with the closest valid option for an unknown one. */
function argumentProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (!unknown) return message;
  const near = closest(unknown[2]!, Object.keys(OPTIONS));
  return `unknown option '${unknown[1]}${unknown[2]}'${near ? `; did you mean --${near}?` : ''}`;
}

export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 3, notFound: 4, conflict: 5 } as const;

/**
 * Runs a feature's command (`migrate`, `backup` and `restore` are the CLI's own). `publicUrl`: the service's
 * address (PUBLIC_URL) when the command runs on the configured database, for the lines that say where to go next.
 */
async function run(
  services: Services,
  command: string,
  values: CliValues,
  publicUrl: string | null,
): Promise<CliResult> {
  if (command === 'migrate') throw new UsageError('migrate runs on the configured database only');
  const feature = FEATURE_COMMANDS.get(command);
  if (!feature) throw new UsageError(`unknown command '${command}'`);
  return feature.run(services, values, { publicUrl });
}

const COMMANDS = new Set(['migrate', ...FEATURE_COMMANDS.keys(), 'backup', 'restore']);

function exitFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError) return EXIT.usage;
  if (err instanceof DatabaseBusyError) return EXIT.busy;
  if (err instanceof AppError) {
    if (err.code === 'NOT_FOUND') return EXIT.notFound;
    if (err.code === 'CONFLICT') return EXIT.conflict;
    if (err.status < 500) return EXIT.usage;
  }
  return EXIT.failure;
}

/** Request fields (as the services name them in `details`) that an option of another name sets. */
const OPTION_OF_FIELD: Record<string, keyof typeof OPTIONS> = {
  player_restrictions: 'players',
  uuid_restrictions: 'players',
  server_restrictions: 'servers',
  season_restrictions: 'seasons',
  workspace_id: 'workspace',
  enabled: 'disabled',
  active: 'activate',
};

/** The option that sets a field of a request body (`slug` → `--slug`), or the field itself when none does. */
function optionOf(field: string): string {
  const head = field.split('.')[0]!;
  const option = OPTION_OF_FIELD[head] ?? head.replace(/_/g, '-');
  return option in OPTIONS ? `--${option}` : field;
}

/** "Cannot read …" → "cannot read …" (an acronym or a name stays as it is). */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/**
 * An error as one line for stderr: `error: --slug: must match pattern …`. A 422 names the option of its first
 * problem (the JSON document of `--json` lists them all); usage mistakes point at the command's `--help`.
 */
function errorLine(err: unknown, command: string): string {
  const oneLine = (text: string) => text.replace(/\s*\n\s*/g, '; ');
  if (err instanceof AppError && err.details) {
    const entries = Object.entries(err.details).filter(([, m]) => m.length > 0);
    const [field, messages] = entries[0] ?? ['', []];
    const first = messages[0];
    if (first !== undefined) {
      const more = entries.reduce((n, [, m]) => n + m.length, 0) - 1;
      const also = more > 0 ? ` (and ${more} more problem${more > 1 ? 's' : ''}: --json lists them)` : '';
      const what = err.message.includes(first) ? first : `${lowerFirst(err.message.replace(/\.$/, ''))} (${first})`;
      const scopes = command.startsWith('key ') && field === 'scopes' ? ` (${SCOPES_HELP})` : '';
      return oneLine(`error: ${optionOf(field)}: ${what}${scopes}${also}`);
    }
  }
  if (err instanceof UsageError) {
    const help = COMMANDS.has(command) ? `statboard ${command} --help` : 'statboard --help';
    return oneLine(`error: ${err.message} (see \`${help}\`)`);
  }
  if (err instanceof ConfigError) return oneLine(`error: invalid configuration: ${err.problems.join('; ')}`);
  return oneLine(`error: ${err instanceof Error ? err.message : String(err)}`);
}

function errorJson(err: unknown): unknown {
  if (err instanceof AppError) {
    return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
  }
  if (err instanceof UsageError) return { error: { code: 'USAGE', message: err.message } };
  if (err instanceof ConfigError)
    return { error: { code: 'CONFIG', message: err.message, details: { env: err.problems } } };
  if (err instanceof DatabaseBusyError) return { error: { code: 'DATABASE_BUSY', message: err.message } };
  return { error: { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) } };
}

/** `backup` and `restore`: files of the embedded database, outside any service. */
async function embeddedFiles(command: string, values: CliValues): Promise<CliResult> {
  const config = loadConfig();
  if (config.databaseUrl !== null) {
    throw new UsageError(
      `${command} copies the embedded database; with DATABASE_URL use pg_dump and pg_restore (docs/production.md)`,
    );
  }
  if (command === 'backup') {
    const out = resolve(need(values, 'out'));
    const { bytes } = await backupEmbedded(config.dataDir, out);
    return { json: { data: { file: out, bytes } }, text: `Backed up ${config.dataDir} to ${out} (${bytes} bytes)` };
  }
  const from = resolve(need(values, 'from'));
  const { replaced } = await restoreEmbedded(config.dataDir, from, values.force === true);
  return {
    json: { data: { file: from, replaced } },
    text: `Restored ${from} into ${config.dataDir}${replaced ? `; the previous database is kept in ${replaced}` : ''}`,
  };
}

/** Runs a command on the database of the configuration (DATABASE_URL, else the embedded one), migrated first. */
async function onConfiguredDatabase(command: string, values: CliValues): Promise<CliResult> {
  if (command === 'backup' || command === 'restore') return embeddedFiles(command, values);
  const config = loadConfig();
  const db = await openDatabase(config);
  let services: Services | null = null;
  try {
    const migrated = await migrate(db);
    if (command === 'migrate') {
      return {
        json: { data: { applied: migrated.applied } },
        text: migrated.applied.length ? `Applied ${migrated.applied.join(', ')}` : 'Nothing to migrate.',
      };
    }
    // With a PostgreSQL server the service may be running: what a command changes reaches its caches.
    const bus = db.kind === 'pg' ? ChangeBus.announcing((payload) => notifyChange(db, payload)) : undefined;
    services = buildServices(db, config, { bus });
    return await run(services, command, values, config.publicUrl);
  } finally {
    await services?.flush().catch(() => undefined);
    await db.close();
  }
}

/**
 * Runs one command and returns its exit code. `services`, when given, are used instead of opening the configured
 * database (tests run commands on their own database).
 */
export async function main(argv: string[], services?: Services): Promise<number> {
  let values: CliValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (err) {
    const json = argv.includes('--json');
    const message = argumentProblem(err);
    const known = argv.slice(0, 2).join(' ');
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'USAGE', message } })}\n`);
    process.stderr.write(`${errorLine(new UsageError(message), known)}\n`);
    return EXIT.usage;
  }
  const json = values.json === true;
  const command =
    positionals.length >= 2 && COMMANDS.has(positionals.slice(0, 2).join(' '))
      ? positionals.slice(0, 2).join(' ')
      : (positionals[0] ?? '');
  if (values.help && COMMANDS.has(command)) {
    process.stdout.write(`${usageOf(command)}\n`);
    return EXIT.ok;
  }
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === '' && !values.help ? EXIT.usage : EXIT.ok;
  }
  try {
    if (!COMMANDS.has(command)) {
      const near = closest(positionals.join(' '), COMMANDS);
      throw new UsageError(`unknown command '${positionals.join(' ')}'${near ? `; did you mean '${near}'?` : ''}`);
    }
    const result =
      services === undefined ? await onConfiguredDatabase(command, values) : await run(services, command, values, null);
    process.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return EXIT.ok;
  } catch (err) {
    // With --json, stdout holds the one JSON document; stderr gets the same one line either way.
    if (json) process.stdout.write(`${JSON.stringify(errorJson(err))}\n`);
    process.stderr.write(`${errorLine(err, command)}\n`);
    return exitFor(err);
  }
}
