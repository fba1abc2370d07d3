import { connect, type Socket } from 'node:net';

/**
 * A lean keep-alive HTTP/1.1 load generator: one plain TCP socket per connection, one request in flight on
 * each, the request written as one string and the response framed by Content-Length (or chunked encoding).
 * It drives the ingest's POSTs, each with its own body, and spends little CPU per request: on 2 cores, what
 * the generator takes is taken from the service and the database.
 */

export interface LeanRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface LeanLoadOptions {
  /** `http://127.0.0.1:port` */
  url: string;
  connections: number;
  seconds: number;
  /** Sent with every request (lower-case names). */
  headers: Record<string, string>;
  /** Called before every request. */
  next: () => LeanRequest;
  /** Called after every complete response. */
  onResponse: (status: number, ms: number) => void;
}

export interface LeanLoadResult {
  /** Connection errors and responses that could not be read. */
  errors: number;
  seconds: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

/**
 * The first response in `buf`: its status and its length in bytes (framed by Content-Length or chunked encoding,
 * else the head alone), or null while it is not all there.
 */
export function frameResponse(buf: Buffer): { status: number; total: number } | null {
  const headEnd = buf.indexOf(HEADER_END);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const cl = /\r\ncontent-length: *(\d+)/.exec(head);
  if (cl) {
    const total = headEnd + 4 + Number(cl[1]);
    return buf.length < total ? null : { status, total };
  }
  if (head.includes('\r\ntransfer-encoding: chunked')) {
    const end = buf.indexOf(CHUNKED_END, headEnd + 4);
    return end < 0 ? null : { status, total: end + CHUNKED_END.length };
  }
  return { status, total: headEnd + 4 };
}

/** Runs the load until `seconds` pass, then waits for the requests in flight (at most 10 s). */
export async function leanLoad(o: LeanLoadOptions): Promise<LeanLoadResult> {
  const target = new URL(o.url);
  const port = Number(target.port);
  const fixed =
    `Host: ${target.host}\r\n` +
    Object.entries(o.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
  const started = performance.now();
  const deadline = started + o.seconds * 1000;
  let errors = 0;

  const runConnection = () =>
    new Promise<void>((resolve) => {
      let socket: Socket;
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let waiting = false;
      let closed = false;

      const finish = () => {
        if (closed) return;
        closed = true;
        socket.destroy();
        resolve();
      };
      const send = () => {
        if (performance.now() >= deadline) {
          finish();
          return;
        }
        const r = o.next();
        const body = r.body ?? '';
        const head =
          `${r.method} ${r.path} HTTP/1.1\r\n${fixed}` +
          (r.method === 'POST' ? `content-length: ${Buffer.byteLength(body)}\r\n` : '') +
          '\r\n';
        sentAt = performance.now();
        waiting = true;
        socket.write(head + body);
      };
      const open = () => {
        socket = connect({ host: target.hostname, port, noDelay: true });
        socket.on('connect', send);
        socket.on('data', (chunk: Buffer) => {
          buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
          // One response at a time: frame it, then send the next request.
          const framed = frameResponse(buf);
          if (framed === null) return;
          const { status, total } = framed;
          buf = buf.length === total ? Buffer.alloc(0) : buf.subarray(total);
          waiting = false;
          o.onResponse(status, performance.now() - sentAt);
          send();
        });
        socket.on('error', () => {
          errors++;
        });
        socket.on('close', () => {
          if (closed) return;
          if (waiting) errors++;
          buf = Buffer.alloc(0);
          // The server closed the connection: open another one, as a client would.
          if (performance.now() < deadline) open();
          else finish();
        });
      };
      open();
      setTimeout(finish, o.seconds * 1000 + 10_000).unref();
    });

  await Promise.all(Array.from({ length: o.connections }, runConnection));
  return { errors, seconds: (performance.now() - started) / 1000 };
}
