import { num } from '#src/cli-args.ts';
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
      run: async (s, v, { publicUrl }) => {
        const workspace = v.workspace === undefined ? undefined : await s.workspaces.resolve(v.workspace);
        const t = await s.setup.createToken(CLI_ACTOR, {
          ttl_minutes: num(v['ttl-minutes']),
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
      },
    },
  ],
} satisfies Feature;
