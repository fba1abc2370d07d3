import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const PRINTABLE = /^[\x21-\x7e][\x20-\x7e]{0,127}$/;

/**
 * The client's `X-Request-ID` when it is 1–128 printable ASCII characters, else a new UUID.
 * (A value that starts with a space is rejected: it would not survive header trimming.)
 */
export function requestIdFor(req: IncomingMessage): string {
  const raw = req.headers['x-request-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value !== undefined && value.length <= 128 && PRINTABLE.test(value) && !value.endsWith(' ')) return value;
  return randomUUID();
}
