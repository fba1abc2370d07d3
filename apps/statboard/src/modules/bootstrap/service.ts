import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { formatToken, generateSecret, sha256Hex } from '#src/modules/keys/token.ts';
import type { Workspace, WorkspaceService } from '#src/modules/workspaces/service.ts';
import * as repo from './repo.ts';

export const DEFAULT_TTL_MINUTES = 60;
const STARTUP_TTL_MINUTES = 24 * 60;

/**
 * First-time setup (DECISIONS, "Bootstrap tokens"): `BOOTSTRAP_TOKEN` from the environment, single-use CLI
 * tokens with an expiry, and a token logged once at first start. Only hashes are stored.
 */
export class BootstrapService {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** A new single-use token: `stb_bootstrap_<uuid>_<secret>`, valid for `ttlMinutes`. */
  async createToken(
    ttlMinutes = DEFAULT_TTL_MINUTES,
    source: 'cli' | 'startup' = 'cli',
  ): Promise<{ token: string; expires_at: string }> {
    if (!Number.isInteger(ttlMinutes) || ttlMinutes < 1 || ttlMinutes > 525_600) {
      throw new AppError('INVALID_PAYLOAD', 'The TTL is invalid.', {
        ttl_minutes: ['must be an integer from 1 to 525600'],
      });
    }
    const id = randomUUID();
    const token = formatToken('bootstrap', id, generateSecret());
    const expiresAt = new Date(Date.now() + ttlMinutes * 60_000);
    await repo.insertToken(this.db, { id, tokenHash: sha256Hex(token), source, expiresAt });
    return { token, expires_at: expiresAt.toISOString() };
  }

  /** Records the environment's token (idempotent) so it is accepted once, like any other. */
  async registerEnvToken(token: string): Promise<void> {
    await repo.insertToken(this.db, { id: randomUUID(), tokenHash: sha256Hex(token), source: 'env', expiresAt: null });
  }

  async needsBootstrap(): Promise<boolean> {
    return (await this.workspaces.count()) === 0;
  }

  async hasUsableToken(): Promise<boolean> {
    return (await repo.countUsableTokens(this.db)) > 0;
  }

  /** A startup token for the log, valid a day. */
  createStartupToken(): Promise<{ token: string; expires_at: string }> {
    return this.createToken(STARTUP_TTL_MINUTES, 'startup');
  }

  /**
   * Uses a token to create the first workspace, race-free: under one lock, a workspace that exists is 409 and
   * an unknown, used or expired token 422. `onCreated` runs in the same transaction (owner membership, audit).
   */
  async bootstrap(
    token: string,
    workspaceName: string | undefined,
    onCreated: (tx: Queryable, ws: Workspace) => Promise<void> = async () => undefined,
  ): Promise<Workspace> {
    return this.db.transaction(async (tx) => {
      await repo.lockBootstrap(tx);
      if ((await this.workspaces.count(tx)) > 0) throw new AppError('CONFLICT', 'A workspace already exists.');
      if (typeof token !== 'string' || token.length > 300 || !(await repo.useToken(tx, sha256Hex(token)))) {
        throw new AppError('INVALID_BOOTSTRAP_TOKEN');
      }
      const ws = await this.workspaces.create({ name: workspaceName ?? 'Statboard' }, tx);
      await onCreated(tx, ws);
      return ws;
    });
  }
}
