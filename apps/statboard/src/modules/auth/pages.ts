import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#src/errors.ts';
import { sendError } from '#src/plugins/errors.ts';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** A minimal standalone HTML page (no external resources). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
input,button{font:inherit;padding:.4rem .6rem}code{background:#eee;padding:0 .2rem}</style></head>
<body>${body}</body></html>`;
}

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
