import type { Feature } from '#src/feature.ts';
import { connectionTestRoutes, healthRoutes } from './routes.ts';

/** Liveness and readiness, at the root and under `/api/v1`, and the mod's connection test. */
export const healthFeature = {
  name: 'health',
  routes: (s, { limits }) => ({
    root: [healthRoutes(s.db, ''), connectionTestRoutes(s.db, s.verifier, limits, s)],
    v1: [healthRoutes(s.db, 'V1')],
  }),
} satisfies Feature;
