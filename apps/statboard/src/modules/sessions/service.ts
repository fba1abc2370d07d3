import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '#src/access/principal.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Config } from '#src/config.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import * as repo from './repo.ts';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

/** A session's last-seen time is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;
/** Live sessions kept in memory (a few hundred bytes each), and for how long at most. */
const SESSION_CACHE_ENTRIES = 10_000;
const SESSION_CACHE_TTL_MS = 30_000;
/** A login must come back from the identity provider within this time. */
export const LOGIN_TTL_MS = 10 * 60_000;

function hashId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** A random identifier for a cookie: 32 bytes, base64url. */
export function randomId(): string {
  return randomBytes(32).toString('base64url');
}

const ID_RE = /^[A-Za-z0-9_-]{43}$/;

/** A live session as kept in memory: its user as the admin guards see them, and its times, checked at every use. */
interface LiveSession {
  principal: Principal;
  expiresAt: number;
  lastSeenAt: number;
}

/** The users a session signs in (the users service). */
export interface SessionUsers {
  /**
   * The user with their role in `workspaceId` when they are a member there, else in their oldest membership;
   * null when the user is gone.
   */
  principal(userId: string, workspaceId: string | null, db?: Queryable): Promise<Principal | null>;
}

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/**
 * Admin browser sessions and pending logins, both in the database so every instance sharing it sees them.
 * Cookies hold random ids; the database holds only their SHA-256. Sessions end after `sessionIdleMinutes`
 * without a request and `sessionMaxHours` after login.
 *
 * A live session is kept in memory with its user and role (the `session` cache), so that a signed-in request
 * costs no query: its expiry and idle time are checked against the kept times at every use, and it goes back
 * to the database when its last-seen time is due to be written (once a minute) or it looks idle (another
 * instance may have seen it since). A logout, or a change of a user or of a role, drops the kept sessions at
 * once here and, through the change bus, on the other instances (while the bus is down nothing is kept).
 */
