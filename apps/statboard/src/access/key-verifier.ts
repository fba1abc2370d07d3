import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import type { AuthKey } from './auth-key.ts';
import { findVerifiableKey, touchKeys, type VerifiableKeyRow } from './repo.ts';
import type { Scope } from './scopes.ts';
import { DUMMY_DIGEST, type ParsedToken, parseToken, sameDigest, sha256Hex } from './token.ts';

const LAST_USED_FLUSH_MS = 15_000;

/** Whether a key may authenticate right now: enabled, not revoked (grace window aside), not expired. */
function usable(row: VerifiableKeyRow, now: number): boolean {
  return (
    row.enabled &&
    (row.revoked_at === null || row.revoked_at.getTime() > now) &&
    (row.expires_at === null || row.expires_at.getTime() > now)
  );
}

/** A key row with what `verify` needs, derived once per load. */
interface VerifiedRow {
  row: VerifiableKeyRow;
  /** The stored SHA-256 of the secret, hex. */
  digest: string;
  /** The request's view of the key (shared, never mutated). */
  key: AuthKey;
}

function verifiedRow(row: VerifiableKeyRow): VerifiedRow {
  return {
    row,
    digest: row.secret_hash,
    key: {
      id: row.id,
      workspaceId: row.workspace_id,
      type: row.type,
      scopes: new Set(row.scopes as Scope[]),
      players: row.player_restrictions,
      servers: row.server_restrictions,
      seasons: row.season_restrictions,
    },
  };
}

/** The key id a token names; tokens that name none look up an id no key has (the same work either way). */
function keyIdOf(parsed: ParsedToken | null): string {
  return parsed !== null && parsed.type !== 'bootstrap' ? parsed.id : '00000000-0000-0000-0000-000000000000';
}

/**
 * Verifies bearer tokens: the hot path of every key request (parse, a cached lookup, one constant-time
 * comparison), and the keys' last-use times, collected in memory and written every few seconds. Issuing and
 * changing keys is the api-keys feature's (`KeyAdminService`), which announces every change on the change bus:
 * a revoked, disabled or changed key is dropped from here at once, on every instance.
 */
export class KeyVerifier {
  /** Epoch milliseconds of the latest use, by key id, not yet written. */
  private readonly lastUsed = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly flushed: (() => void)[] = [];
  /** Counts this instance's key uses (see `uses`). */
  private useCount = 0;

  /**
   * Key rows by id (null: no such key) with what verifying needs derived once (the stored digest, the
   * request's view of the key), so that verifying a token costs no query and little work on the hot path.
   */
  private readonly rows: Cache<string, VerifiedRow | null> | null;

  constructor(
    private readonly db: Db,
    changes: Changes,
  ) {
    const rows = changes.cache<string, VerifiedRow | null>('api_key', 30_000, 20_000);
    this.rows = rows;
    changes.onChange((c) => {
      if (c === null || (c.topic === 'key' && c.ids.length === 0)) rows?.clear();
      else if (c.topic === 'key') for (const id of c.ids) rows?.delete(id);
    });
  }

  /**
   * Verifies a bearer token. Malformed tokens and unknown ids do the same lookup and the same constant-time
   * comparison as real keys, so timing does not tell them apart. Returns null for every failure. `record`: the
   * key's last use is recorded (not for a dry run).
   */
  verify(token: string, record = true): AuthKey | null | Promise<AuthKey | null> {
    const parsed = parseToken(token);
    const id = keyIdOf(parsed);
    // The hot path: the key's row is cached, and the answer comes without a promise.
    const cached = this.rows?.peek(id);
    if (cached !== undefined) return this.check(parsed, cached, record);
    return this.load(id).then((entry) => this.check(parsed, entry, record));
  }

  /** The same work whether or not the key exists: one digest and one constant-time comparison. */
  private check(parsed: ParsedToken | null, entry: VerifiedRow | null, record: boolean): AuthKey | null {
    const matches = sameDigest(sha256Hex(parsed?.secret ?? ''), entry?.digest ?? DUMMY_DIGEST);
    if (!matches || !entry || !parsed || entry.row.type !== parsed.type) return null;
    const now = Date.now();
    if (!usable(entry.row, now)) return null;
    if (record) this.markUsed(entry.row.id, now);
    return entry.key;
  }

  private async load(id: string): Promise<VerifiedRow | null> {
    const read = async () => {
      const row = await findVerifiableKey(this.db, id);
      return row ? verifiedRow(row) : null;
    };
    return this.rows ? this.rows.get(id, read) : read();
  }

  /** The latest use of a key on this instance not yet written (epoch milliseconds), if any. */
  pendingUse(id: string): number | undefined {
    return this.lastUsed.get(id);
  }

  /** How many key uses this instance has seen: an answer made before a use no longer shows every use. */
  get uses(): number {
    return this.useCount;
  }

  /** Calls `fn` after the collected last-use times are written (what was kept of them is stale from then on). */
  onFlushed(fn: () => void): void {
    this.flushed.push(fn);
  }

  /** last_used_at is collected in memory and written in one statement every few seconds, not per request. */
  private markUsed(id: string, at: number): void {
    this.lastUsed.set(id, at);
    this.useCount++;
    if (this.flushTimer === null) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        this.flushLastUsed().catch(() => undefined);
      }, LAST_USED_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  async flushLastUsed(): Promise<void> {
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.lastUsed.size === 0) return;
    const entries = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    await touchKeys(
      this.db,
      entries.map((e) => e[0]),
      entries.map((e) => new Date(e[1])),
    );
    for (const fn of this.flushed) fn();
  }
}
