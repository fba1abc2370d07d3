import type { KeyType } from './token.ts';

export const SCOPES = ['ingest:write', 'players:read', 'stats:read', 'leaderboards:read', 'presence:read'] as const;
export type Scope = (typeof SCOPES)[number];
export const READ_SCOPES: readonly Scope[] = ['players:read', 'stats:read', 'leaderboards:read', 'presence:read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Client keys must hold `ingest:write` and no read scope; website keys only read scopes;
 * integration keys any. Returns a message for the `scopes` field, or null when allowed.
 */
export function scopeRuleViolation(type: KeyType, scopes: readonly Scope[]): string | null {
  if (type === 'client') {
    if (!scopes.includes('ingest:write')) return 'a client key must hold ingest:write';
    if (scopes.some((s) => READ_SCOPES.includes(s))) return 'a client key cannot hold read scopes';
  }
  if (type === 'website' && scopes.includes('ingest:write')) return 'a website key can hold only read scopes';
  return null;
}
