import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, htmlPage } from '#src/http/html-page.ts';
import { htmlSecurityHeaders } from '#src/http/html-security.ts';
import { DEV_IDP_PATH, type DevIdp, EMAIL_RE, readForm, subjectForEmail } from './provider.ts';

function loginForm(uid: string, error: string | null, email = ''): string {
  const action = `${DEV_IDP_PATH}/interaction/${encodeURIComponent(uid)}/login`;
  return htmlPage(
    'Statboard development sign-in',
    `<h1>Development sign-in</h1>
<p class="notice"><strong>There is no password: anyone can sign in as anyone.</strong>
Set <code>OIDC_ISSUER</code> to use your organisation's identity provider.</p>
${error ? `<p role="alert" class="alert" id="email-error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" type="email" name="email" required autofocus autocomplete="email" value="${escapeHtml(email)}"${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
<button type="submit" class="primary">Sign in</button></form>
<p class="small">The email you type becomes who you are in the console: the first to sign in sets up the workspace
with the bootstrap token from the service's log.</p>`,
  );
}

/**
 * Mounts the embedded provider under /dev-idp: its own endpoints (discovery, authorization, token, JWKS,
 * userinfo) get the raw request and response, with the mount path moved into `originalUrl` as oidc-provider
 * expects; the login interaction is ours. The provider is created at first use.
 */
export function devIdpRoutes(getIdp: () => Promise<DevIdp>) {
  /** The interaction the request belongs to, or null when it expired or belongs to another login. */
  const currentInteraction = async (
    provider: Awaited<ReturnType<typeof getIdp>>['provider'],
    req: FastifyRequest['raw'],
    res: FastifyReply['raw'],
    uid: string,
  ) => {
    const details = await provider.interactionDetails(req, res).catch(() => null);
    return details && details.uid === uid ? details : null;
  };
  const expired = (reply: FastifyReply) =>
    reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(htmlPage('Expired', '<p>This sign-in expired. Start again from the application.</p>'));

  return async (app: FastifyInstance): Promise<void> => {
    // The provider reads request bodies itself: leave the stream untouched.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));

    app.get<{ Params: { uid: string } }>(
      `${DEV_IDP_PATH}/interaction/:uid`,
      { schema: { hide: true } },
      async (request, reply) => {
        const { provider } = await getIdp();
        const details = await currentInteraction(provider, request.raw, reply.raw, request.params.uid);
        if (!details) return expired(reply);
        return reply.type('text/html; charset=utf-8').send(loginForm(details.uid, null));
      },
    );

    app.post<{ Params: { uid: string } }>(
      `${DEV_IDP_PATH}/interaction/:uid/login`,
      { schema: { hide: true } },
      async (request, reply) => {
        const { provider } = await getIdp();
        const details = await currentInteraction(provider, request.raw, reply.raw, request.params.uid);
        if (!details) return expired(reply);
        const email = (await readForm(request.raw)).get('email')?.trim() ?? '';
        if (!EMAIL_RE.test(email)) {
          return reply
            .code(422)
            .type('text/html; charset=utf-8')
            .send(loginForm(details.uid, 'Enter an email address.', email));
        }
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: subjectForEmail(email) } },
          { mergeWithLastSubmission: false },
        );
      },
    );

    let handler: ((req: FastifyRequest['raw'], res: FastifyReply['raw']) => void) | null = null;
    const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
      const { provider } = await getIdp();
      handler ??= provider.callback();
      reply.hijack();
      // The provider writes to the raw response, past Fastify's hooks: its pages (errors, sign-out) get the
      // policy of HTML answers here. Its JSON and redirects carry it too, to no effect.
      for (const [name, value] of Object.entries(htmlSecurityHeaders())) reply.raw.setHeader(name, value);
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      const url = raw.url ?? '/';
      const rest = url.slice(DEV_IDP_PATH.length);
      raw.originalUrl = url;
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      handler(raw, reply.raw);
    };
    app.all(DEV_IDP_PATH, { schema: { hide: true } }, handOver);
    app.all(`${DEV_IDP_PATH}/*`, { schema: { hide: true } }, handOver);
  };
}
