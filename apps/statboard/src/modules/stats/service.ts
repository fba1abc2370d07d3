import type { Actor } from '#src/access/principal.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './repo.ts';
import { type PublicStat, type StatDefinition, UpdateStatRequest } from './schemas.ts';
import { defaultStatName, defaultStatUnit } from './stat-defaults.ts';

/** The definition as admins read it: the effective name and unit, and whether each is the default. */
function toDefinition(row: repo.StatDefinitionRow): StatDefinition {
  return {
    id: row.id,
    key: row.key,
    display_name: row.display_name ?? defaultStatName(row.key),
    display_name_is_default: row.display_name === null,
    unit: row.unit ?? defaultStatUnit(row.key),
    unit_is_default: row.unit === null,
    category: row.category,
    max_per_hour: row.max_per_hour,
    public: row.public,
    sort_order: row.sort_order,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** A definition as answers that list values name it. */
export interface StatKey {
  key: string;
  /** The key as a JSON string (written once per definition, not per value). */
  json: string;
  public: boolean;
  /** Its place among the workspace's keys in bytewise order (how every list of values is sorted). */
  order: number;
}

/** Every definition of a workspace by id. */
export type StatKeys = ReadonlyMap<string, StatKey>;

/** Statistic definitions of a workspace: visibility, display name, unit and leaderboard sort order. */
export class StatDefinitionService {
  /** The serialized `GET /stats` answer by workspace: dropped when a definition is changed or added. */
  private readonly publicLists: Cache<string, Buffer> | null;
  /** Every definition's key by id, by workspace: dropped when a definition is changed or added. */
  private readonly keys: Cache<string, StatKeys> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {
    const lists = changes.cache<string, Buffer>('stat_list', 60_000, 1_000);
    const keys = changes.cache<string, StatKeys>('stat_keys', 60_000, 1_000);
    this.publicLists = lists;
    this.keys = keys;
    changes.onChange((c) => {
      if (c === null) {
        lists?.clear();
        keys?.clear();
      } else if (c.topic === 'definition') {
        lists?.delete(c.workspaceId);
        keys?.delete(c.workspaceId);
      }
    });
  }

  /** `GET /stats` as the answer's JSON in UTF-8 (`{data}`), at once when cached. */
  publicJson(workspaceId: string): Maybe<Buffer> {
    const build = () => this.listPublic(workspaceId).then((data) => Buffer.from(JSON.stringify({ data })));
    if (!this.publicLists) return build();
    return this.publicLists.peek(workspaceId) ?? this.publicLists.get(workspaceId, build);
  }

  /**
   * Every definition of the workspace by id (key, visibility, bytewise order), at once when cached: reads of
   * values take their keys from it rather than joining the definitions in each statement. `fresh` reads them
   * again: for an id not in the map, a definition added since that this instance has not been told about yet.
   */
  keysById(workspaceId: string, fresh = false): Maybe<StatKeys> {
    const load = async (): Promise<StatKeys> =>
      new Map(
        (await repo.listDefinitionKeys(this.db, workspaceId)).map((d, order) => [
          d.id,
          { key: d.key, json: JSON.stringify(d.key), public: d.public, order },
        ]),
      );
    if (!this.keys) return load();
    if (fresh) this.keys.delete(workspaceId);
    return this.keys.peek(workspaceId) ?? this.keys.get(workspaceId, load);
  }

  async list(workspaceId: string): Promise<StatDefinition[]> {
    return (await repo.listDefinitions(this.db, workspaceId)).map(toDefinition);
  }

  /**
   * Public definitions for key reads, by key; `category` is the key's first segment, the name and unit the
   * effective ones (the admin's, else the defaults).
   */
  async listPublic(workspaceId: string): Promise<PublicStat[]> {
    return (await repo.listPublicDefinitions(this.db, workspaceId)).map((d) => ({
      key: d.key,
      display_name: d.display_name ?? defaultStatName(d.key),
      category: d.key.split(':', 1)[0]!,
      sort_order: d.sort_order,
      unit: d.unit ?? defaultStatUnit(d.key),
    }));
  }

  /**
   * Changes the given fields (omitted ones keep their value; a null or blank name and a null unit go back to the
   * default). The statistic is named by its key or by its id; an unknown one is 404.
   */
  async update(actor: Actor, workspaceId: string, keyOrId: string, input: unknown): Promise<StatDefinition> {
    const body = checkBody(UpdateStatRequest, input, 'The statistic definition is invalid.');
    return this.db.transaction(async (tx) => {
      // A key always holds a `:` (upload-rules.ts), so a UUID can only be an id.
      const row = isUuid(keyOrId)
        ? await repo.findDefinitionById(tx, workspaceId, keyOrId.toLowerCase())
        : keyOrId.length <= 255
          ? await repo.findDefinition(tx, workspaceId, keyOrId)
          : null;
      if (!row) throw new AppError('NOT_FOUND', `Statistic '${keyOrId.slice(0, 255)}' not found.`);
      const after = toDefinition(
        await repo.updateDefinition(tx, row.id, {
          public: body.public ?? row.public,
          displayName: body.display_name === undefined ? row.display_name : body.display_name?.trim() || null,
          unit: body.unit === undefined ? row.unit : body.unit,
          sortOrder: body.sort_order ?? row.sort_order,
          maxPerHour: body.max_per_hour === undefined ? row.max_per_hour : body.max_per_hour,
        }),
      );
      await this.changes.publish(tx, { topic: 'definition', workspaceId });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'STAT_UPDATED',
        targetType: 'stat_definition',
        targetId: after.key,
        before: toDefinition(row),
        after,
      });
      return after;
    });
  }
}
