import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#src/config.ts';
import { isLoopbackUrl } from '#src/lib/loopback-url.ts';
import type { Services } from '#src/services.ts';

/**
 * At start, once the port is bound: register BOOTSTRAP_TOKEN if set; with no workspace and no usable token,
 * create one and log it once. A workspace nobody owns (made with the CLI) gets the same: a token for it, logged
 * once, or (when one was made for it already) a line saying where to enter it.
 */
export async function ensureStartupBootstrapToken(
  services: Services,
  config: Pick<Config, 'bootstrapToken' | 'publicUrl'>,
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.bootstrapToken !== null) await services.setup.registerEnvToken(config.bootstrapToken);
  if (!(await services.setup.needsBootstrap())) {
    await ownerlessWorkspaces(services, config, log);
    return;
  }
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

async function ownerlessWorkspaces(
  services: Services,
  config: Pick<Config, 'publicUrl'>,
  log: FastifyBaseLogger,
): Promise<void> {
  for (const ws of await services.workspaces.withoutOwner()) {
    const what = `workspace ${ws.name} (${ws.slug}) has no owner yet: open ${config.publicUrl}/setup in a browser, sign in, and enter`;
    if (await services.setup.hasUsableToken(ws.id)) {
      log.info(
        { workspace: ws.slug },
        `${what} the token from \`npx statboard bootstrap-token --workspace ${ws.slug}\` on the page`,
      );
      continue;
    }
    const { token, expires_at } = await services.setup.createStartupToken(ws.id);
    log.warn(
      { workspace: ws.slug, expires_at },
      `${what} this bootstrap token on the page to become its owner (shown once, valid 24 hours)`,
    );
    log.warn({ workspace: ws.slug, expires_at }, `bootstrap token: ${token}`);
  }
}

/** One line at start when PUBLIC_URL is a loopback address: players' mods would be configured with it. */
export function warnAboutLoopbackPublicUrl(config: Pick<Config, 'publicUrl'>, log: FastifyBaseLogger): void {
  if (!isLoopbackUrl(config.publicUrl)) return;
  log.warn(
    `PUBLIC_URL is ${config.publicUrl}, which players' game clients cannot reach (it names their own machine): ` +
      'set PUBLIC_URL to the address players use (e.g. https://stats.example.com, served by a reverse proxy or ' +
      "with HOST=0.0.0.0) before giving out the mod's config",
  );
}
