import type { FastifyInstance } from 'fastify';
import { PAGE_STYLE_SOURCE } from './html-page.ts';

/** Directives of a Content-Security-Policy, by name; null removes one from the default. */
export type CspChanges = Readonly<Record<string, string | null>>;

/**
 * The policy of every HTML answer whose route sets none: nothing loads but the standalone pages' own style,
 * forms post to this origin only, and no site may frame the page (clickjacking; CSP3 `frame-ancestors`).
 */
const DEFAULT_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'none'",
  'style-src': PAGE_STYLE_SOURCE,
  'form-action': "'self'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
};

/**
 * A policy made from the default with `changes` applied. A route that needs its own policy (its scripts, or a
 * page that chosen sites may frame: `{'frame-ancestors': 'https://club.example'}`) sets the
 * `content-security-policy` header to one of these before sending; the default then stays out of its way.
 */
export function contentSecurityPolicy(changes: CspChanges = {}): string {
  const directives: Record<string, string | null> = { ...DEFAULT_DIRECTIVES, ...changes };
  return Object.entries(directives)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

export const DEFAULT_HTML_POLICY = contentSecurityPolicy();

/**
 * The `frame-ancestors` value of a page that sites may frame (an embed): the listed origins (and the service's
 * own pages, such as the console's preview), or any web origin (`*`) when none are listed. Every other HTML
 * answer keeps `'none'`.
 */
export function frameAncestors(origins: readonly string[]): string {
  return origins.length === 0 ? '*' : `'self' ${origins.join(' ')}`;
}

const HTML = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const FRAME_ANCESTORS = /(?:^|;)\s*frame-ancestors\b([^;]*)/i;

/**
 * The headers an HTML answer carries, given the policy its route set (if any): a policy without
 * `frame-ancestors` gets `frame-ancestors 'none'` (framing is refused unless a route allows it by name), and
 * `X-Frame-Options: DENY` goes with `'none'` for browsers that predate CSP's directive.
 */
export function htmlSecurityHeaders(routePolicy?: string): Record<string, string> {
  let policy = routePolicy ?? DEFAULT_HTML_POLICY;
  const ancestors = FRAME_ANCESTORS.exec(policy)?.[1]?.trim();
  if (ancestors === undefined) policy = `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
  const headers: Record<string, string> = {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
  };
  if (ancestors === undefined || ancestors === "'none'") headers['x-frame-options'] = 'DENY';
  return headers;
}

/**
 * Gives every `text/html` answer of `app` a policy and refuses framing, whichever route or error page sends
 * it, so a page added later is covered without doing anything. A route's own `content-security-policy` (and
 * `x-frame-options`) is kept. Answers written to the raw response (a hijacked reply) skip Fastify's hooks:
 * their code sets `htmlSecurityHeaders()` itself.
 */
export function registerHtmlSecurity(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && HTML.test(type)) {
      const own = reply.getHeader('content-security-policy');
      const headers = htmlSecurityHeaders(typeof own === 'string' ? own : undefined);
      for (const [name, value] of Object.entries(headers)) {
        if (name === 'content-security-policy' || !reply.hasHeader(name)) reply.header(name, value);
      }
    }
    done(null, payload);
  });
}
