import type { Scope } from './scopes.ts';
import type { KeyType } from './token.ts';

/** The public record of a key (DECISIONS, "API keys"). Never carries the secret or its hash. */
export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  type: KeyType;
  prefix: string;
  description: string | null;
  enabled: boolean;
  status: 'active' | 'disabled' | 'revoked' | 'expired';
  scopes: string[];
  player_restrictions: string[];
  server_restrictions: string[];
  season_restrictions: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

/** Input of create and update; `type` only on create. Restriction ids are validated against the workspace. */
export interface KeyInput {
  name: string;
  description?: string | null;
  scopes: string[];
  player_restrictions?: string[];
  server_restrictions?: string[];
  season_restrictions?: string[];
  expires_at?: string | null;
}

export interface CreateKeyInput extends KeyInput {
  type: string;
}

/** A verified key, as the request sees it. */
export interface AuthKey {
  id: string;
  workspaceId: string;
  type: KeyType;
  scopes: ReadonlySet<Scope>;
  /** Game UUIDs, lower case; empty = unrestricted. */
  players: readonly string[];
  servers: readonly string[];
  seasons: readonly string[];
}
