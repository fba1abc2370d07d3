import { type CliResult, type CliValues, need, workspaceOf } from '#src/cli-args.ts';
import type { Feature, Services } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { userRoutes } from './routes.ts';
import { AdminUser } from './schemas.ts';
import { UserService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Users signed in through OIDC and their workspace roles. */
    readonly users: UserService;
  }
}

/** `user grant` (`--role`) and `user revoke`. */
async function setRole(s: Services, v: CliValues, grant: boolean): Promise<CliResult> {
  const workspaceId = await workspaceOf(s.workspaces, v);
  const user = need(v, 'user');
  const role = grant ? need(v, 'role') : null;
  // The operator reaches every user (members of other workspaces too); an email still names only a user whose
  // provider verified it.
  const u = await s.users.setRole({ ...CLI_ACTOR, role: 'owner' }, workspaceId, user, { role }, 'anyone');
  const data = { id: u.id, email: u.email, display_name: u.display_name, role: u.role };
  return {
    json: { data },
    text: role === null ? `Removed ${u.email ?? u.id} from the workspace` : `${u.email ?? u.id} is now ${u.role}`,
  };
}

export const usersFeature = {
  name: 'users',
  services: { users: (s) => new UserService(s.db, s.changes, s.audit) },
  schemas: [AdminUser],
  routes: (s, { admin }) => ({ v1: [userRoutes(s.users, admin)] }),
  cli: [
    {
      name: 'user list',
      usage: "--workspace W                   the workspace's members and their roles",
      run: async (s, v) => {
        const all = await s.users.list(await workspaceOf(s.workspaces, v));
        const data = all.map(({ id, email, display_name, role }) => ({ id, email, display_name, role }));
        return {
          json: { data },
          text: data.map((u) => `${u.id}  ${u.role}  ${u.email ?? '-'}  ${u.display_name}`).join('\n') || 'No members.',
        };
      },
    },
    {
      name: 'user grant',
      usage:
        '--workspace W --user EMAIL|ID --role owner|admin|analyst|readonly\n' +
        '                                            (the user must have signed in once; an EMAIL names them\n' +
        '                                            only when their provider verified it, an ID always)',
      run: (s, v) => setRole(s, v, true),
    },
    {
      name: 'user revoke',
      usage: '--workspace W --user EMAIL|ID remove a member (never the last owner)',
      run: (s, v) => setRole(s, v, false),
    },
  ],
} satisfies Feature;
