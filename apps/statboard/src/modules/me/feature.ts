import type { Feature } from '#src/feature.ts';
import { AdminMe, meRoutes } from './routes.ts';

/**
 * `/admin/me`: who is signed in, what their role allows, the workspace their session acts in, and the service's
 * PUBLIC_URL.
 */
export const meFeature = {
  name: 'me',
  schemas: [AdminMe],
  routes: (s, { admin, config }) => ({ v1: [meRoutes(s, admin, config.publicUrl)] }),
} satisfies Feature;
