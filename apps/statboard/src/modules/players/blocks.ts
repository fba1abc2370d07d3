import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import * as repo from './admin-repo.ts';

/** How long a workspace's blocked players are kept before they are read again (a safety net: changes drop them). */
const BLOCKS_CACHE_MS = 60_000;

/**
 * Which players of a workspace are blocked (erased with `block=true`), for ingest: each workspace's blocked game
 * UUIDs are read once and kept, so an upload costs a set lookup. A block or unblock announces a change of that
 * player (topic `player`, not a rename only), which drops the workspace's set on every instance.
 */
export class PlayerBlocks {
  private readonly sets: Cache<string, ReadonlySet<string>> | null;

  constructor(
    private readonly db: Db,
    changes: Changes,
  ) {
    const sets = changes.cache<string, ReadonlySet<string>>('player_blocks', BLOCKS_CACHE_MS, 10_000);
    this.sets = sets;
    changes.onChange((c) => {
      if (c === null) sets?.clear();
      else if (c.topic === 'player' && c.nameOnly !== true) sets?.delete(c.workspaceId);
    });
  }

  /** Whether uploads for this game UUID (lower case) are discarded; at once when the workspace's set is kept. */
  isBlocked(workspaceId: string, uuid: string): Maybe<boolean> {
    const set = this.blocked(workspaceId);
    return set instanceof Promise ? set.then((s) => s.has(uuid)) : set.has(uuid);
  }

  private blocked(workspaceId: string): Maybe<ReadonlySet<string>> {
    const read = async () => new Set((await repo.listBlocks(this.db, workspaceId)).map((b) => b.uuid));
    if (!this.sets) return read();
    return this.sets.peek(workspaceId) ?? this.sets.get(workspaceId, read);
  }
}
