import { bool, need, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { PlayerAdminService } from './admin-service.ts';
import { playerRoutes } from './routes.ts';
import { AdminPlayer } from './schemas.ts';
import { PlayerService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Key reads of players and their statistics. */
    readonly players: PlayerService;
    /** Players for the admin API: every player, and their visibility. */
    readonly playerAdmin: PlayerAdminService;
  }
}

export const playersFeature = {
  name: 'players',
  services: {
    players: (s) => new PlayerService(s.db, s.changes, s.seasons, s.config.playerCacheBytes, s.servers),
    playerAdmin: (s) => new PlayerAdminService(s.db, s.changes, s.audit),
  },
  schemas: [AdminPlayer],
  routes: (s, { key, admin }) => ({
    v1: [playerRoutes({ players: s.players, playerAdmin: s.playerAdmin, key, admin })],
  }),
  cli: [
    {
      name: 'player update',
      usage: '--workspace W --player UUID --public true|false',
      run: async (s, v) => {
        const p = await s.playerAdmin.update(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'player'), {
          public: bool(need(v, 'public')),
        });
        return { json: { data: p }, text: `Player ${p.username} ${p.uuid} is ${p.public ? 'public' : 'hidden'}` };
      },
    },
  ],
} satisfies Feature;
