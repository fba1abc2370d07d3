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
