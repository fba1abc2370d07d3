import { hash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { parse as parseQuery } from 'fast-querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cache } from '#src/cache/cache.ts';
import { Doorkeeper } from '#src/cache/doorkeeper.ts';
import { isDatabaseUnavailable } from '#src/db/availability.ts';
import { AppError } from '#src/errors.ts';
import type { Services } from '#src/feature.ts';
import { acceptsGzip } from '#src/http/compression.ts';
import { type FastReads, matchPath, splitUrl } from '#src/http/fast-reads.ts';
import { frameAncestors, htmlSecurityHeaders } from '#src/http/html-security.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { clampLimit } from '#src/modules/leaderboards/ranking.ts';
import type { RequestLimits } from '#src/plugins/rate-limit.ts';
import { requestIdFor } from '#src/plugins/request-id.ts';
import { NOT_FOUND_PAGE, pageBytes, sitePolicy } from './html.ts';
import { MAX_BOARD_PAGE, type PageRenderer, type PageRequest } from './pages.ts';
import type { PublicSite } from './service.ts';

type Kind = PageRequest['kind'];

/** A public page's address (Fastify's template) and which page it is. */
export interface PageRoute {
  url: string;
  kind: Kind;
}

/**
 * The public pages' addresses: Fastify's routes (routes.ts) and the fast path (`SitePages.serveFast`) both match
 * these. Every other path under `/p/` is the 404 page.
 */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { url: '/p/:slug', kind: 'home' },
  { url: '/p/:slug/seasons', kind: 'seasons' },
  { url: '/p/:slug/players', kind: 'players' },
  { url: '/p/:slug/players/:player', kind: 'player' },
  { url: '/p/:slug/leaderboards', kind: 'boards' },
  { url: '/p/:slug/leaderboards/:stat', kind: 'board' },
  { url: '/p/:slug/embed/leaderboard/:stat', kind: 'embed' },
];

/** The most entries an embed shows (`limit`, 10 by default). */
const EMBED_MAX_LIMIT = 25;

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
/**
 * A rendered page, ready to send: its HTML, validator and policy, and its gzip copy, made when a client that
 * accepts gzip first asks for it (a page read once by a client that does not costs no compression).
 */
interface Ready {
  status: 200 | 404;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  /**
   * What every answer of the page carries beside its bytes (a 304 too): caching, `Vary`, its policy and the
   * headers every HTML answer gets (`htmlSecurityHeaders`), its validator.
   */
  headers: OutgoingHttpHeaders;
  /** `headers` with the type of the bytes, and of their gzip copy: made when first sent. */
  plainHeaders?: OutgoingHttpHeaders;
  gzipHeaders?: OutgoingHttpHeaders;
  /** Rendered without some of its parts for now (a rank whose board is being read): served, never kept. */
  provisional?: boolean;
}

