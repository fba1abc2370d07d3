import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { Problems, text } from '#src/lib/validate.ts';
import * as repo from './repo.ts';

export type Workspace = repo.WorkspaceRow;

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
  constructor(private readonly db: Db) {}

  /**
   * Creates a workspace. An explicit slug that is taken is 409; a slug derived from the name gets the first
   * free suffix (`-2`, `-3`, …).
   */
  async create(input: { name: string; slug?: string }, db: Queryable = this.db): Promise<Workspace> {
    const p = new Problems();
    const name = text(p, 'name', input.name, 1, 120);
    p.throwIfAny();
    const base = input.slug ?? slugify(name);
    const attempts = input.slug === undefined ? 20 : 1;
    for (let i = 0; i < attempts; i++) {
      try {
        return await repo.insertWorkspace(db, name, i === 0 ? base : `${base}-${i + 1}`);
      } catch (err) {
        if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
      }
    }
    throw new AppError(
      'CONFLICT',
      input.slug === undefined ? 'Could not find a free workspace slug.' : 'A workspace with that slug exists.',
    );
  }

  /** Finds a workspace by id or slug; 404 when there is none. */
  async resolve(idOrSlug: string): Promise<Workspace> {
    const ws = await repo.findWorkspace(this.db, idOrSlug, isUuid(idOrSlug));
    if (!ws) throw new AppError('NOT_FOUND', `Workspace '${idOrSlug}' not found.`);
    return ws;
  }

  list(): Promise<Workspace[]> {
    return repo.listWorkspaces(this.db);
  }

  count(db: Queryable = this.db): Promise<number> {
    return repo.countWorkspaces(db);
  }
}
