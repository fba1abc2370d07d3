import { type Db, publishChange } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import { Problems } from '#src/lib/validate.ts';
import * as repo from './repo.ts';

/** A statistic definition: created by ingest (public, descending); analysts and up change it. */
export interface StatDefinition {
  id: string;
  key: string;
  display_name: string | null;
  category: string | null;
  public: boolean;
  sort_order: 'asc' | 'desc';
  created_at: string;
  updated_at: string;
}

export interface StatDefinitionInput {
  public?: unknown;
  display_name?: unknown;
  sort_order?: unknown;
}

function toDefinition(row: repo.StatDefinitionRow): StatDefinition {
  return { ...row, created_at: isoRequired(row.created_at), updated_at: isoRequired(row.updated_at) };
}

/** Statistic definitions of a workspace: visibility, display name and leaderboard sort order. */
export class StatDefinitionService {
  constructor(private readonly db: Db) {}

  async list(workspaceId: string): Promise<StatDefinition[]> {
    return (await repo.listDefinitions(this.db, workspaceId)).map(toDefinition);
  }

  /** Changes the given fields (omitted ones keep their value); an unknown key is 404. */
  async update(
    workspaceId: string,
    key: string,
    input: StatDefinitionInput,
  ): Promise<{ before: StatDefinition; after: StatDefinition }> {
    const p = new Problems();
    if (input.public !== undefined && typeof input.public !== 'boolean') p.add('public', 'must be a boolean');
    if (
      input.display_name !== undefined &&
      input.display_name !== null &&
      (typeof input.display_name !== 'string' || input.display_name.length > 255)
    ) {
      p.add('display_name', 'must be a string of at most 255 characters or null');
    }
    if (input.sort_order !== undefined && input.sort_order !== 'asc' && input.sort_order !== 'desc') {
      p.add('sort_order', "must be 'asc' or 'desc'");
    }
    p.throwIfAny('The statistic definition is invalid.');
    const row = key.length <= 255 ? await repo.findDefinition(this.db, workspaceId, key) : null;
    if (!row) throw new AppError('NOT_FOUND', `Statistic '${key.slice(0, 255)}' not found.`);
    const displayName =
      input.display_name === undefined ? row.display_name : (input.display_name as string | null)?.trim() || null;
    const after = await repo.updateDefinition(this.db, row.id, {
      public: (input.public as boolean | undefined) ?? row.public,
      displayName,
      sortOrder: (input.sort_order as 'asc' | 'desc' | undefined) ?? row.sort_order,
    });
    await publishChange(this.db, { topic: 'definition', workspaceId });
    return { before: toDefinition(row), after: toDefinition(after) };
  }
}
