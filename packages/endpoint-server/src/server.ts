/**
 * The HTTP server. Built on node:http for speed.
 * Created without listening; each request reads one configuration snapshot and keeps it to the end, so a
 * reload never changes a request in flight.
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { EndpointConfig } from './config.ts';
import { type CancellableTask, type Host, type PlayerRecord, TaskAbortedError, TaskTimeoutError } from './host.ts';
import { type Logger, silentLogger } from './logger.ts';
import { messages } from './messages.ts';
import { parsePath, rawPathOf } from './paths.ts';
import { needsHost, renderLocal, renderWithHost } from './render.ts';
import type { CompiledObject } from './template.ts';

/** The configuration and host a request runs against, swapped as a whole on reload. */
export interface EndpointSnapshot {
  /** The validated configuration. */
  readonly config: EndpointConfig;
  /** The host that answers players and placeholders. */
  readonly host: Host;
}

/** Options of {@link createEndpointServer}. */
export interface EndpointServerOptions {
  /** Returns the current snapshot; called once at the start of each request. */
  readonly getSnapshot: () => EndpointSnapshot;
  /** Where warnings about failed renders go. */
  readonly logger?: Logger;
}

/** A server that is not listening until told to. */
export interface EndpointServer {
  /** The underlying node:http server. */
  readonly server: http.Server;
  /** Starts listening; resolves with the bound address. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /**
   * Graceful shutdown: new requests are answered 503 "The plugin is shutting down." while the requests in
   * flight finish (at most `drainTimeoutMs`); then the server closes.
   */
  shutdown(drainTimeoutMs: number): Promise<void>;
  /** Whether shutdown has begun. */
  isShuttingDown(): boolean;
  /** Requests currently waiting on the host. */
  inFlight(): number;
}

const CONTENT_TYPE = 'application/json; charset=utf-8';
const ALLOW = 'GET, HEAD';

/**
 * CORS (`cors_origins`): an allowed origin gets `Access-Control-Allow-Origin` on every GET/HEAD answer, and its
 * preflights are answered 204 (returns true then). Without `cors_origins`, nothing is added and OPTIONS stays 405.
 */
function applyCors(req: http.IncomingMessage, res: http.ServerResponse, origins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origins.length === 0 || origin === undefined) return false;
  const any = origins.includes('*');
  const allowed = any ? '*' : origins.includes(origin) ? origin : null;
  if (allowed === null) return false;
  if (!any) res.setHeader('vary', 'Origin');
  res.setHeader('access-control-allow-origin', allowed);
  if (req.method === 'OPTIONS') {
    req.resume();
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'If-None-Match, Content-Type',
      'access-control-max-age': '600',
      'content-length': '0',
    });
    res.end();
    return true;
  }
  res.setHeader('access-control-expose-headers', 'ETag');
  return false;
}

const errorBody = (message: string): string => JSON.stringify({ error: message });
const NOT_FOUND_BODY = errorBody(messages.notFound());
const NO_ENDPOINTS_BODY = errorBody(messages.noEndpointsSection());
const FAILED_BODY = errorBody(messages.failed());
const TIMED_OUT_BODY = errorBody(messages.timedOut());
const SHUTTING_DOWN_BODY = errorBody(messages.shuttingDown());

/** A strong entity tag of an answer's body. */
export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** `If-None-Match` names `etag` (weak comparison, as RFC 9110 has it for this header), or is `*`. */
function notModified(req: http.IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: string,
  head: boolean,
  allow?: boolean,
): void {
  const headers: http.OutgoingHttpHeaders = {
    'content-type': CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
  };
  if (allow) headers.allow = ALLOW;
  if (status === 200) {
    const etag = etagOf(body);
    if (notModified(req, etag)) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    headers.etag = etag;
  }
  res.writeHead(status, headers);
  if (head) res.end();
  else res.end(body);
}

/** A rendered answer kept for the next identical request, with its ready-made headers. */
interface CachedBody {
  /** The player record it was rendered from (null: none), compared by identity. */
  readonly player: PlayerRecord | null;
  /** The record's dates when rendered, so a record whose Date objects were changed in place is re-rendered. */
  readonly lastLoginMs: number;
  readonly lastSeenMs: number;
  readonly body: string;
  readonly etag: string;
  readonly headers: http.OutgoingHttpHeaders;
}

/**
 * Bound of the rendered answers kept, over all endpoints together: any name is answered, so requests for
 * random names must not grow the heap with the number of endpoints (the bin caps the old space at 64 MB).
 */
const MAX_CACHED_BODIES = 4096;
const NO_DATE = Number.POSITIVE_INFINITY;
const timeOf = (date: Date | null | undefined): number => (date ? date.getTime() : NO_DATE);

