import type { FastifyReply } from 'fastify';

/**
 * Sends an answer that is already JSON text (built once and cached): Fastify passes a string through without
 * serializing it again. The route's response schema still documents it, and the contract tests check that real
 * answers match it.
 */
export function sendJsonText(reply: { type(contentType: string): unknown }, text: string): FastifyReply {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(text);
}
