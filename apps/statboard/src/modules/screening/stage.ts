import type { Db, Queryable } from '#src/db/types.ts';
import { DAY_MS, HOUR_MS } from '#src/lib/time-buckets.ts';
import type { Metrics } from '#src/metrics/metrics.ts';
import { isGameStatistic } from '#src/modules/stats/game-catalog.ts';
import type { Outbox } from '#src/modules/webhooks/outbox.ts';
import type { ScreeningMemory } from './memory.ts';
import * as repo from './repo.ts';
import {
  type Arrived,
  type BoardTop,
  FIRST_SIGHT_MIN_PLAYERS,
  FIRST_SIGHT_TOP,
  firstGain,
  type PlayerFacts,
  renameHeld,
  screenValue,
  type ValueFacts,
} from './rules.ts';

/** A client key sending values for more distinct players than this in an hour is shown as shared or leaked. */
export const PLAYERS_PER_KEY_HOUR = 100;

/** A client upload, checked and about to be written. */
export interface ScreenInput {
  workspaceId: string;
  seasonId: string;
  serverId: string;
  keyId: string;
  uuid: string;
  username: string;
  observedAt: Date;
  stats: readonly { key: string; value: number }[];
  /** The season's scoring: in a season that counts gains, boards rank gains (default `absolute`). */
  scoring?: 'absolute' | 'gains';
}

/** What of the upload is written: values and username; what is held and dropped is kept or counted elsewhere. */
export interface Screened {
  stats: { key: string; value: number }[];
  username: string;
  /** Values (and a username) held for review, by rule. */
  held: repo.HeldRow[];
  /** Keys of new statistics past the day's limit: their values are dropped. */
  dropped: string[];
  /** This upload made its key cross PLAYERS_PER_KEY_HOUR distinct players in the hour. */
  sharedKey: boolean;
}

const toArrived = (v: { value: number; at: number } | undefined): Arrived | null =>
  v === undefined ? null : { value: v.value, at: v.at };
const iso = (ms: number | Date) => new Date(ms).toISOString();

/**
 * The screening stage of ingest (parse → authorize → **screen** → write) for client uploads: it decides, by the
 * rules of `rules.ts`, which values are held for review instead of stored, which new statistics are past the day's
 * limit, and whether the key is shared; and records what it held in the review queue. Imports, the agent and
 * admins never pass here.
 */
