import type { FastifyReply } from 'fastify';

/**
 * Sends an answer that is already JSON (built once and cached), as text or as its UTF-8 bytes: Fastify passes
 * either through without serializing it again, and bytes are written without being measured and encoded on
 * every request. The route's response schema still documents it, and the contract tests check that real
 * answers match it.
 */
export function sendJsonText(reply: { type(contentType: string): unknown }, json: string | Buffer): FastifyReply {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
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
