// PostgreSQL text and jsonb cannot hold U+0000, and jsonb rejects unpaired UTF-16 surrogates. Such input must be
// refused as a client error before it reaches SQL, where it would be a 500.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when a string anywhere in `value` (keys included) cannot be stored in PostgreSQL. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasUnstorableText(v, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (UNSTORABLE.test(k) || hasUnstorableText(v, depth + 1)) return true;
  }
  return false;
}

/**
 * False when nothing decoded from this request target (path parameters, query values) can be unstorable: it is
 * printable ASCII and escapes neither NUL nor any non-ASCII byte (where a surrogate could come from). The
 * common case, so the walk over the decoded values is skipped for it.
 */
const URL_MAY_HOLD = /%(?:00|[89a-f])|[^\x21-\x7e]/i;

export function urlMayHoldUnstorable(url: string): boolean {
  return URL_MAY_HOLD.test(url);
}