export class SessionService {
  readonly idleMs: number;
  readonly maxMs: number;
  private readonly live: Cache<string, LiveSession | null> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly users: SessionUsers,
    config: Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'>,
    readonly now: Clock = Date.now,
  ) {
    this.idleMs = config.sessionIdleMinutes * 60_000;
    this.maxMs = config.sessionMaxHours * 3_600_000;
    const live = changes.cache<string, LiveSession | null>('session', SESSION_CACHE_TTL_MS, SESSION_CACHE_ENTRIES);
    this.live = live;
    changes.onChange((c) => {
      if (c === null || (c.topic === 'session' && c.ids === undefined)) live?.clear();
      else if (c.topic === 'session') for (const id of c.ids ?? []) live?.delete(id);
    });
  }

  /** Starts a session for a user; returns the cookie value (a new id at every login). */
  async create(userId: string): Promise<{ id: string; expiresAt: Date }> {
    const id = randomId();
    const at = new Date(this.now());
    const expiresAt = new Date(at.getTime() + this.maxMs);
    await repo.deleteExpired(this.db, at, new Date(at.getTime() - this.idleMs));
    await repo.insertSession(this.db, { idHash: hashId(id), userId, at, expiresAt });
    return { id, expiresAt };
  }

  /**
   * The signed-in user of a session cookie, or null (unknown, idle too long, past its absolute expiry, or its
   * user is gone): at once when the session is kept in memory and nothing is due.
   */
  signedIn(id: string | undefined): Principal | null | Promise<Principal | null> {
    if (id === undefined || !ID_RE.test(id)) return null;
    const idHash = hashId(id);
    if (!this.live) return this.load(idHash).then((s) => s?.principal ?? null);
    let kept = this.live.peek(idHash);
    if (kept && !this.usable(kept)) {
      this.live.delete(idHash);
      kept = undefined;
    }
    if (kept) return kept.principal;
    const loaded = this.live.get(
      idHash,
      () => this.load(idHash),
      (s) => s !== null,
    );
    return loaded instanceof Promise ? loaded.then((s) => s?.principal ?? null) : (loaded?.principal ?? null);
  }

  /**
   * A kept session answers only while it is live and its last-seen time need not be written. Past that, the
   * database decides: the session may have been seen on another instance (then it is not idle), and the
   * last-seen time is written there.
   */
  private usable(s: LiveSession): boolean {
    const now = this.now();
    const sinceSeen = now - s.lastSeenAt;
    return now < s.expiresAt && sinceSeen < TOUCH_EVERY_MS && sinceSeen < this.idleMs;
  }

  /** A session from the database, with its user; an ended one is deleted. Null: no live session. */
  private async load(idHash: string): Promise<LiveSession | null> {
    const row = await repo.findSession(this.db, idHash);
    if (!row) return null;
    const now = this.now();
    let lastSeenAt = row.last_seen_at.getTime();
    if (row.expires_at.getTime() <= now || lastSeenAt + this.idleMs <= now) {
      await repo.deleteSession(this.db, idHash);
      return null;
    }
    if (now - lastSeenAt >= TOUCH_EVERY_MS) {
      await repo.touchSession(this.db, idHash, new Date(now));
      lastSeenAt = now;
    }
    const principal = await this.users.principal(row.user_id, row.workspace_id);
    if (!principal) return null;
    return { principal: Object.freeze(principal), expiresAt: row.expires_at.getTime(), lastSeenAt };
  }

  /**
   * Makes the session act in another of its user's workspaces (and makes it the user's last choice, where their
   * next session starts); 404 when they are not a member there, 401 when the session has ended. The kept session
   * is dropped here and on every instance, so the next request acts in the chosen workspace. Not audited: it
   * changes no workspace's data, only where this user's requests go.
   */
  async chooseWorkspace(id: string | undefined, workspaceId: string): Promise<Principal> {
    if (id === undefined || !ID_RE.test(id)) throw new AppError('UNAUTHENTICATED');
    const idHash = hashId(id);
    return this.db.transaction(async (tx) => {
      const row = await repo.findSession(tx, idHash);
      if (!row) throw new AppError('UNAUTHENTICATED');
      const principal = await this.users.principal(row.user_id, workspaceId, tx);
      if (!principal) throw new AppError('UNAUTHENTICATED');
      if (principal.workspaceId !== workspaceId) {
        throw new AppError('NOT_FOUND', 'You are not a member of that workspace.');
      }
      await repo.chooseWorkspace(tx, idHash, row.user_id, workspaceId);
      await this.changes.publish(tx, { topic: 'session', ids: [idHash] });
      return principal;
    });
  }

  /** Ends a session (logout): here at once, on other instances through the change bus. */
  async destroy(id: string | undefined): Promise<void> {
    if (id === undefined || !ID_RE.test(id)) return;
    const idHash = hashId(id);
    await repo.deleteSession(this.db, idHash);
    await this.changes.publish(this.db, { topic: 'session', ids: [idHash] });
  }

  /** Deletes the sessions that have ended (idle or past their expiry) and the logins never finished. */
  async pruneEnded(): Promise<void> {
    const at = new Date(this.now());
    await repo.deleteExpired(this.db, at, new Date(at.getTime() - this.idleMs));
    await repo.deleteExpiredLoginStates(this.db, at);
  }

  /** Remembers a login in progress; returns the id for the login cookie. */
  async beginLogin(login: PendingLogin): Promise<string> {
    const id = randomId();
    const now = new Date(this.now());
    await repo.deleteExpiredLoginStates(this.db, now);
    await repo.insertLoginState(this.db, {
      idHash: hashId(id),
      ...login,
      expiresAt: new Date(now.getTime() + LOGIN_TTL_MS),
    });
    return id;
  }

  /** Takes a login in progress (once); null when unknown or expired. */
  async takeLogin(id: string | undefined): Promise<PendingLogin | null> {
    if (id === undefined || !ID_RE.test(id)) return null;
    const row = await repo.takeLoginState(this.db, hashId(id));
    if (!row || row.expires_at.getTime() <= this.now()) return null;
    return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to };
  }
}
