import { CHANGE_CHANNEL, type Change, type ChangeBus, type StoredValues } from '#src/cache/bus.ts';
import { isDatabaseUnavailable } from '#src/db/availability.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { unavailable } from '#src/errors.ts';
import { sqlState } from '#src/lib/pg-errors.ts';
import { isGameStatistic } from '#src/modules/stats/game-catalog.ts';
import type { LeaderWatch, WrittenValue } from '#src/modules/webhooks/leaders.ts';
import type { Outbox } from '#src/modules/webhooks/outbox.ts';
import * as repo from './repo.ts';

/** One accepted batch, checked and ready to write. */
export interface IngestItem {
  workspaceId: string;
  seasonId: string;
  serverId: string;
  /** `username` null: the player keeps the name it has (a new one is called `unknown`). */
  player: { uuid: string; username: string | null };
  /** Null: values without a game session (a server's upload through `POST /ingest/server`, or a reviewed value
   * stored by an admin): presence comes apart. */
  sessionId: string | null;
  observedAt: Date;
  /** Values the server vouches for: also kept in `verified_stats`, in the same transaction. */
  verified?: boolean;
  client: { modVersion: string; gameVersion: string; loaderVersion: string | null };
  stats: { key: string; value: number }[];
  events: { id: string; type: string; occurredAt: string; payload: unknown }[];
  /** From a client upload: statistics it creates count against the workspace's daily limit of new ones. */
  fromClient?: boolean;
}

