import { hash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cache } from '#src/cache/cache.ts';
import { Doorkeeper } from '#src/cache/doorkeeper.ts';
import { isDatabaseUnavailable } from '#src/db/availability.ts';
import { AppError } from '#src/errors.ts';
import type { Services } from '#src/feature.ts';
import { acceptsGzip } from '#src/http/compression.ts';
import { frameAncestors } from '#src/http/html-security.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { NOT_FOUND_PAGE, sitePolicy } from './html.ts';
import { MAX_BOARD_PAGE, type PageRenderer, type PageRequest } from './pages.ts';
import type { PublicSite } from './service.ts';

/** What browsers, Discord and proxies may keep a page for: the time a rendered page is kept here too. */
export const PAGE_MAX_AGE_SECONDS = 30;
/**
 * Every page's `Cache-Control`, a provisional one too (a rank still being counted): its ETag is not the complete
 * page's, so a reload, which revalidates, gets the ranks.
 */
const PAGE_CACHE_CONTROL = `public, max-age=${PAGE_MAX_AGE_SECONDS}`;
/**
 * How long past its age a page may still be served when it cannot be rendered again because the database is busy
 * or away (stale-if-error): a visitor then sees a page a few minutes old instead of an error. Only age retires a
 * page this way; a change (a player hidden, a statistic renamed, the site's settings) drops it at once.
 */
export const STALE_IF_ERROR_MS = 5 * 60_000;

