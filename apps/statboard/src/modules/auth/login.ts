import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#src/config.ts';
import { createDevIdp, type DevIdp } from '#src/modules/dev-idp/provider.ts';
import { devIdpRoutes } from '#src/modules/dev-idp/routes.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { OidcClient } from './oidc.ts';
import { type AuthServices, authRoutes } from './routes.ts';

const DEV_IDP_WARNING =
  'DEVELOPMENT LOGIN ENABLED (OIDC_ISSUER is not set): anyone can sign in as any email address, without a ' +
  'password. Never expose this instance; for real use set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET ' +
  '(NODE_ENV=production turns the development login off).';

export const LOGIN_UNAVAILABLE_IN_PRODUCTION =
  'Login is unavailable: OIDC_ISSUER is not set, and the development identity provider is disabled when ' +
  'NODE_ENV=production. Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.';

/**
 * Login (`/auth/*`) and the embedded development provider (`/dev-idp`, only without OIDC_ISSUER outside
 * production), in one scope where cookies are parsed.
 */
export function loginRoutes(config: Config, services: AuthServices, limits?: RequestLimits) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(cookie);
    const redirectUri = `${config.publicUrl}/auth/callback`;
    let oidc: OidcClient | null = null;
    let unavailableReason = '';
    if (config.oidc !== null) {
      const allowHttp = new URL(config.oidc.issuer).protocol === 'http:';
      oidc = new OidcClient({ ...config.oidc, allowHttp }, redirectUri, app.log);
    } else if (config.nodeEnv !== 'production') {
      // Created at first use: the provider (and its keys) cost nothing until someone signs in.
      let idp: Promise<DevIdp> | null = null;
      const getIdp = () => {
        idp ??= createDevIdp(config.publicUrl, redirectUri);
        return idp;
      };
      const devIssuer = `${config.publicUrl}/dev-idp`;
      app.log.warn({ issuer: devIssuer }, DEV_IDP_WARNING);
      app.log.info(`console: open ${config.publicUrl}/ in a browser and sign in with any email address`);
      await app.register(devIdpRoutes(getIdp));
      oidc = new OidcClient(
        { issuer: devIssuer, clientId: '', clientSecret: null, allowHttp: true },
        redirectUri,
        app.log,
        async () => {
          const { issuer, clientId, clientSecret } = await getIdp();
          return { issuer, clientId, clientSecret, allowHttp: new URL(issuer).protocol === 'http:' };
        },
      );
    } else {
      unavailableReason = LOGIN_UNAVAILABLE_IN_PRODUCTION;
      app.log.error(unavailableReason);
    }
    await app.register(authRoutes({ config, services, oidc, unavailableReason, ...(limits ? { limits } : {}) }));
  };
}
