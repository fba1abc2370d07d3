/** Where a browser may be sent after login: a path on our own origin, never another site (no open redirect). */
const BASE = 'http://return-to.invalid';

/**
 * `return_to` after login, normalised, or null when it is not a local path. The value is first resolved as a
 * browser would (dot segments, percent-encoded dots), then the result is checked: it must start with a single
 * `/` (a `//host` or `/\host` Location leaves the site), hold no backslash or control character (a tab or
 * newline inside `//` is dropped by URL parsers), and resolve on our own origin.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!isLocalPath(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const normalised = url.pathname + url.search + url.hash;
  return isLocalPath(normalised) ? normalised : null;
}

function isLocalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  if (path.includes('\\')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rejects
  return !/[\u0000-\u001f\u007f]/.test(path);
}
