import { type Static, Type } from '@sinclair/typebox';
import type { Actor } from '#src/access/principal.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import { SLUG_PATTERN } from '#src/modules/seasons/schemas.ts';
import * as repo from './repo.ts';

export type Workspace = repo.WorkspaceRow;

export const CreateWorkspaceRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 60, pattern: SLUG_PATTERN })),
});
type CreateWorkspace = Static<typeof CreateWorkspaceRequest>;

export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s === '' ? 'workspace' : s;
}

/** Workspaces: the tenant every other record belongs to. */
export class WorkspaceService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  /** Creates a workspace (`{name, slug?}`), with its audit record. */
  async create(actor: Actor, input: unknown): Promise<Workspace> {
    const body = checkBody(CreateWorkspaceRequest, input, 'The workspace is invalid.');
    return this.db.transaction(async (tx) => {
      const ws = await this.insert(tx, body);
      await this.audit.record(tx, actor, {
        workspaceId: ws.id,
        action: 'WORKSPACE_CREATED',
        targetType: 'workspace',
        targetId: ws.id,
        before: null,
        after: ws,
      });
      return ws;
    });
  }

  /**
   * Inserts a workspace inside the caller's transaction. An explicit slug that is taken is 409; a slug derived
   * from the name gets the first free suffix (`-2`, `-3`, …).
   */
  async insert(tx: Queryable, input: CreateWorkspace): Promise<Workspace> {
    const name = input.name.trim();
    const base = input.slug ?? slugify(name);
    const attempts = input.slug === undefined ? 100 : 1;
    for (let i = 0; i < attempts; i++) {
      const ws = await repo.insertWorkspace(tx, name, i === 0 ? base : `${base}-${i + 1}`);
      if (ws) return ws;
    }
    throw new AppError(
      'CONFLICT',
      input.slug === undefined ? 'Could not find a free workspace slug.' : `A workspace with slug '${base}' exists.`,
    );
  }

  /** Finds a workspace by id or slug; 404 when there is none. */
  async resolve(idOrSlug: string): Promise<Workspace> {
    const ws = await repo.findWorkspace(this.db, idOrSlug, isUuid(idOrSlug));
    if (!ws) throw new AppError('NOT_FOUND', `Workspace '${idOrSlug}' not found.`);
    return ws;
  }

  /** A workspace by id, or null (inside `db`'s transaction when given). */
  async find(id: string, db: Queryable = this.db): Promise<Workspace | null> {
    return (await repo.findWorkspace(db, id, true)) ?? null;
  }

  list(): Promise<Workspace[]> {
    return repo.listWorkspaces(this.db);
  }

  /** Workspaces nobody owns yet: their first owner needs a bootstrap token for them. */
  withoutOwner(): Promise<Workspace[]> {
    return repo.listWorkspacesWithoutOwner(this.db);
  }

  count(db: Queryable = this.db): Promise<number> {
    return repo.countWorkspaces(db);
  }
}
