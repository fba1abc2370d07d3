import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { DatabaseBusyError, openDatabase } from './db/open.ts';
import { transactionalDb } from './db/types.ts';
import { AppError } from './errors.ts';
import type { AuditEntry } from './modules/audit/service.ts';
import { buildServices, type Services } from './services.ts';

/**
 * `npx statboard <command>`: operate a workspace without any UI (DECISIONS, "CLI"). Thin: parse arguments,
 * call the same services as the HTTP routes, print, map errors to exit codes. With `--json` stdout carries
 * exactly one JSON document (errors too) and nothing else.
 */

const USAGE = `Usage: statboard <command> [options] [--json]

Commands:
  migrate                                   apply pending database migrations
  workspace create --name N [--slug S]      create a workspace
  workspace list
  server create --workspace W --hostname H --port P [--name N] [--display-name D] [--disabled]
  server list --workspace W
  season create --workspace W --name N --slug S [--activate] [--started-at ISO] [--ended-at ISO]
  season activate --workspace W --season ID|SLUG
  season list --workspace W
  key create --workspace W --name N --type client|website|integration --scopes a,b
             [--players uuid,…] [--servers id,…] [--seasons id,…] [--expires-at ISO] [--description D]
  key revoke --workspace W --key ID
  key list --workspace W
  bootstrap-token [--ttl-minutes M]         print a new single-use bootstrap token (default 60 minutes)

W is a workspace id or slug. The database is the service's: DATABASE_URL, else the embedded one under DATA_DIR.`;

export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 3, notFound: 4, conflict: 5 } as const;

class UsageError extends Error {}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  slug: { type: 'string' },
  workspace: { type: 'string' },
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
  'ttl-minutes': { type: 'string' },
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

