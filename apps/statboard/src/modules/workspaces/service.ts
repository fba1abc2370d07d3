import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { Problems, text } from '#src/lib/validate.ts';

export interface Workspace {
  id: string;
  name: string;
  slug: string;
}

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

  async create(input: { name: string; slug?: string }, db: Queryable = this.db): Promise<Workspace> {
    const p = new Problems();
    const name = text(p, 'name', input.name, 1, 120);
    p.throwIfAny();
    const base = input.slug ?? slugify(name);
    for (let i = 0; i < 20; i++) {
      const slug = i === 0 ? base : `${base}-${i + 1}`;
      try {
        const rows = await db.query<Workspace>(
          'INSERT INTO workspaces (name, slug) VALUES ($1, $2) RETURNING id, name, slug',
          [name, slug],
        );
        return rows[0]!;
      } catch (err) {
        if (sqlState(err) !== UNIQUE_VIOLATION || input.slug !== undefined) {
          if (sqlState(err) === UNIQUE_VIOLATION) throw new AppError('CONFLICT', 'A workspace with that slug exists.');
          throw err;
        }
      }
    }
    throw new AppError('CONFLICT', 'Could not find a free workspace slug.');
  }

  /** Finds a workspace by id or slug; 404 when there is none. */
  async resolve(idOrSlug: string): Promise<Workspace> {
    const rows = isUuid(idOrSlug)
      ? await this.db.query<Workspace>('SELECT id, name, slug FROM workspaces WHERE id = $1 OR slug = $2', [
          idOrSlug.toLowerCase(),
          idOrSlug,
        ])
      : await this.db.query<Workspace>('SELECT id, name, slug FROM workspaces WHERE slug = $1', [idOrSlug]);
    const ws = rows[0];
    if (!ws) throw new AppError('NOT_FOUND', `Workspace '${idOrSlug}' not found.`);
    return ws;
  }

  async list(): Promise<Workspace[]> {
    return this.db.query<Workspace>('SELECT id, name, slug FROM workspaces ORDER BY created_at, id');
  }

  async count(db: Queryable = this.db): Promise<number> {
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces');
    return rows[0]?.n ?? 0;
  }
}
