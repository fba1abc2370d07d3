import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ChangeBus } from './cache/bus.ts';
import { notifyChange } from './cache/repo.ts';
import { ConfigError, loadConfig } from './config.ts';
import { backupEmbedded, restoreEmbedded } from './db/embedded-backup.ts';
import { migrate } from './db/migrate.ts';
import { DatabaseBusyError, openDatabase } from './db/open.ts';
import { AppError } from './errors.ts';
import { SCOPES } from './modules/api-keys/scopes.ts';
import { CLI_ACTOR } from './modules/audit-log/service.ts';
import { buildServices, type Services } from './services.ts';

/**
 * `npx statboard <command>`: operate a workspace without any UI. Thin: parse arguments into the same request
 * bodies the admin API takes, call the same service operations (which validate them with the same schemas and
 * write the same audit records, with the actor `cli`), print, map errors to exit codes. With `--json` stdout
 * carries exactly one JSON document (errors too) and nothing else.
 */

const SCOPES_HELP = `Scopes: ${SCOPES.join(', ')} (client keys: ingest:write only; website keys: read scopes only; integration keys: any).`;

const USAGE = `Usage: statboard <command> [options] [--json]

Commands:
  migrate                                   apply pending database migrations
  workspace create --name N [--slug S]      create a workspace
  workspace list
  server create --workspace W --hostname H --port P [--name N] [--display-name D] [--disabled]
  server update --workspace W --server ID --hostname H --port P [--name N] [--display-name D] [--disabled]
  server list --workspace W
  season create --workspace W --name N --slug S [--activate] [--started-at ISO] [--ended-at ISO]
  season activate --workspace W --season ID|SLUG
  season list --workspace W
  key create --workspace W --name N --type client|website|integration --scopes a,b
             [--players uuid,…] [--servers id,…] [--seasons id,…] [--expires-at ISO] [--description D]
  key update --workspace W --key ID --name N --scopes a,b [same options as create, omitted ones are cleared]
  key rotate --workspace W --key ID [--grace-seconds S]
  key revoke --workspace W --key ID
  key list --workspace W
  player update --workspace W --player UUID --public true|false
  stat update --workspace W --stat KEY|ID [--public true|false] [--display-name D|default]
             [--unit ticks|cm|damage|count|default] [--sort-order asc|desc]
  stat list --workspace W
  bootstrap-token [--workspace W] [--ttl-minutes M]
                                            print a new single-use bootstrap token (default 60 minutes); with
                                            --workspace, redeeming it makes the signed-in user owner of W
  backup --out FILE                         copy the embedded database to FILE (stop the service first)
  restore --from FILE [--force]             replace the embedded database with a backup (--force when it
                                            holds workspaces; the replaced one is kept beside it)
  import --workspace W --season ID|SLUG --world DIR [--usercache FILE]
                                            import a server's vanilla statistics (DIR/stats/<uuid>.json,
                                            Minecraft 1.13+) as observed at each file's time; names from
                                            usercache.json (default: DIR/../usercache.json); run again: no change
  user list --workspace W                   the workspace's members and their roles
  user grant --workspace W --user EMAIL|ID --role owner|admin|analyst|readonly
                                            (the user must have signed in once; an EMAIL names them
                                            only when their provider verified it, an ID always)
  user revoke --workspace W --user EMAIL|ID remove a member (never the last owner)

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

class UsageError extends Error {}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  slug: { type: 'string' },
  workspace: { type: 'string' },
  server: { type: 'string' },
  hostname: { type: 'string' },
  port: { type: 'string' },
  'display-name': { type: 'string' },
  disabled: { type: 'boolean' },
  season: { type: 'string' },
  activate: { type: 'boolean' },
  'started-at': { type: 'string' },
  'ended-at': { type: 'string' },
  type: { type: 'string' },
  scopes: { type: 'string' },
  players: { type: 'string' },
  servers: { type: 'string' },
  seasons: { type: 'string' },
  'expires-at': { type: 'string' },
  description: { type: 'string' },
  key: { type: 'string' },
  'grace-seconds': { type: 'string' },
  player: { type: 'string' },
  public: { type: 'string' },
  stat: { type: 'string' },
  'sort-order': { type: 'string' },
  unit: { type: 'string' },
  'ttl-minutes': { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'string' },
  force: { type: 'boolean' },
  world: { type: 'string' },
  usercache: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A flag's text as the JSON value the request body would hold: whole numbers and true/false become numbers and
 * booleans, anything else stays text, for the body's schema to judge (and name in its error).
 */
function num(value: string | undefined): number | string | undefined {
  return value !== undefined && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

function bool(value: string | undefined): boolean | string | undefined {
  return value === 'true' ? true : value === 'false' ? false : value;
}

type Result = { json: unknown; text: string };

/** A progress bar on stderr when it is a terminal (never with --json): `[#####-----] 512/10000 files, 51200 values`. */
function progressBar(json: boolean): {
  update: (done: number, total: number, values: number) => void;
  done: () => void;
} {
  if (json || !process.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  const draw = (done: number, total: number, values: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} files, ${values} values stored`,
    );
  };
  return {
    update: (done, total, values) => {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      draw(done, total, values);
    },
    done: () => process.stderr.write('\n'),
  };
}

/** The body of `server create` and `server update` (PUT replaces: omitted settings take their defaults). */
function serverBody(values: Values) {
  return {
    name: values.name,
    display_name: values['display-name'],
    hostname: need(values, 'hostname'),
    port: num(need(values, 'port')),
    enabled: values.disabled !== true,
  };
}

/** The settings of `key create` and `key update`. */
function keyBody(values: Values) {
  return {
    name: need(values, 'name'),
    scopes: list(need(values, 'scopes')),
    description: values.description,
    player_restrictions: list(values.players),
    server_restrictions: list(values.servers),
    season_restrictions: list(values.seasons),
    expires_at: values['expires-at'],
  };
}

function serverLine(s: { id: string; hostname: string; port: number; name: string; enabled: boolean }): string {
  return `${s.id}  ${s.hostname}:${s.port}  ${s.name}${s.enabled ? '' : ' (disabled)'}`;
}

/**
 * `publicUrl`: the service's address (PUBLIC_URL) when the command runs on the configured database, for the
 * lines that say where to go next.
 */
async function run(services: Services, command: string, values: Values, publicUrl: string | null): Promise<Result> {
  const actor = CLI_ACTOR;
  const ws = async () => (await services.workspaces.resolve(need(values, 'workspace'))).id;
  switch (command) {
    case 'migrate':
      throw new UsageError('migrate runs on the configured database only');
    case 'workspace create': {
      const w = await services.workspaces.create(actor, { name: need(values, 'name'), slug: values.slug });
      return { json: { data: w }, text: `Created workspace ${w.name} (${w.slug}) ${w.id}` };
    }
    case 'workspace list': {
      const all = await services.workspaces.list();
      return {
        json: { data: all },
        text: all.map((w) => `${w.id}  ${w.slug}  ${w.name}`).join('\n') || 'No workspaces.',
      };
    }
    case 'server create': {
      const s = await services.servers.create(actor, await ws(), serverBody(values));
      return { json: { data: s }, text: `Registered server ${serverLine(s)}` };
    }
    case 'server update': {
      const s = await services.servers.update(actor, await ws(), need(values, 'server'), serverBody(values));
      return { json: { data: s }, text: `Updated server ${serverLine(s)}` };
    }
    case 'server list': {
      const all = await services.servers.list(await ws());
      return { json: { data: all }, text: all.map(serverLine).join('\n') || 'No servers.' };
    }
    case 'season create': {
      const s = await services.seasons.create(actor, await ws(), {
        name: need(values, 'name'),
        slug: need(values, 'slug'),
        active: values.activate === true,
        started_at: values['started-at'],
        ended_at: values['ended-at'],
      });
      return { json: { data: s }, text: `Created season ${s.slug} ${s.id}${s.active ? ' (active)' : ''}` };
    }
    case 'season activate': {
      const s = await services.seasons.activate(actor, await ws(), need(values, 'season'));
      return { json: { data: s }, text: `Activated season ${s.slug} ${s.id}` };
    }
    case 'season list': {
      const all = await services.seasons.list(await ws());
      return {
        json: { data: all },
        text: all.map((s) => `${s.id}  ${s.slug}  ${s.name}${s.active ? ' (active)' : ''}`).join('\n') || 'No seasons.',
      };
    }
    case 'key create': {
      const k = await services.keys.create(actor, await ws(), { ...keyBody(values), type: need(values, 'type') });
      return {
        json: k,
        text: `Created ${k.data.type} key ${k.data.name} ${k.data.id}\nSecret (shown once, store it now):\n${k.secret}`,
      };
    }
    case 'key update': {
      const k = await services.keys.update(actor, await ws(), need(values, 'key'), keyBody(values));
      return { json: { data: k }, text: `Updated key ${k.name} ${k.id}` };
    }
    case 'key rotate': {
      const grace = num(values['grace-seconds']);
      const k = await services.keys.rotate(actor, await ws(), need(values, 'key'), { grace_seconds: grace });
      return {
        json: k,
        text: `Issued key ${k.data.name} ${k.data.id} in place of ${need(values, 'key')}\nSecret (shown once, store it now):\n${k.secret}`,
      };
    }
    case 'key revoke': {
      const k = await services.keys.revoke(actor, await ws(), need(values, 'key'));
      return { json: { data: k }, text: `Revoked key ${k.name} ${k.id}` };
    }
    case 'key list': {
      const all = await services.keys.list(await ws());
      return {
        json: { data: all },
        text:
          all.map((k) => `${k.id}  ${k.prefix}  ${k.status.padEnd(8)} ${k.name}  [${k.scopes.join(',')}]`).join('\n') ||
          'No keys.',
      };
    }
    case 'player update': {
      const p = await services.playerAdmin.update(actor, await ws(), need(values, 'player'), {
        public: bool(need(values, 'public')),
      });
      return { json: { data: p }, text: `Player ${p.username} ${p.uuid} is ${p.public ? 'public' : 'hidden'}` };
    }
    case 'stat update': {
      const d = await services.stats.update(actor, await ws(), need(values, 'stat'), {
        public: bool(values.public),
        // `default`: back to the name and unit that follow from the key.
        display_name: values['display-name'] === 'default' ? null : values['display-name'],
        unit: values.unit === 'default' ? null : values.unit,
        sort_order: values['sort-order'],
      });
      return {
        json: { data: d },
        text: `Statistic ${d.key} (${d.display_name}, ${d.unit}): ${d.public ? 'public' : 'hidden'}, ${d.sort_order}`,
      };
    }
    case 'stat list': {
      const all = await services.stats.list(await ws());
      return {
        json: { data: all },
        text:
          all
            .map((d) => `${d.key}  ${d.public ? 'public' : 'hidden'}  ${d.sort_order}  ${d.unit}  ${d.display_name}`)
            .join('\n') || 'No statistics.',
      };
    }
    case 'bootstrap-token': {
      const workspace =
        values.workspace === undefined ? undefined : await services.workspaces.resolve(values.workspace);
      const t = await services.setup.createToken(actor, {
        ttl_minutes: num(values['ttl-minutes']),
        workspace_id: workspace?.id,
      });
      const what = workspace === undefined ? '' : ` for ${workspace.name} (${workspace.slug})`;
      const gives = workspace === undefined ? 'create the first workspace' : `become owner of ${workspace.name}`;
      const where = publicUrl === null ? 'the console' : `${publicUrl}/setup`;
      return {
        json: t,
        text:
          `Bootstrap token${what}, single use, expires ${t.expires_at}:\n${t.token}\n` +
          `Open ${where} in a browser, sign in, and paste it to ${gives}.`,
      };
    }
    case 'import': {
      const bar = progressBar(values.json === true);
      const r = await services.imports.importWorld(
        actor,
        await ws(),
        { season: need(values, 'season'), world: need(values, 'world'), usercache: values.usercache },
        bar.update,
      );
      bar.done();
      const skipped = r.skipped.map((s) => `  skipped ${s.file}: ${s.reason}`).join('\n');
      return {
        json: { data: r },
        text:
          `Imported ${r.files} statistics files (${r.players} players): ${r.values} values stored or changed` +
          (r.skipped.length > 0 ? `; ${r.skipped.length} skipped:\n${skipped}` : ''),
      };
    }
    case 'user list': {
      const all = await services.users.list(await ws());
      const data = all.map(({ id, email, display_name, role }) => ({ id, email, display_name, role }));
      return {
        json: { data },
        text: data.map((u) => `${u.id}  ${u.role}  ${u.email ?? '-'}  ${u.display_name}`).join('\n') || 'No members.',
      };
    }
    case 'user grant':
    case 'user revoke': {
      const workspaceId = await ws();
      const user = need(values, 'user');
      const role = command === 'user grant' ? need(values, 'role') : null;
      // The operator reaches every user (members of other workspaces too); an email still names only a user whose
      // provider verified it.
      const u = await services.users.setRole({ ...actor, role: 'owner' }, workspaceId, user, { role }, 'anyone');
      const data = { id: u.id, email: u.email, display_name: u.display_name, role: u.role };
      return {
        json: { data },
        text: role === null ? `Removed ${u.email ?? u.id} from the workspace` : `${u.email ?? u.id} is now ${u.role}`,
      };
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

const COMMANDS = new Set([
  'migrate',
  'workspace create',
  'workspace list',
  'server create',
  'server update',
  'server list',
  'season create',
  'season activate',
  'season list',
  'key create',
  'key update',
  'key rotate',
  'key revoke',
  'key list',
  'player update',
  'stat update',
  'stat list',
  'bootstrap-token',
  'import',
  'user list',
  'user grant',
  'user revoke',
  'backup',
  'restore',
]);

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
async function embeddedFiles(command: string, values: Values): Promise<Result> {
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
async function onConfiguredDatabase(command: string, values: Values): Promise<Result> {
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
  let values: Values;
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
