/** Query parameters whose values are secrets wherever they appear (compared in lower case). */
const SECRET_PARAMS = new Set([
  'key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'bootstrap_token',
  'secret',
  'password',
  'code',
  'state',
]);

/** Our tokens (API keys, bootstrap tokens), whatever parameter carries them. */
const TOKEN = /stb_[a-z]+_/i;

export const REDACTED = '[REDACTED]';

/**
 * A query string that certainly holds nothing to redact: no escape (`%`, `+`) that could hide a name or a
 * token, no secret parameter's name before an `=`, no token. Most requests' (`?season=s1&stat=…`): they skip
 * the per-parameter work.
 */
const MAYBE_SECRET = new RegExp(`[%+]|stb_|(?:^|&)\\s*(?:${[...SECRET_PARAMS].join('|')})\\s*=`, 'i');

/**
 * A request URL as it may be written to a log: the values of secret-bearing query parameters (an API key sent as
 * `?api_key=`, the login's `code` and `state`) and any value that holds one of our tokens are replaced by
 * `[REDACTED]`. A URL without a query string is returned as it is, without work.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !MAYBE_SECRET.test(url.slice(q + 1))) return url;
  const parts = url.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    let name = rawName;
    let decoded = value;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      // Malformed escapes: judge the raw text.
    }
    if (value !== '' && (SECRET_PARAMS.has(name.trim().toLowerCase()) || TOKEN.test(decoded))) {
      parts[i] = `${rawName}=${REDACTED}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q + 1)}${parts.join('&')}` : url;
}
