import { randomUUID } from 'node:crypto';
import type { Actor } from '#src/access/principal.ts';
import { formatToken, generateSecret, sha256Hex } from '#src/access/token.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import type { UserService } from '#src/modules/users/service.ts';
import type { Workspace, WorkspaceService } from '#src/modules/workspaces/service.ts';
import * as repo from './repo.ts';
import { BootstrapRequest, TokenRequest } from './schemas.ts';

const STARTUP_TTL_MINUTES = 24 * 60;

export interface BootstrapToken {
  token: string;
  expires_at: string;
}

/**
 * First-time setup: `BOOTSTRAP_TOKEN` from the environment, single-use tokens from the CLI with an expiry, and
 * a token logged once at first start. Only hashes are stored. A signed-in user redeems a token to create the
 * first workspace and become its owner.
 */
export class SetupService {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserService,
    private readonly audit: AuditService,
  ) {}

  /**
   * A new single-use token, `stb_bootstrap_<uuid>_<secret>`, valid `ttl_minutes` (default 60). With
   * `workspace_id`, redeeming it makes the signed-in user owner of that workspace (404 when there is none).
   */
  async createToken(actor: Actor, input: unknown = {}): Promise<BootstrapToken> {
    const { ttl_minutes: ttl = 60, workspace_id: workspaceId } = checkBody(
      TokenRequest,
      input,
      'The token request is invalid.',
    );
    return this.db.transaction(async (tx) => {
      if (workspaceId !== undefined && (await this.workspaces.find(workspaceId, tx)) === null) {
        throw new AppError('NOT_FOUND', 'No such workspace.');
      }
      const token = await this.insertToken(tx, ttl, 'cli', workspaceId ?? null);
      // The token itself never goes into the audit log.
      await this.audit.record(tx, actor, {
        workspaceId: workspaceId ?? null,
        action: 'BOOTSTRAP_TOKEN_CREATED',
        targetType: 'bootstrap_token',
        targetId: null,
        before: null,
        after: { expires_at: token.expires_at, ...(workspaceId ? { workspace_id: workspaceId } : {}) },
      });
      return token;
    });
  }

  private async insertToken(
    db: Queryable,
    ttlMinutes: number,
    source: 'cli' | 'startup',
    workspaceId: string | null = null,
  ): Promise<BootstrapToken> {
    const id = randomUUID();
    const token = formatToken('bootstrap', id, generateSecret());
    const expiresAt = new Date(Date.now() + ttlMinutes * 60_000);
    await repo.insertToken(db, { id, tokenHash: sha256Hex(token), source, expiresAt, workspaceId });
    return { token, expires_at: expiresAt.toISOString() };
  }

  /** Records the environment's token (idempotent) so it is accepted once, like any other. */
  async registerEnvToken(token: string): Promise<void> {
    await repo.insertToken(this.db, { id: randomUUID(), tokenHash: sha256Hex(token), source: 'env', expiresAt: null });
  }

  async needsBootstrap(): Promise<boolean> {
    return (await this.workspaces.count()) === 0;
  }

  /** Whether a usable token exists (with `workspaceId`: one that gives an owner to that workspace). */
  async hasUsableToken(workspaceId: string | null = null): Promise<boolean> {
    return (await repo.countUsableTokens(this.db, workspaceId)) > 0;
  }

  /** A token for the log of a start, valid a day; with `workspaceId`, it makes its redeemer owner of it. */
  createStartupToken(workspaceId: string | null = null): Promise<BootstrapToken> {
    return this.insertToken(this.db, STARTUP_TTL_MINUTES, 'startup', workspaceId);
  }

  /**
   * Redeems a token (`{token, workspace_name?}`), race-free under one lock. A token that names a workspace makes
   * the actor owner of it. Any other token creates the first workspace, owned by the actor: once a workspace
   * exists that is 409, and an unknown, used or expired token is 422. The membership and the audit record commit
   * with it.
   */
  async bootstrap(actor: Actor & { userId: string }, input: unknown): Promise<Workspace> {
    const body = checkBody(BootstrapRequest, input);
    return this.db.transaction(async (tx) => {
      await repo.lockBootstrap(tx);
      const token = body.token.length > 300 ? null : await repo.findUsableToken(tx, sha256Hex(body.token));
      if (token?.workspace_id) {
        const ws = await this.workspaces.find(token.workspace_id, tx);
        if (ws === null) throw new AppError('INVALID_BOOTSTRAP_TOKEN');
        await repo.useToken(tx, token.id);
        await this.users.addOwner(tx, ws.id, actor.userId);
        await this.audit.record(tx, actor, {
          workspaceId: ws.id,
          action: 'WORKSPACE_OWNER_BOOTSTRAPPED',
          targetType: 'user',
          targetId: actor.userId,
          before: null,
          after: { workspace_id: ws.id, user_id: actor.userId, role: 'owner' },
        });
        return ws;
      }
      if ((await this.workspaces.count(tx)) > 0) throw new AppError('CONFLICT', 'A workspace already exists.');
      if (token === null) throw new AppError('INVALID_BOOTSTRAP_TOKEN');
      await repo.useToken(tx, token.id);
      const ws = await this.workspaces.insert(tx, { name: body.workspace_name ?? 'Statboard' });
      await this.users.addOwner(tx, ws.id, actor.userId);
      await this.audit.record(tx, actor, {
        workspaceId: ws.id,
        action: 'WORKSPACE_BOOTSTRAPPED',
        targetType: 'workspace',
        targetId: ws.id,
        before: null,
        after: { ...ws, owner_user_id: actor.userId },
      });
      return ws;
    });
  }
}
