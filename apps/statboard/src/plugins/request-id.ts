import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The characters a client's request id may hold: printable ASCII (space to `~`) except the ones that could
 * turn the id into markup, a quoted string or an escape where it is shown again (the audit log, the console,
 * log viewers, CSV exports): `"` `'` `<` `>` `\` and the backtick.
 */
const SAFE =
  /^[\x21\x23-\x26\x28-\x3b=\x3f-\x5b\x5d-\x5f\x61-\x7e][\x20\x21\x23-\x26\x28-\x3b=\x3f-\x5b\x5d-\x5f\x61-\x7e]{0,127}$/;

/**
 * The client's `X-Request-ID` when it is 1–128 printable ASCII characters of the safe set above (not starting
 * or ending with a space, which would not survive header trimming), else a new UUID.
 */
export function requestIdFor(req: IncomingMessage): string {
  const raw = req.headers['x-request-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value !== undefined && value.length <= 128 && SAFE.test(value) && !value.endsWith(' ')) return value;
  return randomUUID();
}
