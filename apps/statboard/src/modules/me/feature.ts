import type { Feature } from '#src/feature.ts';
import { AdminMe, meRoutes } from './routes.ts';

/** `/admin/me`: who is signed in, what their role allows, and the workspace their session acts in. */
export const meFeature = {
  name: 'me',
  schemas: [AdminMe],
  routes: (s, { admin }) => ({ v1: [meRoutes(s, admin)] }),
} satisfies Feature;
