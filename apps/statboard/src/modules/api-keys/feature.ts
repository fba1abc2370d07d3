import { type CliValues, list, need, num, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { apiKeyRoutes } from './routes.ts';
import { ApiKey, CreateApiKeyResponse } from './schemas.ts';
import { KeyAdminService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** API keys for the admin API and the CLI (verifying them is `verifier`'s). */
    readonly keys: KeyAdminService;
  }
}

/** The settings of `key create` and `key update`. */
function keyBody(values: CliValues) {
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

export const apiKeysFeature = {
  name: 'api-keys',
  services: { keys: (s) => new KeyAdminService(s.db, s.changes, s.audit, s.verifier, s.outbox) },
  schemas: [ApiKey, CreateApiKeyResponse],
  routes: (s, { admin }) => ({ v1: [apiKeyRoutes(s.keys, admin)] }),
  cli: [
    {
      name: 'key create',
      usage:
        '--workspace W --name N --type client|website|integration --scopes a,b\n' +
        '             [--players uuid,…] [--servers id,…] [--seasons id,…] [--expires-at ISO] [--description D]',
      run: async (s, v) => {
        const ws = await workspaceOf(s.workspaces, v);
        const k = await s.keys.create(CLI_ACTOR, ws, { ...keyBody(v), type: need(v, 'type') });
        return {
          json: k,
          text: `Created ${k.data.type} key ${k.data.name} ${k.data.id}\nSecret (shown once, store it now):\n${k.secret}`,
        };
      },
    },
    {
      name: 'key update',
      usage: '--workspace W --key ID --name N --scopes a,b [same options as create, omitted ones are cleared]',
      run: async (s, v) => {
        const k = await s.keys.update(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'key'), keyBody(v));
        return { json: { data: k }, text: `Updated key ${k.name} ${k.id}` };
      },
    },
    {
      name: 'key rotate',
      usage: '--workspace W --key ID [--grace-seconds S]',
      run: async (s, v) => {
        const grace = num(v['grace-seconds']);
        const ws = await workspaceOf(s.workspaces, v);
        const k = await s.keys.rotate(CLI_ACTOR, ws, need(v, 'key'), { grace_seconds: grace });
        return {
          json: k,
          text: `Issued key ${k.data.name} ${k.data.id} in place of ${need(v, 'key')}\nSecret (shown once, store it now):\n${k.secret}`,
        };
      },
    },
    {
      name: 'key revoke',
      usage: '--workspace W --key ID',
      run: async (s, v) => {
        const k = await s.keys.revoke(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'key'));
        return { json: { data: k }, text: `Revoked key ${k.name} ${k.id}` };
      },
    },
    {
      name: 'key list',
      usage: '--workspace W',
      run: async (s, v) => {
        const all = await s.keys.list(await workspaceOf(s.workspaces, v));
        return {
          json: { data: all },
          text:
            all
              .map((k) => `${k.id}  ${k.prefix}  ${k.status.padEnd(8)} ${k.name}  [${k.scopes.join(',')}]`)
              .join('\n') || 'No keys.',
        };
      },
    },
  ],
} satisfies Feature;
