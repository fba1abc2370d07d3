import type { KeyType } from './token.ts';

export const SCOPES = [
  'ingest:write',
  'ingest:server',
  'players:read',
  'stats:read',
  'leaderboards:read',
  'presence:read',
] as const;
export type Scope = (typeof SCOPES)[number];
export const READ_SCOPES: readonly Scope[] = ['players:read', 'stats:read', 'leaderboards:read', 'presence:read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Client keys must hold `ingest:write` and no read scope; website keys only read scopes; integration keys any,
 * except that `ingest:server` (uploads a server vouches for, spec "Server-authoritative uploads") is only for an
 * integration key restricted to exactly one server: the server its uploads are for. `servers`: the key's server
 * restriction. Returns a message for the `scopes` field, or null when allowed.
 */
export function scopeRuleViolation(type: KeyType, scopes: readonly Scope[], servers: readonly string[]): string | null {
  if (scopes.includes('ingest:server')) {
    if (type !== 'integration') return 'only an integration key can hold ingest:server';
    if (servers.length !== 1) return 'a key with ingest:server must be restricted to exactly one server';
  }
  if (type === 'client') {
    if (!scopes.includes('ingest:write')) return 'a client key must hold ingest:write';
    if (scopes.some((s) => READ_SCOPES.includes(s))) return 'a client key cannot hold read scopes';
  }
  if (type === 'website' && scopes.includes('ingest:write')) return 'a website key can hold only read scopes';
  return null;
}
