import type { Actor } from '#src/access/principal.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import * as repo from './admin-repo.ts';

/** Which values `removeValues` removes: a season's, optionally of one statistic and of one server. */
export interface RemoveValuesQuery {
  /** Season id or slug. */
  season: string;
  /** Statistic key. */
  stat?: string | undefined;
  /** Server id. */
  server?: string | undefined;
}

/** A blocked player as the admin API answers it. */
export type PlayerBlock = repo.PlayerBlockRow;

/**
 * Corrections and erasure: an administrator removes a player's wrong values, an owner erases a player (and may
 * block their later uploads). Each is one transaction with its audit record; the caches and rank boards of what
 * changed follow at once (after the commit, on every instance).
 */
export class PlayerErasure {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly seasons: SeasonService,
    private readonly servers: ServerService,
  ) {}

  /** Removes a player's values of a season (and their history) → how many values went. */
  async removeValues(
    actor: Actor,
    workspaceId: string,
    ref: string,
    q: RemoveValuesQuery,
  ): Promise<{ values_removed: number }> {
    const season = await this.seasons.find(workspaceId, q.season);
    if (!season) throw new AppError('NOT_FOUND', 'Season not found.');
    if (q.server !== undefined) {
      const id = q.server.toLowerCase();
      const servers = isUuid(id) ? await this.servers.list(workspaceId) : [];
      if (!servers.some((s) => s.id === id)) throw new AppError('NOT_FOUND', 'Server not found.');
    }
    return this.db.transaction(async (tx) => {
      const player = await findPlayer(tx, workspaceId, ref);
      if (!player) throw new AppError('NOT_FOUND', 'Player not found.');
      const statId = q.stat === undefined ? null : await repo.findStatId(tx, workspaceId, q.stat);
      if (q.stat !== undefined && statId === null) throw new AppError('NOT_FOUND', 'Statistic not found.');
      const removed = await repo.removeValues(tx, {
        playerId: player.id,
        seasonId: season.id,
        statId,
        serverId: q.server?.toLowerCase() ?? null,
      });
      if (removed.values > 0 || removed.history > 0) {
        const pairs = removed.statIds.map((s): [string, string] => [season.id, s]);
        await this.changes.publish(tx, { topic: 'values', workspaceId, pairs, players: [player.uuid] });
        // Boards' leaders remembered for webhooks are read again (a leader's value may be gone).
        await this.changes.publish(tx, { topic: 'player', workspaceId, players: [player.uuid] });
      }
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'PLAYER_STATS_REMOVED',
        targetType: 'player',
        targetId: player.id,
        before: {
          uuid: player.uuid,
          username: player.username,
          season: { id: season.id, name: season.name, slug: season.slug },
          stat: q.stat ?? null,
          server: q.server?.toLowerCase() ?? null,
        },
        after: { values_removed: removed.values, history_removed: removed.history },
      });
      return { values_removed: removed.values };
    });
  }

  /**
   * Erases a player: every value, history point, session and event, and the player with their name. The audit
   * record keeps the game UUID and the counts, never the name. With `block`, later uploads for that UUID are
   * discarded until `unblock`; a UUID with no player (erased before) is then blocked all the same.
   */
  async erase(actor: Actor, workspaceId: string, ref: string, block: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      const player = await findPlayer(tx, workspaceId, ref);
      if (!player && !(block && isUuid(ref))) throw new AppError('NOT_FOUND', 'Player not found.');
      const uuid = player?.uuid ?? ref.toLowerCase();
      const counts = player ? await repo.erasePlayer(tx, player.id) : null;
      if (block) await repo.insertBlock(tx, workspaceId, uuid, actor.userId);
      await this.changes.publish(tx, { topic: 'values', workspaceId, players: [uuid] });
      await this.changes.publish(tx, { topic: 'player', workspaceId, players: [uuid] });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'PLAYER_ERASED',
        targetType: 'player',
        targetId: uuid,
        before: { uuid },
        after: { uuid, blocked: block, erased: counts },
      });
    });
  }

  /** Lets a blocked player's uploads in again (404 when the UUID is not blocked). */
  async unblock(actor: Actor, workspaceId: string, uuid: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gone = isUuid(uuid) ? await repo.deleteBlock(tx, workspaceId, uuid.toLowerCase()) : null;
      if (!gone) throw new AppError('NOT_FOUND', 'This player is not blocked.');
      await this.changes.publish(tx, { topic: 'player', workspaceId, players: [gone.uuid] });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'PLAYER_UNBLOCKED',
        targetType: 'player',
        targetId: gone.uuid,
        // Who blocked is the actor of the PLAYER_ERASED record.
        before: { uuid: gone.uuid, blocked_at: gone.blocked_at },
        after: { uuid: gone.uuid },
      });
    });
  }

  /** The workspace's blocked players, the newest block first. */
  listBlocks(workspaceId: string): Promise<PlayerBlock[]> {
    return repo.listBlocks(this.db, workspaceId);
  }
}

function findPlayer(db: Queryable, workspaceId: string, ref: string): Promise<repo.AdminPlayerRow | null> {
  return isUuid(ref) ? repo.findPlayer(db, workspaceId, ref.toLowerCase()) : Promise.resolve(null);
}
