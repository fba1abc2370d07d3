import type { AuthKey } from '#src/access/auth-key.ts';
import { playerFilter, restrictsPlayers, serverFilter } from '#src/access/restrictions.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { precompressed } from '#src/http/compression.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import * as repo from './repo.ts';

/** Spec: online means an open session whose last heartbeat lies within the previous two minutes. */
export const ONLINE_WINDOW_SECONDS = 120;

/**
 * How long a large `/online` answer (for keys without a player restriction) is served before it is read again:
 * with thousands online the answer is a large list (10,000 players: ~2.6 MB; ~12 ms of the service's CPU to
 * read, as the text the database writes, ~50 ms as rows to serialize) that changes with every heartbeat, and presence is itself a two-minute window of heartbeats, so two seconds
 * late is immaterial there. A rename, a visibility change or a server's change drops it at once.
 */
export const ONLINE_CACHE_MS = 2_000;

/** Answers listing fewer players are read every time (exact to the last heartbeat): they cost little. */
export const ONLINE_CACHE_MIN_PLAYERS = 1_000;

/** Bytes of `/online` answers kept (one per workspace and server filter). */
const ONLINE_CACHE_BYTES = 32 * 1024 * 1024;

export class OnlineService {
  /** The answer's JSON in UTF-8 by `workspace|server`, for keys without a player restriction. */
  private readonly answers: Cache<string, Buffer> | null;

  constructor(
    private readonly db: Db,
    changes: Changes,
  ) {
    const answers = changes.cache<string, Buffer>('online', ONLINE_CACHE_MS, 1_000, {
      max: ONLINE_CACHE_BYTES,
      sizeOf: (b) => b.length,
    });
    this.answers = answers;
    changes.onChange((c) => {
      if (!answers) return;
      if (c === null) answers.clear();
      else if (c.topic === 'player' || c.topic === 'server') {
        answers.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      }
    });
  }

  /**
   * `GET /online` as the answer's JSON in UTF-8 (`{data}`, written by the database): for a key without a player
   * restriction, the same bytes for ONLINE_CACHE_MS (at once when cached); for a restricted key, read every time
   * (its players only). `serverId`: only players whose open session is on that server (unknown or another
   * workspace's: none). A key with a server restriction reads only its servers (see {@link permittedServers}).
   */
  /**
   * A server's list of who is on it now (`POST /ingest/server`): their presence there starts or continues, and
   * everyone else's presence on that server ends (uuids lower case). Returns how many sessions started.
   */
  async setServerPresence(workspaceId: string, serverId: string, seasonId: string, uuids: readonly string[]) {
    const started = await repo.setServerPresence(this.db, {
      workspaceId,
      serverId,
      seasonId,
      uuids,
      windowSeconds: ONLINE_WINDOW_SECONDS,
    });
    this.answers?.deleteWhere((k) => k.startsWith(`${workspaceId}|`));
    return started;
  }

  json(key: AuthKey, serverId?: string): Maybe<Buffer> {
    const servers = permittedServers(key, serverId);
    const build = () =>
      repo
        .onlineJson(this.db, {
          workspaceId: key.workspaceId,
          onlyUuids: playerFilter(key),
          serverIds: servers,
          windowSeconds: ONLINE_WINDOW_SECONDS,
        })
        .then((json) => Buffer.from(json));
    if (!this.answers || restrictsPlayers(key)) return build();
    // The answer depends on the servers it covers, never on who asks: keys restricted to the same servers (and a
    // `server=` inside them) share it, and an unrestricted answer is never served to a restricted key.
    const cacheKey = `${key.workspaceId}|${servers === null ? '*' : [...servers].sort().join(',')}`;
    // A kept answer is compressed before it is served (see precompressed): browsers and `fetch` ask for gzip.
    const buildKept = () => build().then((b) => (isLarge(b) ? precompressed(b) : b));
    return this.answers.peek(cacheKey) ?? this.answers.get(cacheKey, buildKept, isLarge);
  }
}

/**
 * The server rule of `/online`: the servers whose sessions the key may list (null: all of its workspace's).
 * `server=` outside the key's server restriction is 403 (whether or not that server exists, so a restricted key
 * cannot probe for servers); without it, a restricted key lists its servers only.
 */
export function permittedServers(key: AuthKey, serverParam: string | undefined): readonly string[] | null {
  return serverFilter(key, serverParam?.toLowerCase());
}

/** Whether an answer is worth keeping: about ONLINE_CACHE_MIN_PLAYERS entries or more (~210 bytes each). */
function isLarge(answer: Buffer): boolean {
  return answer.length >= ONLINE_CACHE_MIN_PLAYERS * 200;
}
