import type { Feature } from '#src/feature.ts';
import { onlineRoutes } from './routes.ts';
import { OnlineService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Who is online now. */
    readonly online: OnlineService;
  }
}

export const onlineFeature = {
  name: 'online',
  services: { online: (s) => new OnlineService(s.db, s.changes) },
  routes: (s, { key, admin }) => ({ v1: [onlineRoutes(s.online, key, admin)] }),
} satisfies Feature;
