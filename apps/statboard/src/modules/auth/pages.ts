import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#src/errors.ts';
import { escapeHtml, htmlPage } from '#src/http/html-page.ts';
import { sendError } from '#src/plugins/errors.ts';

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /text\/html/i.test(accept) && !/^application\/json/i.test(accept);
}

/**
 * Errors of the browser-facing login routes: an HTML page for a browser, the registry's JSON otherwise.
 * Never a raw 500: unknown errors are logged and shown as INTERNAL_ERROR without internals.
 */
export function sendAuthError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const known = err instanceof AppError ? err : new AppError('INTERNAL_ERROR');
  if (known.status >= 500) request.log.error({ err }, known.message);
  if (!wantsHtml(request)) return sendError(reply, request, known);
  const page = htmlPage(
    'Sign-in problem',
    `<h1>Sign-in problem</h1><p>${escapeHtml(known.message)}</p>
<p><a href="/auth/login">Try again</a></p><p><small>Request id: <code>${escapeHtml(request.id)}</code> (${escapeHtml(known.code)})</small></p>`,
  );
  return reply.code(known.status).type('text/html; charset=utf-8').send(page);
}
