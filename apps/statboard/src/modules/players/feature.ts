import { bool, need, UsageError, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { PlayerAdminService } from './admin-service.ts';
import { PlayerBlocks } from './blocks.ts';
import { PlayerErasure } from './erasure.ts';
import { playerRoutes } from './routes.ts';
import { AdminPlayer, PlayerBlock } from './schemas.ts';
import { PlayerService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Key reads of players and their statistics. */
    readonly players: PlayerService;
    /** Players for the admin API: every player, and their visibility. */
    readonly playerAdmin: PlayerAdminService;
    /** Corrections (a player's values removed) and erasure (a player erased, blocked, unblocked). */
    readonly erasure: PlayerErasure;
    /** Blocked players, for ingest and imports. */
    readonly playerBlocks: PlayerBlocks;
  }
}

export const playersFeature = {
  name: 'players',
  services: {
    players: (s) => new PlayerService(s.db, s.changes, s.seasons, s.config.playerCacheBytes, s.servers, s.stats),
    playerAdmin: (s) => new PlayerAdminService(s.db, s.changes, s.audit),
    erasure: (s) => new PlayerErasure(s.db, s.changes, s.audit, s.seasons, s.servers),
    playerBlocks: (s) => new PlayerBlocks(s.db, s.changes),
  },
  schemas: [AdminPlayer, PlayerBlock],
  routes: (s, { key, admin }) => ({
    v1: [playerRoutes({ players: s.players, playerAdmin: s.playerAdmin, erasure: s.erasure, key, admin })],
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
    {
      name: 'player erase',
      usage: '--workspace W --player UUID [--block]',
      run: async (s, v) => {
        const player = need(v, 'player');
        if (!isUuid(player)) throw new UsageError('--player: must be a UUID');
        const block = v.block === true;
        await s.erasure.erase(CLI_ACTOR, await workspaceOf(s.workspaces, v), player, block);
        const uuid = player.toLowerCase();
        return {
          json: { data: { uuid, erased: true, blocked: block } },
          text: `Player ${uuid} erased${block ? '; their uploads are discarded until `player unblock`' : ''}`,
        };
      },
    },
    {
      name: 'player unblock',
      usage: '--workspace W --player UUID',
      run: async (s, v) => {
        const player = need(v, 'player');
        await s.erasure.unblock(CLI_ACTOR, await workspaceOf(s.workspaces, v), player);
        const uuid = player.toLowerCase();
        return {
          json: { data: { uuid, blocked: false } },
          text: `Player ${uuid} unblocked: uploads are accepted again`,
        };
      },
    },
  ],
} satisfies Feature;
