/** Field names whose values never enter the audit log: secrets, tokens and their hashes. */
const SECRET_FIELD = /(secret|token|password|hash|verifier)/i;

/** A copy of `value` as JSON, without secret fields at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_FIELD.test(k) || v === undefined) continue;
      out[k] = withoutSecrets(v);
    }
    return out;
  }
  return value;
}
