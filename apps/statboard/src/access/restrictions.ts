import { AppError } from '#src/errors.ts';
import type { AuthKey } from './auth-key.ts';

/**
 * A key's restrictions: lists of players (game UUIDs, lower case), servers and seasons (ids) it may use; an empty
 * list restricts nothing. Every route applies them through these functions, one per rule, so that reads and
 * uploads cannot drift apart. None allocates when the key may go on (they run on the cached read path).
 */

/** What the key is doing, for the wording of a refusal. */
export type KeyUse = 'read' | 'upload';

const REFUSED = {
  player: { read: 'read that player', upload: 'upload for that player' },
  server: { read: 'read that server', upload: 'upload for that server' },
  season: { read: 'read that season', upload: 'upload into the active season' },
} as const;

function refuse(what: keyof typeof REFUSED, use: KeyUse): AppError {
  return new AppError('FORBIDDEN', `This API key may not ${REFUSED[what][use]}.`);
}

function admits(list: readonly string[], id: string): boolean {
  return list.length === 0 || list.includes(id);
}

/** The player rule: outside the key's player restriction 403 (`uuid` lower case). */
export function requirePlayer(key: AuthKey, uuid: string, use: KeyUse): void {
  if (!admits(key.players, uuid)) throw refuse('player', use);
}

/** The server rule: outside the key's server restriction 403 (`serverId` lower case). */
export function requireServer(key: AuthKey, serverId: string, use: KeyUse): void {
  if (!admits(key.servers, serverId)) throw refuse('server', use);
}

/** The season rule: outside the key's season restriction 403. */
export function requireSeason(key: AuthKey, seasonId: string, use: KeyUse): void {
  if (!admits(key.seasons, seasonId)) throw refuse('season', use);
}

/** Whether the key's server restriction admits server `serverId` (lower case). */
export function admitsServer(key: AuthKey, serverId: string): boolean {
  return admits(key.servers, serverId);
}

/** Whether the key's season restriction admits season `seasonId`. */
export function admitsSeason(key: AuthKey, seasonId: string): boolean {
  return admits(key.seasons, seasonId);
}

/** The one server a key is restricted to, or null when it may use none or several (see `ingest:server`). */
export function soleServer(key: AuthKey): string | null {
  return key.servers.length === 1 ? key.servers[0]! : null;
}

/** Whether the key may use only some servers. */
export function restrictsServers(key: AuthKey): boolean {
  return key.servers.length > 0;
}

/**
 * Whether the key reads only some players: its answers are its own (never cached for, or served from, the
 * answers of unrestricted keys).
 */
export function restrictsPlayers(key: AuthKey): boolean {
  return key.players.length > 0;
}

/** The players a key's lists show: its restriction, or null for every player. */
export function playerFilter(key: AuthKey): readonly string[] | null {
  return key.players.length > 0 ? key.players : null;
}

/** The seasons a key's lists show: its restriction, or null for every season. */
export function seasonFilter(key: AuthKey): readonly string[] | null {
  return key.seasons.length > 0 ? key.seasons : null;
}

/**
 * The servers a key may list the sessions of (null: all of its workspace's), given the server it asks for (lower
 * case, or undefined). Asking for one outside the restriction is 403 whether or not it exists, so a restricted
 * key cannot probe for servers; asking for none, a restricted key lists its own.
 */
export function serverFilter(key: AuthKey, asked: string | undefined): readonly string[] | null {
  if (key.servers.length === 0) return asked === undefined ? null : [asked];
  if (asked === undefined) return key.servers;
  requireServer(key, asked, 'read');
  return [asked];
}
