import type { Feature } from '#src/feature.ts';
import { loginRoutes } from './login.ts';

/** Login (`/auth/*`) and the development identity provider: routes only, on the sessions and users services. */
export const authFeature = {
  name: 'auth',
  routes: (s, { config, limits }) => ({ root: [loginRoutes(config, s, limits)] }),
} satisfies Feature;