function ready(status: 200 | 404, html: string, policy: string): Ready {
  const body = pageBytes(html);
  const etag = `W/"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
  const headers: OutgoingHttpHeaders = { ...headersOf(policy) };
  if (status === 200) headers.etag = etag;
  return { status, body, gzip: null, etag, headers };
}

/** The headers of pages with `policy` but their validator, by policy (a site's pages have one or two). */
const policyHeaders = new Map<string, OutgoingHttpHeaders>();

function headersOf(policy: string): OutgoingHttpHeaders {
  let headers = policyHeaders.get(policy);
  if (headers === undefined) {
    if (policyHeaders.size >= 1000) policyHeaders.clear();
    headers = {
      'cache-control': PAGE_CACHE_CONTROL,
      vary: 'Accept-Encoding',
      ...htmlSecurityHeaders(policy),
      'referrer-policy': 'strict-origin-when-cross-origin',
    };
    policyHeaders.set(policy, headers);
  }
  return headers;
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

/** An answer to send: its status, headers (but the request id and length) and bytes (none for a 304). */
interface Answer {
  status: 200 | 304 | 404;
  headers: OutgoingHttpHeaders;
  body: Buffer | null;
}

const HTML_TYPE = 'text/html; charset=utf-8';

/** The answer of `page` to a request with these `If-None-Match` and `Accept-Encoding` headers. */
function answerOf(page: Ready, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): Answer {
  if (page.status === 200 && matches(ifNoneMatch, page.etag)) return { status: 304, headers: page.headers, body: null };
  if (acceptEncoding !== undefined && acceptsGzip(acceptEncoding)) {
    page.gzipHeaders ??= { ...page.headers, 'content-type': HTML_TYPE, 'content-encoding': 'gzip' };
    return { status: page.status, headers: page.gzipHeaders, body: gzipOf(page) };
  }
  page.plainHeaders ??= { ...page.headers, 'content-type': HTML_TYPE };
  return { status: page.status, headers: page.plainHeaders, body: page.body };
}

const ROUTE_SEGMENTS = PAGE_ROUTES.map((route) => ({ route, segments: route.url.split('/') }));

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
    case 'players':
    case 'boards': {
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
      // The leaderboards' rule for their `limit` (10 by default, a number out of range clamped), to 1..25; a limit
      // that is no number, or a theme that is neither, is the 404 page.
      const limitText = one(query.limit);
      const themeText = one(query.theme);
      const theme = themeText === 'light' || themeText === 'dark' ? themeText : null;
      if (limitText !== null && !/^\d{1,6}$/.test(limitText)) return null;
      if ((themeText !== null && theme === null) || !params.stat) return null;
      const limit = clampLimit(limitText === null ? undefined : Number(limitText), EMBED_MAX_LIMIT);
      return { kind, stat: params.stat, season, limit, theme };
    }
  }
}

/**
 * Serves the public pages: counts each request against the address's limit, finds the site (off or unknown: the
 * 404 page), and sends the page rendered within the last PAGE_MAX_AGE_SECONDS (a page asked for again is kept,
 * within PAGE_CACHE_MB, and served from memory with its gzip copy; a page read often is rendered again in the
 * background before it expires), with `Cache-Control`, an `ETag` (304 when the browser has it) and the site's
 * framing policy.
 */
export class SitePages {
  private readonly cache: Cache<string, Ready> | null;
  /** Requests the fast path took and handed to Fastify, with the page it started (or the error to send). */
  private readonly handedOver = new WeakMap<IncomingMessage, Promise<Ready>>();

  constructor(
    private readonly services: Services,
    private readonly renderer: PageRenderer,
    private readonly limits: RequestLimits,
    /** Bytes of rendered pages kept (PAGE_CACHE_MB; 0: none, every page rendered for each request). */
    cacheBytes: number,
  ) {
    const cache = services.changes.cache<string, Ready>(
      'public_page',
      PAGE_MAX_AGE_SECONDS * 1000,
      10_000,
      {
        max: cacheBytes,
        // The gzip copy, made later, is about a quarter of the page.
        sizeOf: (r) => Math.ceil(r.body.length * 1.25) + 200,
      },
      // A page is kept from its second render within a while (the last 131,072 new pages rendered, at most): a
      // page read once (a random player's, a search) is rendered, sent and dropped, never held by the cache (see
      // `Cache.get`). Kept, it would push out pages read often and hold its bytes for 30 s, which the whole process
      // pays in collections (100,000 players read at random, 4 interleaved rounds: the service's CPU a page 0.39 ms
      // when every page was kept, 0.36 when none read once was).
      new Doorkeeper(),
    );
    this.cache = cache;
    if (cache === null) return;
    // Values follow within the pages' age, and so do statistics new uploads created (each would otherwise render
    // every page of the site again at once, against the uploads: a busy site answered some of those 503); a site's
    // settings, a player hidden, a statistic hidden or renamed and the seasons at once.
    services.changes.onChange((c) => {
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

  /**
   * A page request through Fastify: counted against the address's limit, then the page (see `pageFor`). A request
   * the fast path took and handed over (`serveFast`) is answered with what it started, counted once.
   */
  async serve(request: FastifyRequest, reply: FastifyReply, kind: Kind): Promise<FastifyReply> {
    const handed = this.handedOver.get(request.raw);
    if (handed !== undefined) return this.send(request, reply, await handed);
    const wait = this.limits.publicPage(request);
    if (wait) await wait;
    const page = await this.pageFor(
      kind,
      request.params as Record<string, string>,
      request.query as Record<string, unknown>,
    );
    return this.send(request, reply, page);
  }

  /**
   * A page request before Fastify builds its request (`FastReads.under`): the same steps as `serve` with the same
   * code (the address's limit, the page, its headers and the headers every HTML answer gets, the request id, one
   * access log line, metrics), on the raw request. A path that is not exactly one of `PAGE_ROUTES` is left to
   * Fastify (false). An error to report (over the limit, the database away with no page to serve) is handed to
   * Fastify's route, which sends it in the documented shape. A property test holds both paths to the same answers
   * (test/public-site/fast-pages.test.ts).
   */
  serveFast(req: IncomingMessage, res: ServerResponse, url: string, front: FastReads, fallback: () => void): boolean {
    const parts = splitUrl(url);
    if (parts === null) return false;
    const segments = parts.path.split('/');
    for (const { route, segments: template } of ROUTE_SEGMENTS) {
      const params = matchPath(template, segments);
      if (params !== null)
        return this.answerFast(req, res, url, route, params, parseQuery(parts.query), front, fallback);
    }
    return false;
  }

  /** `serveFast` of a request that is `route`'s, with its path parameters and query. */
  private answerFast(
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    route: PageRoute,
    params: Record<string, string>,
    query: Record<string, unknown>,
    front: FastReads,
    fallback: () => void,
  ): true {
    const start = front.startTime();
    const id = requestIdFor(req);
    const address = front.addressOf(req);
    let answer: Maybe<Ready>;
    try {
      const wait = this.limits.publicPageFrom(address);
      answer = wait
        ? wait.then(() => this.pageFor(route.kind, params, query))
        : this.pageFor(route.kind, params, query);
    } catch (err) {
      answer = Promise.reject(err);
    }
    const write = (page: Ready) => {
      const a = answerOf(page, req.headers['if-none-match'], req.headers['accept-encoding']);
      const headers: OutgoingHttpHeaders = { ...a.headers, 'x-request-id': id };
      if (a.body !== null) headers['content-length'] = a.body.length;
      res.writeHead(a.status, headers);
      res.end(a.body ?? undefined);
      front.served++;
      front.finish(req, id, url, route.url, a.status, start, address);
    };
    if (!(answer instanceof Promise)) {
      write(answer);
      return true;
    }
    const handOver = () => {
      this.handedOver.set(req, answer);
      fallback();
    };
    answer.then((page) => (front.active ? write(page) : handOver()), handOver);
    return true;
  }

  /** The page (or the 404 page) of a request for `kind` with these path parameters and query. */
  private pageFor(kind: Kind, params: Record<string, string>, query: Record<string, unknown>): Maybe<Ready> {
    const site = this.services.publicSite.find(params.slug ?? '');
    return site instanceof Promise
      ? site.then((found) => this.pageOf(found, kind, params, query))
      : this.pageOf(site, kind, params, query);
  }

  /**
   * The page rendered within the last PAGE_MAX_AGE_SECONDS, or rendered now; when the database is busy or away,
   * the page as it was up to STALE_IF_ERROR_MS ago rather than a 503.
   */
  private pageOf(
    site: PublicSite | null,
    kind: Kind,
    params: Record<string, string>,
    query: Record<string, unknown>,
  ): Maybe<Ready> {
    if (!site?.settings.enabled) return NOT_FOUND;
    const req = pageRequest(kind, params, query);
    if (req === null) return NOT_FOUND;
    const key = `${site.workspaceId}|${site.version}|${JSON.stringify(req)}`;
    const build = () => this.build(site, req);
    const page = this.cache ? (this.cache.peek(key) ?? this.cache.get(key, build, (r) => !r.provisional)) : build();
    if (!(page instanceof Promise)) return page;
    return page.catch((err: unknown) => {
      const stale = isUnavailable(err) ? this.cache?.stale(key, STALE_IF_ERROR_MS) : undefined;
      if (stale === undefined) throw err;
      return stale;
    });
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
    const page = ready(200, html, policy);
    if (provisional) page.provisional = true;
    return page;
  }

  private send(request: FastifyRequest, reply: FastifyReply, page: Ready): FastifyReply {
    const a = answerOf(page, request.headers['if-none-match'], request.headers['accept-encoding']);
    reply.code(a.status).headers(a.headers);
    return a.body === null ? reply.send() : reply.send(a.body);
  }
}
