import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers a browser may send to key routes (the preflight's answer). */
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Request-ID';
const ALLOW_METHODS = 'GET, POST, OPTIONS';
/** What a page may read of an answer besides the simple headers. */
const EXPOSE_HEADERS = 'X-Request-ID, Retry-After';
const MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access for browsers (CORS_ORIGINS): the key routes, `/api/v1/…` except `/api/v1/admin/…` and
 * `/api/v1/setup/…`, answer pages of the allowed origins (`*`: any). Admin, setup and `/auth` routes never send
 * CORS headers: they use the session cookie, and only the service's own origin may call them. Requests without an
 * `Origin` header (every non-browser client) cost one property read.
 */
export class Cors {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes('*');
    this.origins = new Set(origins.filter((o) => o !== '*'));
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /**
   * Adds the CORS headers an allowed origin gets on a key route; answers a preflight itself (204) and then
   * returns true.
   */
  apply(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || !isKeyRoute(req.url ?? '')) return false;
    const allowed = this.any ? '*' : this.origins.has(origin) ? origin : null;
    if (allowed === null) return false;
    if (!this.any) res.setHeader('vary', 'Origin');
    res.setHeader('access-control-allow-origin', allowed);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': MAX_AGE_SECONDS,
        'content-length': '0',
      });
      res.end();
      return true;
    }
    res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
    return false;
  }
}

function isKeyRoute(url: string): boolean {
  return url.startsWith('/api/v1/') && !url.startsWith('/api/v1/admin') && !url.startsWith('/api/v1/setup');
}
