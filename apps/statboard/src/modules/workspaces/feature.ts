import { need } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { WorkspaceService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    readonly workspaces: WorkspaceService;
  }
}

export const workspacesFeature = {
  name: 'workspaces',
  services: { workspaces: (s) => new WorkspaceService(s.db, s.audit) },
  cli: [
    {
      name: 'workspace create',
      usage: '--name N [--slug S]      create a workspace',
      run: async (s, v) => {
        const w = await s.workspaces.create(CLI_ACTOR, { name: need(v, 'name'), slug: v.slug });
        return { json: { data: w }, text: `Created workspace ${w.name} (${w.slug}) ${w.id}` };
      },
    },
    {
      name: 'workspace list',
      usage: '',
      run: async (s) => {
        const all = await s.workspaces.list();
        return {
          json: { data: all },
          text: all.map((w) => `${w.id}  ${w.slug}  ${w.name}`).join('\n') || 'No workspaces.',
        };
      },
    },
  ],
} satisfies Feature;