/** An error that says the database could not answer now (a 503), not that the page is wrong. */
function isUnavailable(err: unknown): boolean {
  return (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE') || isDatabaseUnavailable(err);
}
/** Bytes of rendered pages kept (a page is 5–40 KB, with its gzip copy a quarter more). */
const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A rendered page, ready to send: its HTML, validator and policy, and its gzip copy, made when a client that
 * accepts gzip first asks for it (a page read once by a client that does not costs no compression).
 */
interface Ready {
  status: 200 | 404;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  policy: string;
  /** Rendered without some of its parts for now (a rank whose board is being read): served, never kept. */
  provisional?: boolean;
}

function ready(status: 200 | 404, html: string, policy: string): Ready {
  const body = Buffer.from(html);
  const etag = `W/"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
  return { status, body, gzip: null, etag, policy };
}

function gzipOf(page: Ready): Buffer {
  page.gzip ??= gzipSync(page.body, { level: 6 });
  return page.gzip;
}

const NOT_FOUND: Ready = ready(404, NOT_FOUND_PAGE, sitePolicy());

/** Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

type Kind = PageRequest['kind'];

function one(value: unknown): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v !== '' ? v : null;
}

function pageNumber(value: unknown, max: number): number | null {
  const raw = one(value);
  if (raw === null) return 1;
  if (!/^\d{1,6}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}

/** The page an address asks for, or null: not one (a bad page number, a limit out of range…), the 404 page. */
export function pageRequest(
  kind: Kind,
  params: Record<string, string>,
  query: Record<string, unknown>,
): PageRequest | null {
  const season = one(query.season);
  if (season !== null && season.length > 255) return null;
  switch (kind) {
    case 'home':
    case 'seasons':
      return { kind };
    case 'players': {
      const q = (one(query.q) ?? '').trim().slice(0, 64);
      const page = pageNumber(query.page, 10_000);
      return page === null ? null : { kind, q, page };
    }
    case 'player': {
      const ref = params.player ?? '';
      return ref === '' || ref.length > 64 ? null : { kind, ref, season, stat: one(query.stat) };
    }
    case 'board': {
      const page = pageNumber(query.page, MAX_BOARD_PAGE);
      return page === null || !params.stat ? null : { kind, stat: params.stat, season, page };
    }
    case 'embed': {
      const limitText = one(query.limit);
      const limit = limitText === null ? 10 : /^\d{1,2}$/.test(limitText) ? Number(limitText) : 0;
      const themeText = one(query.theme);
      const theme = themeText === 'light' || themeText === 'dark' ? themeText : null;
      if (limit < 1 || limit > 25 || (themeText !== null && theme === null) || !params.stat) return null;
      return { kind, stat: params.stat, season, limit, theme };
    }
  }
}

/**
 * Serves the public pages: counts each request against the address's limit, finds the site (off or unknown: the
 * 404 page), and sends the page rendered within the last PAGE_MAX_AGE_SECONDS (a page asked for again is kept
 * and served from memory with its gzip copy; a page read often is rendered again in the background before it
 * expires), with `Cache-Control`, an `ETag` (304 when the browser has it) and the site's framing policy.
 */
export class SitePages {
  private readonly cache: Cache<string, Ready> | null;

  constructor(
    private readonly services: Services,
    private readonly renderer: PageRenderer,
    private readonly limits: RequestLimits,
  ) {
    const cache = services.changes.cache<string, Ready>(
      'public_page',
      PAGE_MAX_AGE_SECONDS * 1000,
      10_000,
      {
        max: PAGE_CACHE_BYTES,
        // The gzip copy, made later, is about a quarter of the page.
        sizeOf: (r) => Math.ceil(r.body.length * 1.25) + 200,
      },
      // A page is kept from its second render within a while (the last 131,072 new pages rendered, at most): a
      // page read once (a random player's, a search) is sent and dropped. Kept, it would push out pages read often
      // and hold its bytes for 30 s, which the whole process pays in collections (100,000 players read at random,
      // 4 interleaved rounds: the service's CPU a page 0.39 ms when every page was kept, 0.36 when none read once
      // was).
      new Doorkeeper(),
    );
    this.cache = cache;
    // Values follow within the pages' age, and so do statistics new uploads created (each would otherwise render
    // every page of the site again at once, against the uploads: a busy site answered some of those 503); a site's
    // settings, a player hidden, a statistic hidden or renamed and the seasons at once.
    services.changes.onChange((c) => {
      if (!cache) return;
      if (c === null) cache.clear();
      else if (
        c.topic === 'site' ||
        c.topic === 'player' ||
        (c.topic === 'definition' && !c.added) ||
        c.topic === 'season'
      ) {
        cache.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      }
    });
  }

  async serve(request: FastifyRequest, reply: FastifyReply, kind: Kind): Promise<FastifyReply> {
    const wait = this.limits.publicPage(request);
    if (wait) await wait;
    const params = request.params as Record<string, string>;
    const site = await this.services.publicSite.find(params.slug ?? '');
    if (!site?.settings.enabled) return this.send(request, reply, NOT_FOUND);
    const req = pageRequest(kind, params, request.query as Record<string, unknown>);
    if (req === null) return this.send(request, reply, NOT_FOUND);
    const key = `${site.workspaceId}|${site.version}|${JSON.stringify(req)}`;
    const build = () => this.build(site, req);
    let page: Ready;
    try {
      page = this.cache
        ? (this.cache.peek(key) ?? (await this.cache.get(key, build, (r) => !r.provisional)))
        : await build();
    } catch (err) {
      // The database busy or away: the page as it was up to STALE_IF_ERROR_MS ago rather than a 503.
      const stale = isUnavailable(err) ? this.cache?.stale(key, STALE_IF_ERROR_MS) : undefined;
      if (stale === undefined) throw err;
      page = stale;
    }
    return this.send(request, reply, page);
  }

  /** Any other path under `/p/`: the 404 page (counted against the limit too). */
  async notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const wait = this.limits.publicPage(request);
    if (wait) await wait;
    return this.send(request, reply, NOT_FOUND);
  }

  private async build(site: PublicSite, req: PageRequest): Promise<Ready> {
    const { html, provisional } = await this.renderer.render(site, req);
    if (html === null) return NOT_FOUND;
    const policy = sitePolicy(req.kind === 'embed' ? frameAncestors(site.settings.embed_origins) : null);
    return { ...ready(200, html, policy), provisional };
  }

  private send(request: FastifyRequest, reply: FastifyReply, page: Ready): FastifyReply {
    reply
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('vary', 'Accept-Encoding')
      .header('content-security-policy', page.policy)
      .header('referrer-policy', 'strict-origin-when-cross-origin');
    if (page.status === 200) {
      reply.header('etag', page.etag);
      if (matches(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    }
    reply.code(page.status).type('text/html; charset=utf-8');
    const accept = request.headers['accept-encoding'];
    if (accept !== undefined && acceptsGzip(accept)) return reply.header('content-encoding', 'gzip').send(gzipOf(page));
    return reply.send(page.body);
  }
}
