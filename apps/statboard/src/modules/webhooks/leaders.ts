import type { ChangeBus } from '#src/cache/bus.ts';
import type { Queryable } from '#src/db/types.ts';
import * as repo from './repo.ts';
import type { WebhookSubscriptions } from './subscriptions.ts';

/** One value a group writes: where, whose and how much. */
export interface WrittenValue {
  workspaceId: string;
  seasonId: string;
  statId: string;
  playerUuid: string;
  value: number;
}

/**
 * A board (season, statistic) where a value of the group may make a new rank 1: the write statement decides, and
 * names the player (`repo.leaderOutbox`).
 */
export interface LeaderCandidate {
  workspaceId: string;
  seasonId: string;
  statId: string;
  /**
   * The rank-1 value the writer knows of (in the season's scoring: value or gain): the statement reads the board's
   * rank 1 only when a network total it writes beats it. Null: the board has no leader the writer knows of, and
   * its rank 1 is always read.
   */
  bound: number | null;
  /** The known rank-1 player's game UUID (null: none): the statement returns its new total if it writes one. */
  leader: string | null;
}

/** A board's new rank 1, as the write statement found it. */
export interface NewLeader {
  /** Season id + statistic id. */
  board: string;
  uuid: string;
  value: number;
}

/** What the write statement found on the candidate boards (`repo.leaderOutbox`). */
export interface LeaderOutcome {
  /** The boards' new rank 1s. */
  leaders: readonly NewLeader[];
  /**
   * Boards (season id + statistic id) whose rank 1 the statement read, with or without a new leader, and that rank
   * 1 as it was before the statement (uuid null: none).
   */
  checked: readonly { board: string; uuid: string | null; value: number | null }[];
  /** The known leaders' new network totals, on the boards where the statement wrote one. */
  held: readonly { board: string; value: number }[];
}

/** What the writer knows of a board's rank 1. */
interface Known {
  workspaceId: string;
  order: 'asc' | 'desc';
  /** The statistic is public and the season active: only then can the board have a leader change. */
  watched: boolean;
  /** The rank-1 player's game UUID and value; null: the board has no public player's value. */
  leader: string | null;
  value: number;
  /**
   * The workspace has several servers: a written value is one server's part of the network total, which only the
   * statement knows, so every value makes the board a candidate, bounded by `value`: the statement compares the
   * totals it writes with it, and reads the rank 1 only for one that beats it.
   */
  partial: boolean;
}

/** Boards remembered at most (about 100 bytes each); past it the oldest are forgotten and read again on use. */
const MAX_BOARDS = 200_000;

/**
 * `leaderboard.leader_changed` from what the ingest writer already knows. For each board (season, statistic) of a
 * workspace with a subscribed webhook, the writer remembers its rank-1 player and value, read once from the
 * leaderboard index when the board is first written to. A value that beats it, or any value on a board without a
 * leader (a new statistic, a new season, or one with hidden players' values only), makes the board a candidate,
 * checked by the same statement that writes it (against the committed leaderboard, so another instance's writes
 * and hidden players are accounted for); a batch with no candidate costs one map lookup per value and nothing in
 * SQL. With several servers, a value is one server's part of the network total: every value makes its board a
 * candidate, with the known rank-1 value as its bound, and the statement compares the new totals it computes with
 * the bound, reading the rank 1 only for a total that beats it (what the writer knows is not better than the
 * committed rank 1, so a total that does not beat it cannot beat that either; the leader's own new total comes
 * back from the statement, as one server's part says nothing of it).
 *
 * The memory heals itself: a board is read again after a candidate whose rank 1 the statement read without
 * finding a new leader, after its leader's value fell, and after any change of players' visibility, statistic
 * definitions or seasons.
 */
export class LeaderWatch {
  private readonly known = new Map<string, Known>();

  constructor(
    bus: ChangeBus,
    private readonly subscriptions: WebhookSubscriptions,
  ) {
    bus.subscribe((c) => {
      if (c === null) this.known.clear();
      else if (c.topic === 'player' || c.topic === 'definition' || c.topic === 'season' || c.topic === 'server')
        this.forget(c.workspaceId);
    });
  }

  private forget(workspaceId: string): void {
    for (const [k, v] of this.known) if (v.workspaceId === workspaceId) this.known.delete(k);
  }

