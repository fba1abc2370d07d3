import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '#src/db/availability.ts';
import { AppError, ERRORS, type ErrorCode, type ErrorDetails, unavailable } from '#src/errors.ts';
import { detailsFromAjv } from '#src/lib/validation.ts';

interface WireError {
  error: { code: ErrorCode; message: string; request_id: string; details?: ErrorDetails };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with, if any (for hooks that report failures). */
    failure: AppError | null;
  }
}

export function sendError(reply: FastifyReply, request: FastifyRequest, err: AppError): FastifyReply {
  request.failure = err;
  const body: WireError = { error: { code: err.code, message: err.message, request_id: request.id } };
  if (err.details) body.error.details = err.details;
  if (err.headers) reply.headers(err.headers);
  return reply.code(err.status).type('application/json; charset=utf-8').send(body);
}

/** Maps Fastify's own client errors (parsing, size, content type) onto the registry. */
function fromFastify(err: FastifyError): AppError | null {
  if (err.validation) {
    const ctx = err.validationContext;
    if (ctx === 'params') return new AppError('NOT_FOUND');
    return new AppError('INVALID_PAYLOAD', 'The request is invalid.', detailsFromAjv(err.validation as never));
  }
  const status = err.statusCode ?? 500;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body exceeds 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('BAD_REQUEST', 'The request body must be application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', 'The request body is empty.');
  }
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body exceeds 1 MiB.');
  if (status === 404) return new AppError('NOT_FOUND');
  if (status === 429) return new AppError('RATE_LIMITED');
  if (status >= 400 && status < 500) {
    const msg =
      err instanceof SyntaxError || /JSON/i.test(err.message)
        ? 'The request body is not valid JSON.'
        : ERRORS.BAD_REQUEST.message;
    return new AppError('BAD_REQUEST', msg);
  }
  return null;
}

/**
 * One handler turns every thrown error into `{error: {code, message, request_id}}`; 5xx never leak internals.
 * `notFoundPage` may answer an unknown path first (the console's page for a browser), else the JSON 404.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | null) | null = null,
): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const known = err instanceof AppError ? err : fromFastify(err);
    if (known) {
      // A 503 is expected while the database is away or the service is full: the outage is logged once, not
      // per request.
      if (known.status >= 500 && known.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err }, known.message);
      return sendError(reply, request, known);
    }
    if (isDatabaseUnavailable(err)) {
      return sendError(reply, request, unavailable('The database is unavailable; retry later.'));
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, request, new AppError('INTERNAL_ERROR'));
  });
  app.setNotFoundHandler(
    (request, reply) =>
      notFoundPage?.(request, reply) ?? sendError(reply, request, new AppError('NOT_FOUND', 'No such route.')),
  );
}
