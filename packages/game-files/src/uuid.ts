const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the canonical 8-4-4-4-12 hex form (any version, any case). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
