import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '#src/config.ts';
import type { Db } from '#src/db/types.ts';
import * as repo from './repo.ts';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

/** A session's last-seen time is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;
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
 */
export class SessionService {
  readonly idleMs: number;
  readonly maxMs: number;

  constructor(
    private readonly db: Db,
    config: Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'>,
    readonly now: Clock = Date.now,
  ) {
    this.idleMs = config.sessionIdleMinutes * 60_000;
    this.maxMs = config.sessionMaxHours * 3_600_000;
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

  /** The user of a live session, or null (unknown, idle too long, or past its absolute expiry). */
  async resolve(id: string | undefined): Promise<{ userId: string } | null> {
    if (id === undefined || !ID_RE.test(id)) return null;
    const idHash = hashId(id);
    const row = await repo.findSession(this.db, idHash);
    if (!row) return null;
    const now = this.now();
    if (row.expires_at.getTime() <= now || row.last_seen_at.getTime() + this.idleMs <= now) {
      await repo.deleteSession(this.db, idHash);
      return null;
    }
    if (now - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) await repo.touchSession(this.db, idHash, new Date(now));
    return { userId: row.user_id };
  }

  async destroy(id: string | undefined): Promise<void> {
    if (id === undefined || !ID_RE.test(id)) return;
    await repo.deleteSession(this.db, hashId(id));
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
