import type { Change } from '#src/cache/bus.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { sqlState } from '#src/lib/pg-errors.ts';
import * as repo from './repo.ts';

/** One accepted batch, checked and ready to write. */
export interface IngestItem {
  workspaceId: string;
  seasonId: string;
  serverId: string;
  player: { uuid: string; username: string };
  sessionId: string;
  observedAt: Date;
  client: { modVersion: string; gameVersion: string; loaderVersion: string | null };
  stats: { key: string; value: number }[];
  events: { id: string; type: string; occurredAt: string; payload: unknown }[];
}

interface Pending {
  item: IngestItem;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock
/** A group stops growing past this many stat rows (5 full batches of 500, or 250 mod-sized ones of 20). */
const MAX_GROUP_ROWS = 5_000;
const MAX_GROUP_ITEMS = 256;

/**
 * Group commit. Each batch is answered only after the transaction that holds it has committed. While all
 * write slots are busy, batches that arrive wait and are then written together in one transaction with one
 * statement per table, which is what lets throughput approach the database's raw upsert ceiling. If a group
 * fails, each of its batches is retried alone, so one bad batch never fails the others.
 */
export class IngestWriter {
  private readonly queue: Pending[] = [];
  private running = 0;
  /** Definition ids seen in committed transactions: definitions are never deleted. */
  private readonly definitionIds = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly slots: number,
  ) {}

