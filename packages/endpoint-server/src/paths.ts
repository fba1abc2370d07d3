/**
 * Request path parsing.
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
  // A name of at most 32 UTF-16 units has at most 32 code points.
  if (name.length <= MAX_USERNAME_LENGTH) return true;
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
 * anywhere is malformed), then apply the route rules in order.
 */
export function parsePath(target: string): ParsedPath {
  const known = parsedTargets.get(target);
  if (known !== undefined) return known;
  const parsed = parseTarget(target);
  if (target.length <= MAX_MEMO_TARGET) {
    if (parsedTargets.size >= MAX_MEMO_ENTRIES) parsedTargets.clear();
    parsedTargets.set(target, Object.freeze(parsed));
  }
  return parsed;
}

// Clients ask the same few targets again and again: remember recent outcomes (short targets only, so the
// memo stays small whatever is sent).
const parsedTargets = new Map<string, ParsedPath>();
const MAX_MEMO_ENTRIES = 1024;
const MAX_MEMO_TARGET = 128;

function parseTarget(target: string): ParsedPath {
  const fast = parsePlainPath(target);
  if (fast !== null) return fast;
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

const SLASH = 47;

/**
 * {@link parsePath} for the common target without any `%` (nothing to decode), found by index instead of
 * splitting; null when the target has a `%` (the general parser decides).
 */
function parsePlainPath(target: string): ParsedPath | null {
  const q = target.indexOf('?');
  let end = q === -1 ? target.length : q;
  const percent = target.indexOf('%');
  if (percent !== -1 && percent < end) return null;
  const start = end > 0 && target.charCodeAt(0) === SLASH ? 1 : 0;
  if (end > start && target.charCodeAt(end - 1) === SLASH) end--;
  const first = target.indexOf('/', start);
  if (first === -1 || first >= end) {
    return end - start === 11 && target.startsWith('favicon.ico', start) ? FAVICON : NOT_FOUND;
  }
  if (first - start !== 3 || !target.startsWith('api', start)) return NOT_FOUND;
  const second = target.indexOf('/', first + 1);
  const hasUser = second !== -1 && second < end;
  if (hasUser) {
    const third = target.indexOf('/', second + 1);
    if (third !== -1 && third < end) return MALFORMED;
  }
  const name = target.slice(first + 1, hasUser ? second : end);
  if (!isValidEndpointName(name)) return MALFORMED;
  if (!hasUser) return { kind: 'endpoint', name, username: null };
  const username = target.slice(second + 1, end);
  if (!isValidUsername(username)) return MALFORMED;
  return { kind: 'endpoint', name, username };
}
