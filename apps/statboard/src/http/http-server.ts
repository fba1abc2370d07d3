import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerFactory } from 'fastify';
import type { Timeouts } from '#src/config.ts';
import { type ERRORS, RETRY_AFTER_SECONDS } from '#src/errors.ts';
import { requestIdFor } from '#src/plugins/request-id.ts';
import type { Trust } from './client-address.ts';
import type { Cors } from './cors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The HTTP server in front of Fastify (set by buildApp): draining, connection limits. */
    httpServer: HttpServer;
  }
}

/** While draining, how often connections that finished their answer are closed. */
const REAP_MS = 25;

/** How often node:http checks the request and header timeouts of open connections (its default is 30 s). */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * The service's HTTP/1.1 server, in front of Fastify (and of the fast read path):
 *
 * - **Slow clients**: headers must arrive within `headersMs` and the whole request within `requestMs`; an idle
 *   keep-alive connection is closed after `keepAliveMs`; one client address holds at most
 *   `connectionsPerAddress` connections (more are answered 429 and closed).
 * - **Draining** (`drain()`, on SIGTERM/SIGINT): requests in flight are answered; a new request on an open
 *   connection is answered 503 `SERVICE_UNAVAILABLE` with `Connection: close`; idle connections are closed at
 *   once and busy ones as soon as their answer is written. (Fastify's `close()` stops accepting connections.)
 */
/** What answers a request before Fastify: true if it took it (see `HttpServer.factory`). */
type Front = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => boolean;

export class HttpServer {
  private server: Server | null = null;
  private draining = false;
  private readonly perAddress = new Map<string, number>();
  private reaper: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeouts: Timeouts,
    private readonly cors: Cors | null = null,
    /** Trusted proxies (TRUST_PROXY): their connections carry many clients and are not limited per address. */
    private readonly trust: Trust | null = null,
  ) {}

  /**
   * Fastify's `serverFactory`: `front` may answer a request first (returns true; it may still hand the request
   * to Fastify later, with its third argument), else Fastify does.
   */
  factory(front: Front = () => false): FastifyServerFactory {
    return (handler) => {
      const fastify = handler as RequestListener;
      const t = this.timeouts;
      const server = createServer(
        {
          headersTimeout: t.headersMs,
          requestTimeout: t.requestMs,
          keepAliveTimeout: t.keepAliveMs,
          connectionsCheckingInterval: TIMEOUT_CHECK_MS,
        },
        (req, res) => this.handle(req, res, front, fastify),
      );
      // A client that stops reading an answer (or sending a body) is dropped after the same time.
      server.setTimeout(t.requestMs);
      if (t.connectionsPerAddress > 0) server.on('connection', (socket: Socket) => this.admit(socket));
      this.server = server;
      return server;
    };
  }

  private handle(req: IncomingMessage, res: ServerResponse, front: Front, fastify: RequestListener): void {
    if (this.draining) {
      refuse(res, 503, 'SERVICE_UNAVAILABLE', 'The service is shutting down; retry in a moment.', requestIdFor(req), {
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
      return;
    }
    if (this.cors?.apply(req, res)) return;
    if (!front(req, res, () => fastify(req, res))) fastify(req, res);
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    if (this.trust?.(address, 0)) return;
    const open = (this.perAddress.get(address) ?? 0) + 1;
    this.perAddress.set(address, open);
    socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
    if (open > this.timeouts.connectionsPerAddress) {
      // Refused before any request was read, so the request id is a new one (as for a request without one).
      const requestId = randomUUID();
      const body = errorBody(
        'RATE_LIMITED',
        `Too many open connections from your address (at most ${this.timeouts.connectionsPerAddress}).`,
        requestId,
      );
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: ${RETRY_AFTER_SECONDS}\r\nX-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
      socket.destroySoon();
    }
  }

  /** Starts draining: see the class comment. Call before Fastify's `close()`. */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    const server = this.server;
    if (!server) return;
    // A connection busy at this moment becomes idle when its answer is written: close it then. (Nothing is
    // tracked per request while serving; this runs only while shutting down.)
    server.closeIdleConnections();
    this.reaper = setInterval(() => server.closeIdleConnections(), REAP_MS);
    this.reaper.unref();
    server.once('close', () => clearInterval(this.reaper));
  }

  /** Closes every connection, busy or not (the last step of a shutdown that ran out of time). */
  closeAll(): void {
    this.server?.closeAllConnections();
  }
}

function errorBody(code: keyof typeof ERRORS, message: string, requestId: string): string {
  return JSON.stringify({ error: { code, message, request_id: requestId } });
}

function refuse(
  res: ServerResponse,
  status: number,
  code: keyof typeof ERRORS,
  message: string,
  requestId: string,
  headers: Record<string, string>,
): void {
  const body = errorBody(code, message, requestId);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    connection: 'close',
  });
  res.end(body);
}