  submit(item: IngestItem): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.slots && this.queue.length > 0) {
      const group: Pending[] = [];
      let rows = 0;
      while (this.queue.length > 0 && group.length < MAX_GROUP_ITEMS) {
        const next = this.queue[0]!;
        if (group.length > 0 && rows + next.item.stats.length > MAX_GROUP_ROWS) break;
        rows += next.item.stats.length;
        group.push(this.queue.shift()!);
      }
      this.running++;
      void this.flush(group).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async flush(group: Pending[]): Promise<void> {
    try {
      await this.writeWithRetry(group.map((p) => p.item));
      for (const p of group) p.resolve();
    } catch (err) {
      if (group.length === 1) {
        group[0]!.reject(err);
        return;
      }
      for (const p of group) {
        try {
          await this.writeWithRetry([p.item]);
          p.resolve();
        } catch (e) {
          p.reject(e);
        }
      }
    }
  }

  private async writeWithRetry(items: IngestItem[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const learned = new Map<string, string>();
      try {
        const changes: Change[] = [];
        await this.db.transaction((tx) => this.write(tx, items, learned, changes));
        for (const [k, v] of learned) this.definitionIds.set(k, v);
        // After COMMIT and before any batch of the group is answered: a client that reads right after its
        // 200 sees its own values.
        if (this.db.changes) await Promise.all(changes.map((c) => this.db.changes!.publish(c)));
        return;
      } catch (err) {
        if (attempt >= 4 || !RETRYABLE.has(sqlState(err) ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));
      }
    }
  }

  /** Writes a group in one transaction: players, definitions (first sight only), values, sessions, events. */
  private async write(
    tx: Queryable,
    items: IngestItem[],
    learned: Map<string, string>,
    changes: Change[],
  ): Promise<void> {
    // Players: one row per (workspace, uuid), the latest observation's username. Sorted for a stable lock order.
    const players = new Map<string, repo.PlayerUpsert>();
    for (const it of items) {
      const k = `${it.workspaceId}/${it.player.uuid}`;
      const prev = players.get(k);
      if (!prev || it.observedAt >= prev.observedAt) {
        players.set(k, {
          workspaceId: it.workspaceId,
          uuid: it.player.uuid,
          username: it.player.username,
          observedAt: it.observedAt,
        });
      }
    }
    const playerRows = [...players.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]);
    const playerIds = new Map<string, string>();
    const renamedIn = new Set<string>();
    for (const r of await repo.upsertPlayers(tx, playerRows)) {
      playerIds.set(`${r.workspace_id}/${r.uuid}`, r.id);
      if (r.renamed) renamedIn.add(r.workspace_id);
    }
    for (const workspaceId of renamedIn) changes.push({ topic: 'player', workspaceId });

    // Definitions: only keys not seen in an earlier committed transaction go to the database.
    const missing = new Map<string, { w: string; k: string }>();
    for (const it of items) {
      for (const s of it.stats) {
        const dk = `${it.workspaceId}/${s.key}`;
        if (!this.definitionIds.has(dk)) missing.set(dk, { w: it.workspaceId, k: s.key });
      }
    }
    if (missing.size > 0) {
      const list = [...missing.values()];
      const found = await repo.ensureDefinitions(
        tx,
        list.map((m) => m.w),
        list.map((m) => m.k),
      );
      for (const d of found) learned.set(`${d.workspace_id}/${d.key}`, d.id);
    }
    const defId = (w: string, k: string) => learned.get(`${w}/${k}`) ?? this.definitionIds.get(`${w}/${k}`)!;

    // Values: one row per (season, stat, player), the latest observation wins inside the group too.
    const stats = new Map<string, repo.StatUpsert>();
    for (const it of items) {
      const playerId = playerIds.get(`${it.workspaceId}/${it.player.uuid}`)!;
      for (const s of it.stats) {
        const statId = defId(it.workspaceId, s.key);
        const k = `${it.seasonId}/${statId}/${playerId}`;
        const prev = stats.get(k);
        if (!prev || it.observedAt >= prev.observedAt) {
          stats.set(k, { seasonId: it.seasonId, statId, playerId, value: s.value, observedAt: it.observedAt });
        }
      }
    }
    if (stats.size > 0) {
      const rows = [...stats.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]);
      await repo.upsertStats(tx, rows);
      changes.push(...valueChanges(items, rows, playerIds));
    }

    // Sessions: every batch is a heartbeat; SESSION_ENDED closes.
    const sessions = new Map<string, repo.SessionUpsert>();
    for (const it of items) {
      const playerId = playerIds.get(`${it.workspaceId}/${it.player.uuid}`)!;
      const k = `${playerId}/${it.sessionId}`;
      const ended = it.events.some((e) => e.type === 'SESSION_ENDED') || sessions.get(k)?.ended === true;
      sessions.set(k, {
        workspace_id: it.workspaceId,
        player_id: playerId,
        session_id: it.sessionId,
        server_id: it.serverId,
        season_id: it.seasonId,
        mod_version: it.client.modVersion,
        game_version: it.client.gameVersion,
        loader_version: it.client.loaderVersion,
        ended,
      });
    }
    await repo.upsertSessions(
      tx,
      [...sessions.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]),
    );

    // Events: first write wins, inside the group as in the table.
    const events = new Map<string, repo.EventInsert>();
    for (const it of items) {
      const playerId = playerIds.get(`${it.workspaceId}/${it.player.uuid}`)!;
      for (const e of it.events) {
        const k = `${it.workspaceId}/${e.id}`;
        if (events.has(k)) continue;
        events.set(k, {
          workspace_id: it.workspaceId,
          id: e.id,
          player_id: playerId,
          session_id: it.sessionId,
          server_id: it.serverId,
          season_id: it.seasonId,
          type: e.type,
          occurred_at: e.occurredAt,
          payload: e.payload,
        });
      }
    }
    if (events.size > 0) await repo.insertEvents(tx, [...events.values()]);
  }
}

/** Which cached reads a group's values may change: (season, stat) pairs and players, per workspace. */
function valueChanges(items: IngestItem[], rows: repo.StatUpsert[], playerIds: Map<string, string>): Change[] {
  const workspaceOfPlayer = new Map<string, string>();
  for (const it of items) workspaceOfPlayer.set(playerIds.get(`${it.workspaceId}/${it.player.uuid}`)!, it.workspaceId);
  const byWorkspace = new Map<string, { pairs: Map<string, [string, string]>; players: Set<string> }>();
  for (const r of rows) {
    const w = workspaceOfPlayer.get(r.playerId)!;
    let entry = byWorkspace.get(w);
    if (!entry) {
      entry = { pairs: new Map(), players: new Set() };
      byWorkspace.set(w, entry);
    }
    entry.pairs.set(`${r.seasonId}/${r.statId}`, [r.seasonId, r.statId]);
    entry.players.add(r.playerId);
  }
  return [...byWorkspace].map(([workspaceId, e]) => ({
    topic: 'values' as const,
    workspaceId,
    pairs: [...e.pairs.values()],
    players: [...e.players],
  }));
}