function int(value: string, name: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

type Result = { json: unknown; text: string };
type Audit = (entry: Omit<AuditEntry, 'actorUserId' | 'actorLabel'>) => Promise<void>;

/**
 * Runs a change in one transaction with its audit record (actor: the CLI), as the admin routes do: both
 * commit or neither.
 */
function change<T>(services: Services, fn: (s: Services, audit: Audit) => Promise<T>): Promise<T> {
  return services.db.transaction(async (tx) => {
    const scoped = buildServices(transactionalDb(tx, services.db.kind), { nextUploadAfterSeconds: 60 });
    const audit: Audit = async (entry) => {
      await services.audit.record(tx, { ...entry, actorUserId: null, actorLabel: 'cli' });
    };
    return fn(scoped, audit);
  });
}

async function run(services: Services, command: string, values: Values): Promise<Result> {
  const ws = async () => services.workspaces.resolve(need(values, 'workspace'));
  switch (command) {
    case 'migrate':
      throw new Error('unreachable'); // handled before services exist
    case 'workspace create': {
      const w = await change(services, async (s, audit) => {
        const created = await s.workspaces.create({ name: need(values, 'name'), slug: values.slug });
        await audit({
          workspaceId: created.id,
          action: 'WORKSPACE_CREATED',
          targetType: 'workspace',
          targetId: created.id,
          after: created,
        });
        return created;
      });
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
      const workspaceId = (await ws()).id;
      const s = await change(services, async (t, audit) => {
        const created = await t.servers.create(workspaceId, {
          name: values.name,
          display_name: values['display-name'],
          hostname: need(values, 'hostname'),
          port: int(need(values, 'port'), 'port'),
          enabled: values.disabled !== true,
        });
        await audit({
          workspaceId,
          action: 'SERVER_CREATED',
          targetType: 'server',
          targetId: created.id,
          after: created,
        });
        return created;
      });
      return {
        json: { data: s },
        text: `Registered server ${s.hostname}:${s.port} ${s.id}${s.enabled ? '' : ' (disabled)'}`,
      };
    }
    case 'server list': {
      const all = await services.servers.list((await ws()).id);
      return {
        json: { data: all },
        text:
          all.map((s) => `${s.id}  ${s.hostname}:${s.port}  ${s.name}${s.enabled ? '' : ' (disabled)'}`).join('\n') ||
          'No servers.',
      };
    }
    case 'season create': {
      const workspaceId = (await ws()).id;
      const s = await change(services, async (t, audit) => {
        const created = await t.seasons.create(workspaceId, {
          name: need(values, 'name'),
          slug: need(values, 'slug'),
          active: values.activate === true,
          started_at: values['started-at'],
          ended_at: values['ended-at'],
        });
        await audit({
          workspaceId,
          action: 'SEASON_CREATED',
          targetType: 'season',
          targetId: created.id,
          after: created,
        });
        return created;
      });
      return { json: { data: s }, text: `Created season ${s.slug} ${s.id}${s.active ? ' (active)' : ''}` };
    }
    case 'season activate': {
      const workspaceId = (await ws()).id;
      const season = await change(services, async (t, audit) => {
        const { season: after, previous } = await t.seasons.activate(workspaceId, need(values, 'season'));
        await audit({
          workspaceId,
          action: 'SEASON_ACTIVATED',
          targetType: 'season',
          targetId: after.id,
          before: previous,
          after,
        });
        return after;
      });
      return { json: { data: season }, text: `Activated season ${season.slug} ${season.id}` };
    }
    case 'season list': {
      const all = await services.seasons.list((await ws()).id);
      return {
        json: { data: all },
        text: all.map((s) => `${s.id}  ${s.slug}  ${s.name}${s.active ? ' (active)' : ''}`).join('\n') || 'No seasons.',
      };
    }
    case 'key create': {
      const workspaceId = (await ws()).id;
      const created = await change(services, async (t, audit) => {
        const made = await t.keys.create(workspaceId, {
          name: need(values, 'name'),
          type: need(values, 'type'),
          scopes: list(need(values, 'scopes')) ?? [],
          description: values.description ?? null,
          player_restrictions: list(values.players),
          server_restrictions: list(values.servers),
          season_restrictions: list(values.seasons),
          expires_at: values['expires-at'] ?? null,
        });
        await audit({
          workspaceId,
          action: 'API_KEY_CREATED',
          targetType: 'api_key',
          targetId: made.data.id,
          after: made.data,
        });
        return made;
      });
      return {
        json: created,
        text: `Created ${created.data.type} key ${created.data.name} ${created.data.id}\nSecret (shown once, store it now):\n${created.secret}`,
      };
    }
    case 'key revoke': {
      const workspaceId = (await ws()).id;
      const k = await change(services, async (t, audit) => {
        const before = await t.keys.get(workspaceId, need(values, 'key'));
        const after = await t.keys.revoke(workspaceId, before.id);
        await audit({
          workspaceId,
          action: 'API_KEY_REVOKED',
          targetType: 'api_key',
          targetId: after.id,
          before,
          after,
        });
        return after;
      });
      return { json: { data: k }, text: `Revoked key ${k.name} ${k.id}` };
    }
    case 'key list': {
      const all = await services.keys.list((await ws()).id);
      return {
        json: { data: all },
        text:
          all.map((k) => `${k.id}  ${k.prefix}  ${k.status.padEnd(8)} ${k.name}  [${k.scopes.join(',')}]`).join('\n') ||
          'No keys.',
      };
    }
    case 'bootstrap-token': {
      const ttl = values['ttl-minutes'] === undefined ? undefined : int(values['ttl-minutes'], 'ttl-minutes');
      const t = await change(services, async (scoped, audit) => {
        const token = await scoped.bootstrap.createToken(ttl);
        // The token itself never goes into the audit log.
        await audit({
          workspaceId: null,
          action: 'BOOTSTRAP_TOKEN_CREATED',
          targetType: 'bootstrap_token',
          targetId: null,
          after: { expires_at: token.expires_at },
        });
        return token;
      });
      return { json: t, text: `Bootstrap token (single use, expires ${t.expires_at}):\n${t.token}` };
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
  'server list',
  'season create',
  'season activate',
  'season list',
  'key create',
  'key revoke',
  'key list',
  'bootstrap-token',
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

export async function main(argv: string[]): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (err) {
    const json = argv.includes('--json');
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'USAGE', message } })}\n`);
    process.stderr.write(`statboard: ${message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const json = values.json === true;
  const command =
    positionals.length >= 2 && COMMANDS.has(positionals.slice(0, 2).join(' '))
      ? positionals.slice(0, 2).join(' ')
      : (positionals[0] ?? '');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === '' && !values.help ? EXIT.usage : EXIT.ok;
  }
  let services: Services | null = null;
  try {
    if (!COMMANDS.has(command)) throw new UsageError(`unknown command '${positionals.join(' ')}'`);
    const config = loadConfig();
    const db = await openDatabase(config);
    try {
      const migrated = await migrate(db);
      if (command === 'migrate') {
        const out = { data: { applied: migrated.applied } };
        process.stdout.write(
          json
            ? `${JSON.stringify(out)}\n`
            : `${migrated.applied.length ? `Applied ${migrated.applied.join(', ')}` : 'Nothing to migrate.'}\n`,
        );
        return EXIT.ok;
      }
      services = buildServices(db, config);
      const result = await run(services, command, values);
      process.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
      return EXIT.ok;
    } finally {
      await services?.flush().catch(() => undefined);
      await db.close();
    }
  } catch (err) {
    if (json) process.stdout.write(`${JSON.stringify(errorJson(err))}\n`);
    const details = err instanceof AppError && err.details ? `\n${JSON.stringify(err.details)}` : '';
    process.stderr.write(`statboard: ${err instanceof Error ? err.message : String(err)}${details}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
    return exitFor(err);
  }
}

process.exitCode = await main(process.argv.slice(2));
