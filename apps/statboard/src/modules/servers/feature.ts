import { type CliValues, need, num, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { serverRoutes } from './routes.ts';
import { Server } from './schemas.ts';
import { ServerService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Registered game servers. */
    readonly servers: ServerService;
  }
}

/** The body of `server create` and `server update` (PUT replaces: omitted settings take their defaults). */
function serverBody(values: CliValues) {
  return {
    name: values.name,
    display_name: values['display-name'],
    hostname: need(values, 'hostname'),
    port: num(need(values, 'port')),
    enabled: values.disabled !== true,
  };
}

function serverLine(s: { id: string; hostname: string; port: number; name: string; enabled: boolean }): string {
  return `${s.id}  ${s.hostname}:${s.port}  ${s.name}${s.enabled ? '' : ' (disabled)'}`;
}

export const serversFeature = {
  name: 'servers',
  services: { servers: (s) => new ServerService(s.db, s.changes, s.audit) },
  schemas: [Server],
  routes: (s, { admin }) => ({ v1: [serverRoutes(s.servers, admin)] }),
  cli: [
    {
      name: 'server create',
      usage: '--workspace W --hostname H --port P [--name N] [--display-name D] [--disabled]',
      run: async (s, v) => {
        const created = await s.servers.create(CLI_ACTOR, await workspaceOf(s.workspaces, v), serverBody(v));
        return { json: { data: created }, text: `Registered server ${serverLine(created)}` };
      },
    },
    {
      name: 'server update',
      usage: '--workspace W --server ID --hostname H --port P [--name N] [--display-name D] [--disabled]',
      run: async (s, v) => {
        const ws = await workspaceOf(s.workspaces, v);
        const updated = await s.servers.update(CLI_ACTOR, ws, need(v, 'server'), serverBody(v));
        return { json: { data: updated }, text: `Updated server ${serverLine(updated)}` };
      },
    },
    {
      name: 'server list',
      usage: '--workspace W',
      run: async (s, v) => {
        const all = await s.servers.list(await workspaceOf(s.workspaces, v));
        return { json: { data: all }, text: all.map(serverLine).join('\n') || 'No servers.' };
      },
    },
  ],
} satisfies Feature;
