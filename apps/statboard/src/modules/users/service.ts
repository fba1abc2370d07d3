import type { Actor, Principal } from '#src/access/principal.ts';
import { allows, type Role } from '#src/access/roles.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { iso, isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './repo.ts';
import { UpdateUserRequest, type AdminUser as User } from './schemas.ts';

export interface Identity {
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider said the email is verified (`email_verified: true` from the same source as the email). */
  emailVerified: boolean;
  displayName: string;
}

/**
 * Whom a role change may name: `workspace`, the workspace's members and users without any membership (the admin
 * API: another workspace's members stay out of reach); `anyone`, every user (the operator's CLI).
 */
export type Reach = 'workspace' | 'anyone';

/** One answer for an unknown user and one out of reach: the route must not tell them apart. */
const NO_SUCH_USER =
  'No such user here. They must sign in once before they can be given a role; an email names them only when ' +
  'their identity provider verified it, and their user id always does.';

function ambiguousEmail(email: string): AppError {
  return new AppError(
    'CONFLICT',
    `Several users signed in with the verified email '${email}': give the role by user id instead. A member's id ` +
      "is in GET /api/v1/admin/users; someone without a role sees theirs on the console's 'No access yet' page " +
      'or at GET /api/v1/admin/me.',
  );
}

function toUser(row: repo.UserRow, role: Role | null): User {
  return {
    id: row.id,
    display_name: row.display_name,
    email: row.email,
    role,
    last_login_at: iso(row.last_login_at),
    created_at: isoRequired(row.created_at),
  };
}

/**
 * Users signed in through OIDC and their workspace roles. Every change of a user or a role is announced on the
 * change bus (`session`): signed-in sessions keep their user and role in memory (see `SessionService`).
 */
export class UserService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {}

  /** Signed-in sessions must look their users up again (after `db` commits, inside a transaction). */
  private usersChanged(db: Queryable): Promise<void> {
    return this.changes.publish(db, { topic: 'session' });
  }

  /** Creates or updates the user of (issuer, subject) at login (their name or email may have changed). */
  async upsertFromLogin(identity: Identity, at: Date): Promise<User> {
    const row = await repo.upsertUser(this.db, { ...identity, at });
    await this.usersChanged(this.db);
    const m = await repo.findMembership(this.db, row.id);
    return toUser(row, m?.role ?? null);
  }

  /**
   * The user as a session sees them: with their role in `workspaceId` when they are a member there, else in their
   * oldest membership (no role without any); null when the user is gone.
   */
  async principal(
    userId: string,
    workspaceId: string | null = null,
    db: Queryable = this.db,
  ): Promise<Principal | null> {
    const row = await repo.findUser(db, userId);
    if (!row) return null;
    const m = await repo.findMembership(db, userId, workspaceId);
    return {
      userId: row.id,
      displayName: row.display_name,
      email: row.email,
      workspaceId: m?.workspace_id ?? null,
      role: m?.role ?? null,
    };
  }

  /** Every workspace the user belongs to, with their role there; the oldest membership first. */
  memberships(userId: string): Promise<repo.WorkspaceMembershipRow[]> {
    return repo.listMemberships(this.db, userId);
  }

  async list(workspaceId: string): Promise<User[]> {
    return (await repo.listUsers(this.db, workspaceId)).map((r) => toUser(r, r.role));
  }

  /**
   * A user by id, or by an email their provider verified, with their role in this workspace; within `reach`.
   * 404 when there is none (unknown, out of reach or unverified alike); 409 when the email names several users.
   */
  async get(workspaceId: string, userRef: string, db: Queryable = this.db, reach: Reach = 'workspace'): Promise<User> {
    const from = reach === 'workspace' ? workspaceId : null;
    let row: repo.UserRow | null;
    if (isUuid(userRef)) {
      row = await repo.findReachableUser(db, from, userRef.toLowerCase());
    } else {
      const rows = await repo.findReachableUsersByVerifiedEmail(db, from, userRef);
      if (rows.length > 1) throw ambiguousEmail(userRef);
      row = rows[0] ?? null;
    }
    if (!row) throw new AppError('NOT_FOUND', NO_SUCH_USER);
    return toUser(row, await repo.findRole(db, workspaceId, row.id));
  }

  /** Makes a user the owner of a new workspace (bootstrap), inside the caller's transaction. */
  async addOwner(tx: Queryable, workspaceId: string, userId: string): Promise<void> {
    await repo.setRole(tx, workspaceId, userId, 'owner');
    await this.usersChanged(tx);
  }

  /**
   * Sets a user's role (`{role}`; null removes it). Admins set roles other than owner; only an owner grants
   * owner or changes an owner's role; the last owner cannot be demoted (409). `actor.role` is the role the
   * change is made with. The user is named by id or verified email (see `get`); memberships in other workspaces
   * are left as they are.
   */
  async setRole(
    actor: Actor & { role: Role },
    workspaceId: string,
    userRef: string,
    input: unknown,
    reach: Reach = 'workspace',
  ): Promise<User> {
    const { role } = checkBody(UpdateUserRequest, input, 'The role is invalid.');
    if (!allows(actor.role, 'write:users')) throw new AppError('FORBIDDEN', 'Your role cannot manage users.');
    return this.db.transaction(async (tx) => {
      const found = await this.get(workspaceId, userRef, tx, reach);
      await repo.lockUser(tx, found.id);
      // Read again under the lock: another workspace may have given the newcomer a role meanwhile.
      const before = await this.get(workspaceId, found.id, tx, reach);
      if (before.role !== role) await this.changeRole(tx, actor.role, workspaceId, before, role);
      // Removed from here while a member elsewhere, they are out of reach now: read them regardless.
      const after = await this.get(workspaceId, before.id, tx, 'anyone');
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'USER_ROLE_UPDATED',
        targetType: 'user',
        targetId: after.id,
        before,
        after,
      });
      return after;
    });
  }

  private async changeRole(
    tx: Queryable,
    actorRole: Role,
    workspaceId: string,
    before: User,
    role: Role | null,
  ): Promise<void> {
    if (role === 'owner' && !allows(actorRole, 'grant:owner')) {
      throw new AppError('FORBIDDEN', 'Only an owner can grant the owner role.');
    }
    if (before.role === 'owner') {
      if (!allows(actorRole, 'grant:owner')) {
        throw new AppError('FORBIDDEN', "Only an owner can change an owner's role.");
      }
      const owners = await repo.lockOwners(tx, workspaceId);
      if (owners.length <= 1 && owners.includes(before.id)) {
        throw new AppError('CONFLICT', 'The last owner cannot be demoted.');
      }
    }
    if (role === null) await repo.removeMembership(tx, workspaceId, before.id);
    else await repo.setRole(tx, workspaceId, before.id, role);
    await this.usersChanged(tx);
  }
}