export class ScreeningStage {
  /** Distinct players per client key in the current hour (counted up to the warning, then only flagged). */
  private readonly keyPlayers = new Map<string, { since: number; players: Set<string>; warned: boolean }>();

  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox | null,
    private readonly metrics: Metrics | null,
    /** New statistics client uploads may create a day (UTC) per workspace; 0: no limit. */
    private readonly newStatsPerDay: number,
    private readonly now: () => number = Date.now,
    /** What was read of known players, kept so that their next uploads read nothing (null: every upload reads). */
    readonly memory: ScreeningMemory | null = null,
  ) {}

  async screen(input: ScreenInput): Promise<Screened> {
    const now = this.now();
    const sharedKey = this.countPlayer(input.keyId, input.uuid, now);
    const keys = input.stats.map((s) => s.key);
    const ctx =
      this.memory?.recall(input.workspaceId, input.seasonId, input.serverId, input.uuid, keys) ??
      (await this.context(input, keys));

    // New statistics past the day's limit: dropped (only what the workspace does not define yet counts, and not
    // the game's own statistics, which the mod sends all of in a player's first session: only invented keys).
    const fresh = keys.filter((k) => !ctx.definitions.has(k) && !isGameStatistic(k));
    let dropped: string[] = [];
    if (fresh.length > 0 && this.newStatsPerDay > 0) {
      const since = new Date(Math.floor(now / DAY_MS) * DAY_MS);
      const made = await repo.clientDefinitionsSince(this.db, input.workspaceId, since);
      dropped = fresh.slice(Math.max(0, this.newStatsPerDay - made));
    }
    const droppedSet = new Set(dropped);

    const held: repo.HeldRow[] = [];
    const stats: { key: string; value: number }[] = [];
    const player = ctx.player;
    let username = input.username;
    if (
      player &&
      renameHeld(
        { username: player.username, changedAt: player.username_changed_at?.getTime() ?? null },
        input.username,
        now,
      )
    ) {
      username = player.username;
      held.push({
        stat: '',
        season_id: input.seasonId,
        rule: 'rename',
        previous_value: null,
        previous_username: player.username,
        previous_at: player.username_changed_at ? iso(player.username_changed_at) : null,
        value: null,
        username: input.username,
        observed_at: iso(input.observedAt),
        received_at: iso(now),
        allowed: null,
      });
    }

    const defined = input.stats.filter((s) => ctx.definitions.has(s.key));
    const last = ctx.last;
    const facts: PlayerFacts = {
      serverVerified: ctx.serverVerified,
      firstSight: player === null || !ctx.hasStored,
    };
    // Boards are read only for a newcomer, and only those of public statistics. In a season that counts gains the
    // boards rank gains, and a newcomer's value enters them as the gain it would count.
    const boards = new Map<string, BoardTop>();
    const gains = input.scoring === 'gains';
    let priors = new Map<string, number>();
    if (facts.firstSight) {
      const watched = defined.map((s) => ctx.definitions.get(s.key)!).filter((d) => d.public);
      if (watched.length > 0) {
        const rows = await repo.boardTops(
          this.db,
          input.seasonId,
          watched.map((d) => ({ id: d.id, order: d.sort_order })),
          FIRST_SIGHT_MIN_PLAYERS,
          FIRST_SIGHT_TOP,
          gains ? 'gain' : 'value',
        );
        if (gains && player !== null) {
          priors = await repo.priorValues(
            this.db,
            input.seasonId,
            input.serverId,
            player.id,
            watched.map((d) => d.id),
          );
        }
        const order = new Map(watched.map((d) => [d.id, d.sort_order]));
        for (const r of rows) {
          boards.set(r.stat_id, { players: r.players, tenth: r.tenth, order: order.get(r.stat_id) ?? 'desc' });
        }
      }
    }

    for (const s of input.stats) {
      if (droppedSet.has(s.key)) continue;
      const d = ctx.definitions.get(s.key);
      if (!d) {
        stats.push(s);
        continue;
      }
      const f: ValueFacts = {
        value: s.value,
        maxPerHour: d.max_per_hour,
        last: toArrived(last.get(d.id)),
        verified: toArrived(ctx.verified.get(d.id)),
        board: boards.get(d.id) ?? null,
        ...(gains ? { ranked: firstGain(s.value, priors.get(d.id) ?? null) } : {}),
      };
      const h = screenValue(f, facts, now);
      if (h === null) {
        stats.push(s);
        continue;
      }
      held.push({
        stat: s.key,
        season_id: input.seasonId,
        rule: h.rule,
        previous_value: h.previous?.value ?? null,
        previous_username: null,
        previous_at: h.previous ? iso(h.previous.at) : null,
        value: s.value,
        username: null,
        observed_at: iso(input.observedAt),
        received_at: iso(now),
        allowed: h.allowed,
      });
    }
    return { stats, username, held, dropped, sharedKey };
  }

  /** The facts screening needs, read (one statement), and kept in memory where there is one. */
  private context(input: ScreenInput, keys: readonly string[]): Promise<repo.ScreeningContext> {
    const read = () =>
      repo.screeningContext(this.db, input.workspaceId, input.seasonId, input.serverId, input.uuid, keys);
    return this.memory ? this.memory.read(input.workspaceId, input.seasonId, input.serverId, input.uuid, read) : read();
  }

  /**
   * Puts held values into the open review item of (server, player), opening one (and announcing it: `ingest.held`)
   * if there is none; counts them by rule.
   */
  async record(input: ScreenInput, held: readonly repo.HeldRow[]): Promise<void> {
    if (held.length === 0) return;
    await this.db.transaction(async (tx: Queryable) => {
      const item = await repo.recordHeld(
        tx,
        {
          workspaceId: input.workspaceId,
          serverId: input.serverId,
          playerUuid: input.uuid,
          username: input.username,
          keyId: input.keyId,
        },
        held,
      );
      if (item.created) {
        await this.outbox?.add(tx, input.workspaceId, 'ingest.held', {
          review: { id: item.id },
          player: { uuid: input.uuid, username: input.username },
          server: { id: input.serverId },
          values: held.map((h) => ({
            stat: h.stat === '' ? null : h.stat,
            rule: h.rule,
            value: h.stat === '' ? h.username : h.value,
            allowed: h.allowed,
          })),
        });
      }
    });
    if (this.metrics) {
      const byRule = new Map<repo.HeldRow['rule'], number>();
      for (const h of held) byRule.set(h.rule, (byRule.get(h.rule) ?? 0) + 1);
      for (const [rule, n] of byRule) this.metrics.heldValues(rule, n);
    }
  }

  /** Counts the player for the key's hour; true once, when the key crosses PLAYERS_PER_KEY_HOUR players. */
  private countPlayer(keyId: string, uuid: string, now: number): boolean {
    // The hour starts at the key's first player, not at the clock's turn of the hour: a burst is counted whole
    // wherever it falls.
    let k = this.keyPlayers.get(keyId);
    if (!k || now - k.since >= HOUR_MS) {
      // Keys of earlier hours are forgotten as their next upload comes; a map of keys seen this hour at most.
      if (this.keyPlayers.size > 10_000) this.keyPlayers.clear();
      k = { since: now, players: new Set(), warned: false };
      this.keyPlayers.set(keyId, k);
    }
    if (k.warned) return false;
    k.players.add(uuid);
    if (k.players.size <= PLAYERS_PER_KEY_HOUR) return false;
    k.warned = true;
    k.players.clear();
    return true;
  }
}
