/**
 * The one error registry: every error code the service answers with, its HTTP status and default message
 * (the error codes of the API documentation).
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, message: 'The request could not be parsed.' },
  INVALID_API_KEY: {
    status: 401,
    message: 'The API key is missing, malformed, unknown, disabled, revoked or expired.',
  },
  UNAUTHENTICATED: { status: 401, message: 'Sign in to use this route.' },
  INSUFFICIENT_SCOPE: { status: 403, message: 'The API key lacks the scope this route requires.' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  INVALID_PAYLOAD: { status: 422, message: 'The request is invalid.' },
  INVALID_BOOTSTRAP_TOKEN: { status: 422, message: 'The bootstrap token is unknown, used or expired.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests.' },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Field path → messages, as in `{"player.uuid": ["must be a UUID"]}`. */
export type ErrorDetails = Record<string, string[]>;

/**
 * A 422 summary ("The batch is invalid.") with its first problem named, so that a message shown alone (a log
 * line, the console's list of rejected uploads, a CLI error) says what to fix: "The batch is invalid:
 * player.username must be a player name: … (and 1 more problem)". `details` keeps every problem.
 */
export function withFirstProblem(summary: string, details: ErrorDetails): string {
  const entries = Object.entries(details).filter(([, messages]) => messages.length > 0);
  const first = entries[0];
  if (!first) return summary;
  const more = entries.reduce((n, [, messages]) => n + messages.length, 0) - 1;
  const problem = `${first[0]} ${first[1][0]}`.replace(/\.$/, '');
  return `${summary.replace(/\.$/, '')}: ${problem}${more > 0 ? ` (and ${more} more problem${more > 1 ? 's' : ''})` : ''}.`;
}

/** An expected failure with a registered code; the error handler turns it into the wire shape. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: ErrorDetails,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    const text = message ?? ERRORS[code].message;
    // Only a summary gets its first problem: a message that already says what is wrong stays as it is.
    super(
      code === 'INVALID_PAYLOAD' && details !== undefined && / is invalid\.$/.test(text)
        ? withFirstProblem(text, details)
        : text,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'AppError';
    this.status = ERRORS[code].status;
    this.headers = options?.headers;
  }
  readonly headers: Record<string, string> | undefined;
}

/** Shorthand for a 422 with one field message. */
export function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_PAYLOAD', 'The request is invalid.', { [field]: [message] });
}

/** Seconds a client is asked to wait (`Retry-After`) when the service cannot take its request now. */
export const RETRY_AFTER_SECONDS = 5;

/** A 503 the client should retry: the database is unavailable, or the ingest queue is full. */
export function unavailable(message: string, cause?: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', message, undefined, {
    cause,
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}