interface Pending {
  item: IngestItem;
  bytes: number;
  /** Answered (committed, failed, or past its deadline): later outcomes are ignored. */
  settled: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** How much may wait for the writer, and how long one batch may wait for its commit. */
export interface WriterLimits {
  /** Batches queued (not yet being written); beyond it `submit` answers 503. */
  maxBatches: number;
  /** Bytes (the request bodies' sizes) queued. */
  maxBytes: number;
  /** A batch not committed after this long is answered 503 (its write, if started, may still commit). */
  deadlineMs: number;
  /** Records history points with the values (HISTORY_ENABLED; default true). */
  history?: boolean;
}

const UNBOUNDED: WriterLimits = {
  maxBatches: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  deadlineMs: 0,
  history: true,
};

/** The webhook events ingest produces: new players (always, in SQL) and new leaders (where subscribed). */
export interface IngestHooks {
  leaders: LeaderWatch;
  outbox: Outbox;
}

/** Statistic definition ids by workspace, then key. */
type DefinitionIds = Map<string, Map<string, string>>;

function remember(ids: DefinitionIds, workspaceId: string, key: string, id: string): void {
  let known = ids.get(workspaceId);
  if (!known) {
    known = new Map();
    ids.set(workspaceId, known);
  }
  known.set(key, id);
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock
/** When an unnamed player's name was observed: never, so any real name wins (as the importer does). */
const NO_NAME_AT = new Date('0001-01-01T00:00:00Z');
/** A group stops growing past this many stat rows (5 full batches of 500, or 250 mod-sized ones of 20). */
const MAX_GROUP_ROWS = 5_000;
const MAX_GROUP_ITEMS = 256;

/**
 * Group commit. Each batch is answered only after the transaction that holds it has committed. While all
 * write slots are busy, batches that arrive wait and are then written together in one transaction with one
 * statement per table, which is what lets throughput approach the database's raw upsert ceiling. If a group
 * fails, each of its batches is retried alone, so one bad batch never fails the others; if it failed because the
 * database is unavailable, every batch of it is answered at once (503, to be retried by the client).
 *
 * Memory and waiting are bounded whatever the database does: the queue holds at most `limits.maxBatches` batches
 * and `limits.maxBytes` bytes, and a batch is answered 503 once `limits.deadlineMs` has passed without its commit.
 */
export class IngestWriter {
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  private running = 0;
  /** Definition ids seen in committed transactions, by workspace and key: definitions are never deleted. */
  private readonly definitionIds: DefinitionIds = new Map();
  /**
   * A writer on the database itself (not inside a transaction): its commit is its own, so this process's caches
   * may be told exactly what it stored (`stored` of its value changes).
   */
  private readonly ownCommit: boolean;

  constructor(
    private readonly db: Db,
    private readonly bus: ChangeBus,
    private readonly slots: number,
    private readonly limits: WriterLimits = UNBOUNDED,
    private readonly hooks: IngestHooks | null = null,
  ) {
    this.ownCommit = db.afterCommit === undefined;
  }

  /** Resolves once `item` is committed. `bytes`: its size as received, counted against the queue's bound. */
  submit(item: IngestItem, bytes = 0): Promise<void> {
    if (this.queue.length >= this.limits.maxBatches || this.queuedBytes + bytes > this.limits.maxBytes) {
      return Promise.reject(unavailable('The service has more uploads waiting than it holds; retry later.'));
    }
    return new Promise((resolve, reject) => {
      const p: Pending = {
        item,
        bytes,
        settled: false,
        timer: undefined,
        resolve: () => {
          if (p.settled) return;
          p.settled = true;
          clearTimeout(p.timer);
          resolve();
        },
        reject: (err) => {
          if (p.settled) return;
          p.settled = true;
          clearTimeout(p.timer);
          reject(err);
        },
      };
      if (this.limits.deadlineMs > 0) p.timer = setTimeout(() => this.expire(p), this.limits.deadlineMs);
      this.queue.push(p);
      this.queuedBytes += bytes;
      this.pump();
    });
  }

  /** Batches waiting for a write slot. */
  get queued(): number {
    return this.queue.length;
  }

  private expire(p: Pending): void {
    const at = this.queue.indexOf(p);
    if (at >= 0) {
      this.queue.splice(at, 1);
      this.queuedBytes -= p.bytes;
    }
    p.reject(unavailable('The database did not confirm the write in time; retry later.'));
  }

  private pump(): void {
    while (this.running < this.slots && this.queue.length > 0) {
      const group: Pending[] = [];
      let rows = 0;
      while (this.queue.length > 0 && group.length < MAX_GROUP_ITEMS) {
        const next = this.queue[0]!;
        if (group.length > 0 && rows + next.item.stats.length > MAX_GROUP_ROWS) break;
        rows += next.item.stats.length;
        this.queuedBytes -= next.bytes;
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
      if (group.length === 1 || isDatabaseUnavailable(err)) {
        for (const p of group) p.reject(err);
        return;
      }
      for (const p of group) {
        if (p.settled) continue;
        try {
          await this.writeWithRetry([p.item]);
          p.resolve();
        } catch (e) {
          p.reject(e);
          if (isDatabaseUnavailable(e)) for (const rest of group) rest.reject(e);
        }
      }
    }
  }

  private async writeWithRetry(items: IngestItem[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      // Ids of definitions this attempt created or found; kept only once it has committed.
      const learned: DefinitionIds = new Map();
      let verifiedRows: repo.VerifiedRow[] = [];
      try {
        const missing = this.missingDefinitions(items);
        const verified = items.some((it) => it.verified === true);
        // The steady state is one statement (atomic on its own). Only a group that brings statistic keys seen
        // for the first time, or verified values, needs a transaction: definitions first, then the same
        // statement, then the verified values.
        const changes =
          missing.length === 0 && !verified
            ? await this.writeRows(this.db, items, learned)
            : await this.db.transaction(async (tx) => {
                if (missing.length > 0) {
                  const found = await repo.ensureDefinitions(
                    tx,
                    missing.map((m) => m.w),
                    missing.map((m) => m.k),
                    missing.map((m) => m.client),
                  );
                  for (const d of found) remember(learned, d.workspace_id, d.key, d.id);
                }
                const written = await this.writeRows(tx, items, learned);
                if (verified) {
                  verifiedRows = this.verifiedRows(items, learned);
                  await repo.upsertVerified(tx, verifiedRows);
                }
                return written;
              });
        for (const [w, ids] of learned) for (const [k, id] of ids) remember(this.definitionIds, w, k, id);
        changes.committed();
        // After the commit and before any batch of the group is answered: a client that reads right after its
        // 200 sees its own values.
        // Values were already announced to other instances by the statement itself (pg_notify, at commit).
        // The screening memory follows what was stored, where this writer's commit is its own.
        for (const c of changes.notified) {
          this.bus.applyLocal(this.ownCommit && changes.at !== null ? withStored(c, items, changes, verifiedRows) : c);
        }
        await Promise.all(changes.toPublish.map((c) => this.bus.publish(c)));
        // Keys this process had not seen may be new definitions: lists of definitions read them again.
        const grown = new Set(missing.map((m) => m.w));
        await Promise.all(
          [...grown].map((workspaceId) => this.bus.publish({ topic: 'definition', workspaceId, added: true })),
        );
        return;
      } catch (err) {
        if (attempt >= 4 || !RETRYABLE.has(sqlState(err) ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));
      }
    }
  }

  /**
   * The verified values of a group, one per (season, server, statistic, player): the latest observation wins.
   */
  private verifiedRows(items: IngestItem[], learned: DefinitionIds): repo.VerifiedRow[] {
    const rows = new Map<string, repo.VerifiedRow & { at: Date }>();
    for (const it of items) {
      if (it.verified !== true) continue;
      for (const s of it.stats) {
        const statId = this.definitionIds.get(it.workspaceId)?.get(s.key) ?? learned.get(it.workspaceId)?.get(s.key);
        if (statId === undefined) throw new Error(`statistic definition '${s.key}' was not ensured`);
        const k = `${it.workspaceId}/${it.player.uuid}/${it.seasonId}/${it.serverId}/${statId}`;
        const prev = rows.get(k);
        if (!prev || it.observedAt >= prev.at) {
          rows.set(k, {
            workspaceId: it.workspaceId,
            uuid: it.player.uuid,
            seasonId: it.seasonId,
            serverId: it.serverId,
            statId,
            value: s.value,
            at: it.observedAt,
          });
        }
      }
    }
    return [...rows.values()];
  }

  /** Statistic keys of the group not seen in an earlier committed write (definitions are never deleted). */
  private missingDefinitions(items: IngestItem[]): { w: string; k: string; client: boolean }[] {
    const missing = new Map<string, { w: string; k: string; client: boolean }>();
    for (const it of items) {
      const known = this.definitionIds.get(it.workspaceId);
      for (const s of it.stats) {
        if (known?.has(s.key)) continue;
        const dk = `${it.workspaceId}/${s.key}`;
        const m = missing.get(dk);
        if (!m)
          missing.set(dk, { w: it.workspaceId, k: s.key, client: it.fromClient === true && !isGameStatistic(s.key) });
        else if (it.fromClient !== true) m.client = false;
      }
    }
    return [...missing.values()];
  }

  /**
   * De-duplicates a group (one row per player, value, session and event; the latest observation wins, the
   * first event wins) and writes it with one statement. Returns what the caches must forget.
   */
  private async writeRows(
    db: Queryable,
    items: IngestItem[],
    learned: DefinitionIds,
  ): Promise<{
    notified: Change[];
    toPublish: Change[];
    committed: () => void;
    /** The values written (one per key) and the statement's `now()` (null: nothing written). */
    stats: repo.GroupRows['stats'];
    at: number | null;
  }> {
    const defId = (w: string, k: string) => {
      const id = this.definitionIds.get(w)?.get(k) ?? learned.get(w)?.get(k);
      // Every key was known or ensured before this runs.
      if (id === undefined) throw new Error(`statistic definition '${k}' was not ensured`);
      return id;
    };
    // Players, latest observation first; then their 1-based places in (workspace, uuid) order.
    const players = new Map<string, repo.PlayerUpsert>();
    const playerKeys: string[] = [];
    for (const it of items) {
      const pk = `${it.workspaceId}/${it.player.uuid}`;
      playerKeys.push(pk);
      const prev = players.get(pk);
      const namedAt = it.player.username === null ? NO_NAME_AT : it.observedAt;
      if (!prev || namedAt >= prev.observedAt) {
        players.set(pk, {
          workspaceId: it.workspaceId,
          uuid: it.player.uuid,
          username: it.player.username ?? 'unknown',
          observedAt: namedAt,
        });
      }
    }
    const sortedKeys = [...players.keys()].sort();
    const place = new Map(sortedKeys.map((k, i) => [k, i + 1]));

    // Values: per player, the latest observation of each (season, server, statistic) wins.
    const itemRows: repo.GroupRows['items'] = [];
    const latest = new Map<number, Map<string, { item: number; statId: string; value: number; at: Date }>>();
    const sessions = new Map<string, repo.GroupRows['sessions'][number]>();
    const events = new Map<string, repo.GroupRows['events'][number]>();
    for (const [i, it] of items.entries()) {
      const player = place.get(playerKeys[i]!)!;
      itemRows.push({ player, seasonId: it.seasonId, serverId: it.serverId, observedAt: it.observedAt });
      let values = latest.get(player);
      if (!values) {
        values = new Map();
        latest.set(player, values);
      }
      for (const s of it.stats) {
        const statId = defId(it.workspaceId, s.key);
        // Per server: two servers' values of the same statistic are both kept (and summed).
        const vk = it.seasonId + it.serverId + statId;
        const prev = values.get(vk);
        if (!prev || it.observedAt >= prev.at)
          values.set(vk, { item: i + 1, statId, value: s.value, at: it.observedAt });
      }
      if (it.sessionId !== null) {
        const sk = `${playerKeys[i]}/${it.sessionId}`;
        sessions.set(sk, {
          workspace_id: it.workspaceId,
          player_uuid: it.player.uuid,
          session_id: it.sessionId,
          server_id: it.serverId,
          season_id: it.seasonId,
          mod_version: it.client.modVersion,
          game_version: it.client.gameVersion,
          loader_version: it.client.loaderVersion,
          ended: it.events.some((e) => e.type === 'SESSION_ENDED') || sessions.get(sk)?.ended === true,
        });
        for (const e of it.events) {
          const ek = `${it.workspaceId}/${e.id}`;
          if (events.has(ek)) continue;
          events.set(ek, {
            workspace_id: it.workspaceId,
            id: e.id,
            player_uuid: it.player.uuid,
            session_id: it.sessionId,
            server_id: it.serverId,
            season_id: it.seasonId,
            type: e.type,
            occurred_at: e.occurredAt,
            payload: e.payload,
          });
        }
      }
    }
    const statRows: repo.GroupRows['stats'] = [];
    for (const values of latest.values()) {
      for (const v of values.values()) statRows.push({ item: v.item, statId: v.statId, value: v.value });
    }
    const notified = valueChanges(items, statRows);
    // Leader changes: only where a webhook listens, and only on boards where a value beats the rank 1 the writer
    // knows of (or that have none; with several servers, where a network total the statement computes beats it).
    const watched: WrittenValue[] = [];
    if (this.hooks) {
      const listening = await this.hooks.leaders.listening(
        db,
        items.map((it) => it.workspaceId),
      );
      if (listening.size > 0) {
        for (const r of statRows) {
          const it = items[r.item - 1]!;
          if (!listening.has(it.workspaceId)) continue;
          watched.push({
            workspaceId: it.workspaceId,
            seasonId: it.seasonId,
            statId: r.statId,
            playerUuid: it.player.uuid,
            value: r.value,
          });
        }
      }
    }
    const candidates = watched.length > 0 ? await this.hooks!.leaders.candidates(db, watched) : [];
    // [compact boards] The group's statistics whose changes this process's caches want with their old values.
    const moved = this.bus.detailed(statRows.map((r) => r.statId));
    const written = await repo.writeGroup(
      db,
      this.limits.history !== false,
      {
        players: sortedKeys.map((k) => players.get(k)!),
        items: itemRows,
        stats: statRows,
        sessions: [...sessions.values()],
        events: [...events.values()],
        notify: {
          channel: CHANGE_CHANNEL,
          payloads: notified.map((c) => this.bus.payloadFor(c)).filter((p): p is string => p !== null),
        },
      },
      this.hooks ? candidates : null,
      moved,
    );
    const renamed = new Map<string, string[]>();
    const grown = new Set<string>();
    for (const p of written.players) {
      if (p.renamed) renamed.set(p.workspace_id, [...(renamed.get(p.workspace_id) ?? []), p.uuid]);
      if (p.created) grown.add(p.workspace_id);
    }
    return {
      stats: statRows,
      at: written.at,
      // [compact boards] This process's own caches get the changed values too (never in a NOTIFY).
      notified: written.moves
        ? notified.map((c) => ({ ...c, moves: { xid: written.moves!.xid, stats: moved, rows: written.moves!.rows } }))
        : notified,
      toPublish: [
        ...[...renamed].map(([workspaceId, players]) => ({
          topic: 'player' as const,
          workspaceId,
          players,
          nameOnly: true,
        })),
        ...[...grown].map((workspaceId) => ({ topic: 'roster' as const, workspaceId })),
      ],
      committed: () => {
        if (!this.hooks) return;
        if (watched.length > 0) this.hooks.leaders.settle(watched, candidates, written);
        if (written.messages > 0) this.hooks.outbox.stored();
      },
    };
  }
}

/** Which cached reads a group's values may change: (season, stat) pairs and players, per workspace. */
function valueChanges(items: IngestItem[], stats: repo.GroupRows['stats']): Change[] {
  const byWorkspace = new Map<string, { pairs: Map<string, [string, string]>; players: Set<string> }>();
  for (const r of stats) {
    const it = items[r.item - 1]!;
    let entry = byWorkspace.get(it.workspaceId);
    if (!entry) {
      entry = { pairs: new Map(), players: new Set() };
      byWorkspace.set(it.workspaceId, entry);
    }
    entry.pairs.set(it.seasonId + r.statId, [it.seasonId, r.statId]);
    entry.players.add(it.player.uuid);
  }
  return [...byWorkspace].map(([workspaceId, e]) => ({
    topic: 'values' as const,
    workspaceId,
    pairs: [...e.pairs.values()],
    players: [...e.players],
  }));
}

/**
 * A value change of a committed write, with what it offered each player's server values and verified values of
 * its workspace (`stored`): for this process's own caches only (never in a NOTIFY).
 */
function withStored(
  change: Change,
  items: IngestItem[],
  written: { stats: repo.GroupRows['stats']; at: number | null },
  verified: readonly repo.VerifiedRow[],
): Change {
  if (change.topic !== 'values' || written.at === null) return change;
  const values: [string, string, string, string, number, number][] = [];
  for (const r of written.stats) {
    const it = items[r.item - 1]!;
    if (it.workspaceId !== change.workspaceId) continue;
    values.push([it.seasonId, it.serverId, r.statId, it.player.uuid, r.value, it.observedAt.getTime()]);
  }
  const stored: StoredValues = {
    at: written.at,
    values,
    verified: verified
      .filter((v) => v.workspaceId === change.workspaceId)
      .map((v) => [v.seasonId, v.serverId, v.statId, v.uuid, v.value]),
  };
  return { ...change, stored };
}
