import { gzip } from 'node:zlib';

/**
 * Answers of at least this many bytes may be sent gzip-compressed (`/online` with thousands online, the console's
 * 500 players, long history series); smaller ones are sent as they are, where compressing saves less than it costs.
 */
export const COMPRESS_MIN_BYTES = 32 * 1024;

/** What a copy is while it is being made, or once it failed (the answer is then always sent as it is). */
type Copy = Buffer | 'seen' | 'pending' | 'failed';

/**
 * Gzip copies of large answers that are served again and again (cached answers: the same Buffer each time), for
 * clients that accept gzip (every browser, `fetch`, curl with `--compressed`). A large answer is compressed the
 * second time it is sent: a Buffer sent twice belongs to a cache, while an answer built for one request never is,
 * so no request pays for compressing its own answer. The copy is made on libuv's thread pool, never on the event
 * loop; until it is ready the answer goes out as it is. Copies are held by their answer's Buffer (a WeakMap):
 * each lives exactly as long as the cached answer, so the answer caches' byte budgets bound them too (a copy is
 * a fraction of its answer: `/online` with 10,000 players, 2.7 MB, is 0.5 MB gzipped).
 */
const copies = new WeakMap<Buffer, Copy>();

/**
 * The gzip copy of `body` to send instead of it to a client whose `Accept-Encoding` is `accept`, or null (send
 * `body`): too small, not accepted, or not compressed yet (its compression may start now).
 */
export function gzippedFor(body: Buffer, accept: string | undefined): Buffer | null {
  if (body.length < COMPRESS_MIN_BYTES || accept === undefined || !acceptsGzip(accept)) return null;
  const copy = copies.get(body);
  if (copy instanceof Buffer) return copy;
  if (copy === undefined) copies.set(body, 'seen');
  else if (copy === 'seen') {
    copies.set(body, 'pending');
    gzip(body, (err, out) => copies.set(body, err ? 'failed' : out));
  }
  return null;
}

/**
 * Makes `body`'s gzip copy now (on the thread pool), for an answer that is built to be cached and served to many
 * (`/online` with thousands online): its copy is ready when the answer is first served, so that no client gets it
 * uncompressed while it is made, and when the answer is refreshed in the background, the previous answer and its
 * copy are served until both are ready. Resolves with `body` (also if compressing failed: then it goes out as it is).
 */
export function precompressed(body: Buffer): Promise<Buffer> {
  if (body.length < COMPRESS_MIN_BYTES) return Promise.resolve(body);
  copies.set(body, 'pending');
  return new Promise((resolve) => {
    gzip(body, (err, out) => {
      copies.set(body, err ? 'failed' : out);
      resolve(body);
    });
  });
}

/** Whether a response of `bytes` may differ by `Accept-Encoding` (it is to say so in `Vary`). */
export function mayCompress(bytes: number): boolean {
  return bytes >= COMPRESS_MIN_BYTES;
}

/** `Vary` with `Accept-Encoding` added to what it was (CORS may have set `Origin`). */
export function varyWithEncoding(prior: unknown): string {
  return typeof prior === 'string' && prior !== '' ? `${prior}, Accept-Encoding` : 'Accept-Encoding';
}

/**
 * Whether an `Accept-Encoding` header accepts gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` listed with a weight
 * above 0, or else `*` with a weight above 0.
 */
export function acceptsGzip(header: string): boolean {
  let any = false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k!.trim().toLowerCase() === 'q') q = Number(v);
    }
    const accepted = Number.isFinite(q) && q > 0;
    if (coding !== '*') return accepted;
    any = accepted;
  }
  return any;
}
