import type { FastifyReply } from 'fastify';
import { gzippedFor, mayCompress, varyWithEncoding } from './compression.ts';

/**
 * Sends an answer that is already JSON (built once and cached), as text or as its UTF-8 bytes: Fastify passes
 * either through without serializing it again, and bytes are written without being measured and encoded on
 * every request. A large cached answer goes gzipped to a client that accepts it (see compression.ts). The
 * route's response schema still documents it, and the contract tests check that real answers match it.
 */
export function sendJsonText(reply: { type(contentType: string): unknown }, json: string | Buffer): FastifyReply {
  const r = (reply as FastifyReply).type('application/json; charset=utf-8');
  if (typeof json === 'string' || !mayCompress(json.length)) return r.send(json);
  r.header('vary', varyWithEncoding(r.getHeader('vary') ?? r.raw.getHeader('vary')));
  const gzipped = gzippedFor(json, r.request.headers['accept-encoding']);
  return gzipped ? r.header('content-encoding', 'gzip').send(gzipped) : r.send(json);
}

/**
 * Sends a cached answer at once, or the built one when its promise settles (a rejection becomes the error
 * answer). The synchronous case returns nothing: Fastify must not send a returned reply a second time.
 */
export function sendJsonNowOrLater(
  reply: { type(contentType: string): unknown },
  json: Buffer | Promise<Buffer>,
): undefined | Promise<void> {
  if (json instanceof Promise) {
    return json.then((bytes) => {
      sendJsonText(reply, bytes);
    });
  }
  sendJsonText(reply, json);
  return undefined;
}