  /** Of a group's values (of `listening` workspaces), the boards where they may make a new rank 1. */
  async candidates(db: Queryable, watched: readonly WrittenValue[]): Promise<LeaderCandidate[]> {
    if (watched.length === 0) return [];
    const missing = new Map<string, [string, string]>();
    for (const v of watched) {
      const k = v.seasonId + v.statId;
      if (!this.known.has(k)) missing.set(k, [v.seasonId, v.statId]);
    }
    if (missing.size > 0) await this.load(db, watched[0]!.workspaceId, [...missing.values()], watched);
    const boards = new Map<string, LeaderCandidate>();
    for (const v of watched) {
      const k = v.seasonId + v.statId;
      const known = this.known.get(k);
      if (!known?.watched || boards.has(k)) continue;
      // One server: the value is the network total, and only one that beats the leader's can take its place. A
      // board without a leader takes its first public player's value as rank 1: a change from no one.
      if (
        known.leader !== null &&
        !known.partial &&
        (known.leader === v.playerUuid || !beats(known.order, v.value, known.value))
      )
        continue;
      boards.set(k, {
        workspaceId: v.workspaceId,
        seasonId: v.seasonId,
        statId: v.statId,
        bound: known.leader === null ? null : known.value,
        leader: known.leader,
      });
    }
    return [...boards.values()];
  }

  /**
   * After the commit: the boards' new leaders are remembered; candidate boards whose rank 1 the statement read
   * without a new leader are read again when next written to unless that rank 1 was the leader the writer knew of
   * (it then keeps its place, with its committed value), and so are boards whose leader's value fell and boards
   * without a leader. A candidate whose totals did not beat its bound keeps what the writer knows; the leader's
   * new total, which the statement returns, moves its value.
   */
  settle(values: readonly WrittenValue[], candidates: readonly LeaderCandidate[], outcome: LeaderOutcome): void {
    const won = new Map(outcome.leaders.map((l) => [l.board, l]));
    const checked = new Map(outcome.checked.map((c) => [c.board, c]));
    const held = new Map(outcome.held.map((h) => [h.board, h.value]));
    for (const c of candidates) {
      const k = c.seasonId + c.statId;
      const known = this.known.get(k);
      if (!known) continue;
      const l = won.get(k);
      const read = checked.get(k);
      if (l) {
        known.leader = l.uuid;
        known.value = l.value;
        continue;
      }
      if (read) {
        // The rank 1 read is another player (another instance's, or none): read the board again. Else the
        // leader it knew of held its place: its committed value, then its new total below.
        if (read.uuid === null || read.uuid !== known.leader || read.value === null) {
          this.known.delete(k);
          continue;
        }
        known.value = read.value;
      }
      const total = held.get(k);
      if (total !== undefined && total !== known.value) this.moved(k, known, total);
    }
    for (const v of values) {
      const k = v.seasonId + v.statId;
      const known = this.known.get(k);
      if (!known) continue;
      if (known.leader === null) this.known.delete(k);
      // With several servers the value is one server's part: the leader's total came back in `held`.
      else if (!known.partial && !held.has(k) && known.leader === v.playerUuid && v.value !== known.value)
        this.moved(k, known, v.value);
    }
  }

  /** The known leader's value moved to `value`: remembered if better, else the board is read again. */
  private moved(k: string, known: Known, value: number): void {
    if (beats(known.order, value, known.value)) known.value = value;
    else this.known.delete(k);
  }

  /** Of `workspaceIds`, those with an enabled webhook subscribed to leader changes. */
  async listening(db: Queryable, workspaceIds: Iterable<string>): Promise<Set<string>> {
    const out = new Set<string>();
    for (const w of new Set(workspaceIds)) {
      const has = this.subscriptions.has(db, w, 'leaderboard.leader_changed');
      if (typeof has === 'boolean' ? has : await has) out.add(w);
    }
    return out;
  }

  private async load(
    db: Queryable,
    workspaceId: string,
    pairs: [string, string][],
    watched: readonly WrittenValue[],
  ): Promise<void> {
    const workspaceOf = new Map(watched.map((v) => [v.seasonId + v.statId, v.workspaceId]));
    const rows = await repo.leadersOf(
      db,
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
    if (this.known.size + rows.length > MAX_BOARDS) this.known.clear();
    for (const r of rows) {
      const k = r.s + r.d;
      this.known.set(k, {
        workspaceId: workspaceOf.get(k) ?? workspaceId,
        order: r.sort_order,
        watched: r.public && r.active,
        leader: r.uuid,
        value: r.value ?? 0,
        partial: r.multi,
      });
    }
  }
}

/** True when `a` ranks strictly before `b` in `order`. */
function beats(order: 'asc' | 'desc', a: number, b: number): boolean {
  return order === 'asc' ? a < b : a > b;
}
