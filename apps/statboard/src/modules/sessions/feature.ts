import type { Feature } from '#src/feature.ts';
import { SessionService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Admin browser sessions and pending logins. */
    readonly sessions: SessionService;
  }
}

export const sessionsFeature = {
  name: 'sessions',
  services: { sessions: (s) => new SessionService(s.db, s.changes, s.users, s.config, s.clock) },
} satisfies Feature;
