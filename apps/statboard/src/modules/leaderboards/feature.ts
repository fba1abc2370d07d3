import type { Feature } from '#src/feature.ts';
import { BoardCache } from './boards.ts';
import { leaderboardRoutes } from './routes.ts';
import { LeaderboardService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    readonly leaderboards: LeaderboardService;
  }
}

export const leaderboardsFeature = {
  name: 'leaderboards',
  services: {
    leaderboards: (s) =>
      new LeaderboardService(
        s.db,
        s.changes,
        s.seasons,
        new BoardCache(s.db, s.changes, s.config.rankCacheEntries, s.config.rankCacheBytes),
        s.servers,
        s.config.publicRankValues,
      ),
  },
  routes: (s, { key, admin }) => ({ v1: [leaderboardRoutes(s.leaderboards, key, admin)] }),
} satisfies Feature;
