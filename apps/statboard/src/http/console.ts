import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_ROOT } from '#src/app-paths.ts';
import { escapeHtml, htmlPage } from './html-page.ts';
import { contentSecurityPolicy } from './html-security.ts';

/** The console's build (`npm run build -w console`; `npm ci` runs it). */
export const CONSOLE_DIST = join(APP_ROOT, '../console/dist/');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Paths that are never the console's: the API, login, health and the API docs answer there (their 404s stay JSON).
 */
const NOT_CONSOLE = /^\/(api|auth|health|dev-idp)(\/|$)/;

/**
 * Security headers of the console's page: its own scripts, styles and API calls only; framing is refused as for
 * every HTML answer (html-security.ts adds X-Frame-Options to match).
 */
const PAGE_HEADERS = {
  'content-security-policy': contentSecurityPolicy({
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
  }),
  'referrer-policy': 'same-origin',
};

interface Asset {
  body: Buffer;
  type: string;
}

/** The console's pages (its router's paths): each answers the page, which shows it. */
const PAGES = [
  '/',
  '/keys',
  '/servers',
  '/seasons',
  '/players',
  '/players/:uuid',
  '/stats',
  '/leaderboards',
  '/online',
  '/users',
  '/audit-log',
  '/webhooks',
  '/webhooks/:id',
  '/setup',
];

/**
 * Serves the console: `index.html` at `/` and the console's other pages (a reload of `/players/…` works), with
 * `Cache-Control: no-cache` so that a new version is picked up at once; the built files under `/assets/`
 * (content-hashed names) cached for a year as immutable. A browser asking for any other page gets the page with
 * a 404 (the console says "Page not found"); every other unknown path keeps the API's JSON 404. Assets are read
 * once and kept in memory (a few hundred KB). Without a build, the page explains how to make one.
 */
export class ConsoleSite {
  private readonly cache = new Map<string, Asset>();

  constructor(private readonly dist = CONSOLE_DIST) {}

  private async load(rel: string): Promise<Asset | null> {
    const cached = this.cache.get(rel);
    if (cached) return cached;
    const root = this.dist.endsWith(sep) ? this.dist : this.dist + sep;
    const path = normalize(join(root, rel));
    if (!path.startsWith(root)) return null;
    try {
      if (!(await stat(path)).isFile()) return null;
      const asset = { body: await readFile(path), type: TYPES[extname(path)] ?? 'application/octet-stream' };
      // Hashed assets never change; the page is read again each time (a rebuild while running is picked up).
      if (rel.startsWith('assets/')) this.cache.set(rel, asset);
      return asset;
    } catch {
      return null;
    }
  }

  private async page(request: FastifyRequest, reply: FastifyReply, status = 200): Promise<FastifyReply> {
    const index = await this.load('index.html');
    reply.header('cache-control', 'no-cache');
    // Without a build, a standalone page under the default policy of HTML answers explains how to make one.
    if (index === null) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          htmlPage(
            'Console not built',
            `<h1>The console is not built</h1><p>Run <code>npm run build -w console</code> in the repository (<code>npm ci</code> does it), then reload.</p>
<p>The API is available: <a href="/api/v1/docs">/api/v1/docs</a>.</p><p><small>Request id: <code>${escapeHtml(request.id)}</code></small></p>`,
          ),
        );
    }
    return reply.code(status).headers(PAGE_HEADERS).type(index.type).send(index.body);
  }

  /** Registers the pages and assets on `app`. */
  register(app: FastifyInstance): void {
    for (const url of PAGES) app.get(url, { schema: { hide: true } }, (request, reply) => this.page(request, reply));
    app.get('/assets/*', { schema: { hide: true } }, async (request, reply) => {
      const asset = await this.load(`assets/${(request.params as { '*': string })['*']}`);
      if (asset === null) return reply.callNotFound();
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type(asset.type)
        .send(asset.body);
    });
    app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) => {
      const icon = await this.load('favicon.svg');
      if (icon === null) return reply.callNotFound();
      return reply.header('cache-control', 'public, max-age=86400').type(icon.type).send(icon.body);
    });
  }

  /**
   * For the not-found handler: a browser navigating to an unknown page (GET, asking for HTML, outside the API)
   * gets the console's page with a 404; null for everything else (the JSON 404).
   */
  notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | null {
    if (request.method !== 'GET') return null;
    const path = request.url.split('?')[0]!;
    if (NOT_CONSOLE.test(path) || extname(path) !== '' || !/text\/html/.test(request.headers.accept ?? '')) return null;
    return this.page(request, reply, 404);
  }
}
