import type { parseArgs } from 'node:util';

/**
 * The arguments of `npx statboard` commands: the options every command draws on (parsed strictly, so a typo is
 * refused with the closest option), and helpers that turn them into the request bodies the admin API takes.
 */
export const OPTIONS = {
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
  scoring: { type: 'string' },
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
  block: { type: 'boolean' },
  public: { type: 'string' },
  stat: { type: 'string' },
  'sort-order': { type: 'string' },
  unit: { type: 'string' },
  'max-per-hour': { type: 'string' },
  'ttl-minutes': { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'string' },
  force: { type: 'boolean' },
  world: { type: 'string' },
  usercache: { type: 'string' },
} as const;

export type CliValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What a command prints: `json` with --json, else `text`. */
export type CliResult = { json: unknown; text: string };

/** A command line the command cannot run with (exit code 2, with its usage). */
export class UsageError extends Error {}

export function need(values: CliValues, name: keyof CliValues): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function list(value: string | undefined): string[] | undefined {
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
export function num(value: string | undefined): number | string | undefined {
  return value !== undefined && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

export function bool(value: string | undefined): boolean | string | undefined {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** The id of the workspace `--workspace` names (an id or a slug; 404 when there is none). */
export async function workspaceOf(
  workspaces: { resolve(ref: string): Promise<{ id: string }> },
  values: CliValues,
): Promise<string> {
  return (await workspaces.resolve(need(values, 'workspace'))).id;
}
