/**
 * Request path parsing (DECISIONS "Endpoint server", Paths).
 * @packageDocumentation
 */

/** The outcome of parsing a request target. */
export type ParsedPath =
  | { readonly kind: 'favicon' }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'endpoint'; readonly name: string; readonly username: string | null };

const ENDPOINT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Whitespace (Unicode-aware) or C0/C1 control characters.
const USERNAME_FORBIDDEN = /[\s\p{Cc}]/u;
const MAX_USERNAME_LENGTH = 32;

const FAVICON: ParsedPath = Object.freeze({ kind: 'favicon' });
const NOT_FOUND: ParsedPath = Object.freeze({ kind: 'not-found' });
const MALFORMED: ParsedPath = Object.freeze({ kind: 'malformed' });

/** Returns the path part of a request target (everything before `?`), as sent. */
export function rawPathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** Whether `name` is a valid endpoint name: letters, digits, `_`, `-`, 1 to 64 characters. */
export function isValidEndpointName(name: string): boolean {
  return ENDPOINT_NAME.test(name);
}

/** Whether `name` is an acceptable player name: non-blank, at most 32 characters, no whitespace or controls. */
export function isValidUsername(name: string): boolean {
  if (name.length === 0 || USERNAME_FORBIDDEN.test(name)) return false;
  // Count code points so a name in an astral script is not penalised for surrogate pairs.
  let count = 0;
  for (const _ of name) {
    count++;
    if (count > MAX_USERNAME_LENGTH) return false;
  }
  return true;
}

function decodeSegment(segment: string): string | null {
  if (segment.indexOf('%') === -1) return segment;
  try {
    // decodeURIComponent leaves `+` alone, which is what we want: a `+` is a literal plus.
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Parses the path of a request target. The query string is ignored.
 *
 * Steps: strip one leading and one trailing `/`, split on `/`, percent-decode each segment (a broken escape
 * anywhere is malformed), then apply the route rules of DECISIONS in order.
 */
export function parsePath(target: string): ParsedPath {
  let path = rawPathOf(target);
  if (path.startsWith('/')) path = path.slice(1);
  if (path.endsWith('/')) path = path.slice(0, -1);
  const raw = path.split('/');
  const segments: string[] = [];
  for (const part of raw) {
    const decoded = decodeSegment(part);
    if (decoded === null) return MALFORMED;
    segments.push(decoded);
  }
  if (segments.length === 1 && segments[0] === 'favicon.ico') return FAVICON;
  if (segments.length < 2 || segments[0] !== 'api') return NOT_FOUND;
  if (segments.length > 3) return MALFORMED;
  for (const segment of segments) if (segment.length === 0) return MALFORMED;
  const name = segments[1] ?? '';
  if (!isValidEndpointName(name)) return MALFORMED;
  const username = segments[2];
  if (username === undefined) return { kind: 'endpoint', name, username: null };
  if (!isValidUsername(username)) return MALFORMED;
  return { kind: 'endpoint', name, username };
}
