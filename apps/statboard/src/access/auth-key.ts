import type { Scope } from './scopes.ts';
import type { KeyType } from './token.ts';

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