/** A render shared by the identical requests in flight. */
interface SharedRender {
  readonly task: CancellableTask<string>;
  /** Requests still waiting for it. */
  waiters: number;
  /** Stops the task (the last waiter left) and forgets it. */
  drop(reason?: Error): void;
}

/**
 * One client address holds at most `max` open connections: more are answered 429 and closed before any
 * request is read, so a flood of slow connections from one address cannot take every socket.
 */
function limitConnections(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  const body = errorBody(messages.tooManyConnections(max));
  const refusal =
    'HTTP/1.1 429 Too Many Requests\r\n' +
    `Content-Type: ${CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    if (count > max) {
      socket.end(refusal);
      socket.destroySoon();
    }
  });
}

/** Creates the endpoint server. It does not listen until {@link EndpointServer.listen} is called. */
export function createEndpointServer(options: EndpointServerOptions): EndpointServer {
  const logger = options.logger ?? silentLogger;
  let shuttingDown = false;
  let pending = 0;
  let onIdle: (() => void) | null = null;

  const settle = (): void => {
    pending--;
    if (pending === 0 && onIdle) onIdle();
  };

  /**
   * Answers rendered without the host, per compiled object (one per endpoint and snapshot) and player name.
   * A render depends only on the snapshot's config, the object, the name and the player's dates, so while the
   * player's record (one per read of the player file and usercache entry) is unchanged, the text is reused:
   * no date formatting, rendering, byte counting or header object per request.
   */
  const objectIds = new WeakMap<CompiledObject, number>();
  let nextObjectId = 0;
  const bodies = new Map<string, CachedBody>();
  const localAnswer = (
    config: EndpointConfig,
    object: CompiledObject,
    username: string | null,
    player: PlayerRecord | null,
  ): CachedBody => {
    let id = objectIds.get(object);
    if (id === undefined) {
      id = nextObjectId++;
      objectIds.set(object, id);
    }
    // A missing name renders as an empty one.
    const key = `${id}/${username ?? ''}`;
    const lastLoginMs = timeOf(player?.lastLogin);
    const lastSeenMs = timeOf(player?.lastSeen);
    const hit = bodies.get(key);
    if (hit !== undefined && hit.player === player && hit.lastLoginMs === lastLoginMs && hit.lastSeenMs === lastSeenMs)
      return hit;
    const body = renderLocal(config, object, username, player);
    const etag = etagOf(body);
    const created: CachedBody = {
      player,
      lastLoginMs,
      lastSeenMs,
      body,
      etag,
      headers: { 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(body), etag },
    };
    if (bodies.size >= MAX_CACHED_BODIES) bodies.clear();
    bodies.set(key, created);
    return created;
  };
  const sendCached = (req: http.IncomingMessage, res: http.ServerResponse, answer: CachedBody, head: boolean): void => {
    if (req.headers['if-none-match'] !== undefined && notModified(req, answer.etag)) {
      res.writeHead(304, { etag: answer.etag });
      res.end();
      return;
    }
    // node:http only reads the headers object, so one per answer is shared by its requests.
    res.writeHead(200, answer.headers);
    if (head) res.end();
    else res.end(answer.body);
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    const snapshot = options.getSnapshot();
    if (applyCors(req, res, snapshot.config.corsOrigins)) return;
    if (shuttingDown || !snapshot.host.isActive()) {
      req.resume();
      send(req, res, 503, SHUTTING_DOWN_BODY, head);
      return;
    }
    if (method !== 'GET' && !head) {
      // Drain the body so the connection stays usable for the next request.
      req.resume();
      send(req, res, 405, errorBody(messages.methodNotAllowed(method)), false, true);
      return;
    }
    const target = req.url ?? '/';
    const parsed = parsePath(target);
    switch (parsed.kind) {
      case 'favicon':
        send(req, res, 200, '', head);
        return;
      case 'not-found':
        send(req, res, 404, NOT_FOUND_BODY, head);
        return;
      case 'malformed':
        send(req, res, 400, errorBody(messages.malformedPath(rawPathOf(target))), head);
        return;
      case 'endpoint':
        break;
    }
    const { config, host } = snapshot;
    if (config.endpoints === null) {
      send(req, res, 200, NO_ENDPOINTS_BODY, head);
      return;
    }
    const endpoint = config.endpoints.get(parsed.name);
    if (!endpoint) {
      send(req, res, 200, errorBody(messages.endpointNotFound(parsed.name)), head);
      return;
    }
    const object = endpoint.object;
    if (!object) {
      send(req, res, 200, errorBody(messages.objectNotFound(endpoint.name)), head);
      return;
    }
    if (endpoint.requirePlayer && parsed.username === null) {
      send(req, res, 400, errorBody(messages.playerRequired(endpoint.name)), head);
      return;
    }
    const username = parsed.username;
    if (!needsHost(object, username)) {
      sendCached(req, res, localAnswer(config, object, username, null), head);
      return;
    }
    if (object.externals.length === 0 && username !== null && host.findPlayerCached) {
      const player = host.findPlayerCached(username);
      if (player !== undefined) {
        sendCached(req, res, localAnswer(config, object, username, player), head);
        return;
      }
    }
    pending++;
    const timeoutMs = config.requestTimeoutSeconds * 1000;
    let done = false;
    const finish = (): void => {
      res.off('close', onClose);
      settle();
    };
    const answer = (body: string): void => {
      if (!res.headersSent && !res.destroyed) send(req, res, 200, body, head);
    };
    const timedOut = (): void => {
      logger.warn(`Endpoint '${endpoint.name}': timed out after ${config.requestTimeoutSeconds} s`);
      if (!res.headersSent && !res.destroyed) send(req, res, 503, TIMED_OUT_BODY, head);
    };
    const failed = (error: unknown): void => {
      if (error instanceof TaskAbortedError) return;
      if (error instanceof TaskTimeoutError) {
        timedOut();
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(`Endpoint '${endpoint.name}': failed to collect the requested data: ${reason}`);
      if (!res.headersSent && !res.destroyed) send(req, res, 500, FAILED_BODY, head);
    };
    let onClose: () => void;
    if (host.startTask) {
      // Identical renders in flight (same endpoint of the same snapshot, same name) share one task; each
      // request keeps its own time limit, and the task stops once no request waits for it.
      const shared = joinRender(host, object, username, timeoutMs, (signal) =>
        renderWithHost(config, host, object, username, signal),
      );
      const leave = (reason?: Error): void => {
        shared.waiters--;
        if (shared.waiters === 0) shared.drop(reason);
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        leave(new TaskTimeoutError());
        timedOut();
        finish();
      }, timeoutMs);
      onClose = () => {
        if (done || res.writableFinished) return;
        done = true;
        clearTimeout(timer);
        leave();
        finish();
      };
      res.once('close', onClose);
      shared.task.promise.then(
        (body) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          answer(body);
          finish();
        },
        (error: unknown) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          failed(error);
          finish();
        },
      );
      return;
    }
    const gone = new AbortController();
    onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.once('close', onClose);
    host
      .runTask((signal) => renderWithHost(config, host, object, username, signal), timeoutMs, gone.signal)
      .then(answer, failed)
      .finally(finish);
  };

  /** Renders in flight, by compiled object (one per endpoint and snapshot) and player name. */
  const renders = new Map<CompiledObject, Map<string | null, SharedRender>>();
  const joinRender = (
    host: Host,
    object: CompiledObject,
    username: string | null,
    timeoutMs: number,
    render: (signal: AbortSignal) => Promise<string>,
  ): SharedRender => {
    let byName = renders.get(object);
    if (!byName) {
      byName = new Map();
      renders.set(object, byName);
    }
    const found = byName.get(username);
    if (found) {
      found.waiters++;
      found.task.extend(timeoutMs);
      return found;
    }
    const names = byName;
    const task = host.startTask?.(render, timeoutMs);
    if (!task) throw new Error('the host cannot start tasks');
    const forget = (): void => {
      if (names.get(username) !== created) return;
      names.delete(username);
      if (names.size === 0 && renders.get(object) === names) renders.delete(object);
    };
    const created: SharedRender = {
      task,
      waiters: 1,
      drop(reason) {
        forget();
        task.cancel(reason);
      },
    };
    task.promise.then(forget, forget);
    names.set(username, created);
    return created;
  };

  const limits = options.getSnapshot().config.clients;
  const server = http.createServer(
    {
      keepAliveTimeout: limits.keepAliveTimeoutSeconds * 1000,
      headersTimeout: limits.headersTimeoutSeconds * 1000,
      requestTimeout: limits.clientTimeoutSeconds * 1000,
      // The timeouts above are checked this often (node's default is every 30 s).
      connectionsCheckingInterval: 1000,
    },
    handle,
  );
  server.setTimeout(limits.clientTimeoutSeconds * 1000);
  if (limits.maxConnectionsPerAddress > 0) limitConnections(server, limits.maxConnectionsPerAddress);

  return {
    server,
    listen(port, hostname) {
      return new Promise<AddressInfo>((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        server.once('error', onError);
        server.listen(port, hostname, () => {
          server.off('error', onError);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    async shutdown(drainTimeoutMs) {
      shuttingDown = true;
      if (pending > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainTimeoutMs);
          onIdle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      onIdle = null;
      await new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    isShuttingDown: () => shuttingDown,
    inFlight: () => pending,
  };
}
