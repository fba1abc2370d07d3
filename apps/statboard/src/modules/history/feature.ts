import type { Feature } from '#src/feature.ts';
import { historyRoutes } from './routes.ts';
import { HistoryService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** How a player's values grew, by hour or by day. */
    readonly history: HistoryService;
  }
}

export const historyFeature = {
  name: 'history',
  services: {
    history: (s) =>
      new HistoryService(
        s.db,
        s.changes,
        s.players,
        s.seasons,
        s.leaderboards,
        s.servers,
        s.config.historyRetentionDays,
      ),
  },
  routes: (s, { key, admin }) => ({ v1: [historyRoutes(s.history, key, admin)] }),
} satisfies Feature;
