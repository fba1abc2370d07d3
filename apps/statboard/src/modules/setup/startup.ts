import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#src/config.ts';
import type { Services } from '#src/services.ts';

/**
 * At start: register BOOTSTRAP_TOKEN if set; with no workspace and no usable token, create one and log it once.
 */
export async function ensureStartupBootstrapToken(
  services: Services,
  config: Pick<Config, 'bootstrapToken' | 'publicUrl'>,
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.bootstrapToken !== null) await services.setup.registerEnvToken(config.bootstrapToken);
  if (!(await services.setup.needsBootstrap())) return;
  if (await services.setup.hasUsableToken()) {
    log.info(
      `no workspace yet: open ${config.publicUrl}/ in a browser, sign in, and enter BOOTSTRAP_TOKEN (or a token ` +
        'from `npx statboard bootstrap-token`) on the setup page',
    );
    return;
  }
  const { token, expires_at } = await services.setup.createStartupToken();
  log.warn(
    { expires_at },
    `no workspace yet: open ${config.publicUrl}/ in a browser, sign in, and enter this bootstrap token on the ` +
      'setup page (shown once, valid 24 hours)',
  );
  log.warn({ expires_at }, `bootstrap token: ${token}`);
}
