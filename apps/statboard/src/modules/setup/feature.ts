import { num, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { setupRoutes } from './routes.ts';
import { SetupService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Bootstrap: the first workspace and its owner. */
    readonly setup: SetupService;
  }
}

export const setupFeature = {
  name: 'setup',
  services: { setup: (s) => new SetupService(s.db, s.workspaces, s.users, s.audit) },
  routes: (s, { admin }) => ({ v1: [setupRoutes(s.setup, admin)] }),
  cli: [
    {
      name: 'bootstrap-token',
      usage:
        '[--workspace W] [--ttl-minutes M]\n' +
        '                                            print a new single-use bootstrap token (default 60 minutes); with\n' +
        '                                            --workspace, redeeming it makes the signed-in user owner of W',
      run: async (s, v) => {
        const workspaceId = v.workspace === undefined ? undefined : await workspaceOf(s.workspaces, v);
        const t = await s.setup.createToken(CLI_ACTOR, {
          ttl_minutes: num(v['ttl-minutes']),
          workspace_id: workspaceId,
        });
        const what = workspaceId === undefined ? '' : ` (redeeming it makes you owner of ${v.workspace})`;
        return { json: t, text: `Bootstrap token${what}, single use, expires ${t.expires_at}:\n${t.token}` };
      },
    },
  ],
} satisfies Feature;
