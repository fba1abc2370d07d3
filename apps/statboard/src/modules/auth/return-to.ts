/**
 * `return_to` after login must be a local path, never another site (no open redirect): it starts with a single
 * `/`, holds no backslash (browsers read `/\evil` as `//evil`) and no control character (a tab or newline
 * inside `//` is dropped by URL parsers), and resolves on our own origin.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  if (value.includes('\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rejects
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const base = 'http://return-to.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return url.pathname + url.search + url.hash;
}
