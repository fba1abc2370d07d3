import { randomUUID } from 'node:crypto';
import type { KeyVerifier } from '#src/access/key-verifier.ts';
import type { Actor } from '#src/access/principal.ts';
import { isScope, type Scope, scopeRuleViolation } from '#src/access/scopes.ts';
import { formatToken, generateSecret, type KeyType, sha256Hex, TOKEN_PREFIX } from '#src/access/token.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { iso } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody, Problems } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import type { Outbox } from '#src/modules/webhooks/outbox.ts';
import * as repo from './repo.ts';
import {
  type ApiKey,
  CreateApiKeyRequest,
  RotateApiKeyRequest,
  UpdateApiKeyRequest,
  type UpdateApiKeyRequest as UpdateBody,
} from './schemas.ts';

function statusOf(row: repo.ApiKeyRow, now: number): ApiKey['status'] {
  if (row.revoked_at !== null && (row.revoked_at.getTime() <= now || !row.enabled)) return 'revoked';
  if (!row.enabled) return 'disabled';
  if (row.expires_at !== null && row.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

function uniq(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

/**
 * How long a workspace's key rows are kept for the admin list before they are read again. A change of any key
 * drops them at once (on every instance); what the rows carry that changes without one is `last_used_at` as
 * other instances write it (every 15 s anyway). This instance's own uses and each key's status (expiry, the end
 * of a grace window) are worked out whenever the answer is made again: after a use of a key on this instance, or
 * once a status changes with time (`listJson`).
 */
export const ADMIN_KEY_ROWS_MS = 2_000;
/** Bytes of kept key rows and answers. */
const ADMIN_KEY_ROWS_BYTES = 4 * 1024 * 1024;
/** Bytes a kept key is counted for: its row (~1 KB) and its record in the kept answer (~0.7 KB). */
const KEPT_BYTES_PER_KEY = 2 * 1024;

/**
 * A workspace's key rows as read, and the last `{data}` answer made of them: served again while no key was used
 * on this instance since (`uses`) and until a key's status changes with time (`until`: an expiry, the end of a
 * grace window).
 */
interface KeptKeys {
  rows: repo.ApiKeyRow[];
  answer: { uses: number; until: number; json: Buffer } | null;
}

/** A key with its secret: the answer of create and rotate, the only time the secret is shown. */
export interface IssuedKey {
  data: ApiKey;
  secret: string;
}

/**
 * API keys for the admin API and the CLI: issue, list, update, rotate, revoke (each a change with its audit
 * record, in one transaction, announced on the change bus so every instance's verifier drops the key at once).
 * Verifying a token is the access module's `KeyVerifier`, whose collected last-use times the list shows.
 */
export class KeyAdminService {
  /** A workspace's key rows for the admin list, newest first, and its answer (see ADMIN_KEY_ROWS_MS). */
  private readonly lists: Cache<string, KeptKeys> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly verifier: KeyVerifier,
    private readonly outbox: Outbox | null = null,
  ) {
    const lists = changes.cache<string, KeptKeys>('api_key_list', ADMIN_KEY_ROWS_MS, 1_000, {
      max: ADMIN_KEY_ROWS_BYTES,
      sizeOf: (k) => 100 + k.rows.length * KEPT_BYTES_PER_KEY,
    });
    this.lists = lists;
    changes.onChange((c) => {
      if (c === null || c.topic === 'key') lists?.clear();
    });
    // The kept rows may predate the last-use times just written (which no longer come from memory).
    verifier.onFlushed(() => lists?.clear());
  }

  private changed(db: Queryable, ...ids: string[]): Promise<void> {
    return this.changes.publish(db, { topic: 'key', ids });
  }

  private toRecord(row: repo.ApiKeyRow): ApiKey {
    const pending = this.verifier.pendingUse(row.id);
    const lastUsed =
      pending !== undefined && (!row.last_used_at || pending > row.last_used_at.getTime())
        ? new Date(pending)
        : row.last_used_at;
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      name: row.name,
      type: row.type,
      prefix: `${TOKEN_PREFIX}_${row.type}_${row.id.slice(0, 8)}`,
      description: row.description,
      enabled: row.enabled,
      status: statusOf(row, Date.now()),
      scopes: row.scopes,
      player_restrictions: row.player_restrictions,
      // The original dashboard's name for the same list.
      uuid_restrictions: row.player_restrictions,
      server_restrictions: row.server_restrictions,
      season_restrictions: row.season_restrictions,
      expires_at: iso(row.expires_at),
      last_used_at: iso(lastUsed),
      created_at: row.created_at,
      updated_at: row.updated_at,
      revoked_at: iso(row.revoked_at),
    };
  }

  /**
   * What the schema cannot say: scope names and the scope rules of the key's type, and restriction ids that are servers and
   * seasons of this workspace. `uuid_restrictions` is an alias of `player_restrictions`: both lists are merged.
   */
  private async settings(db: Queryable, workspaceId: string, type: KeyType, body: UpdateBody): Promise<repo.KeyWrite> {
    const p = new Problems();
    const unknown = body.scopes.filter((s) => !isScope(s));
    for (const s of unknown) p.add('scopes', `unknown scope '${s.slice(0, 64)}'`);
    const servers = uniq(body.server_restrictions ?? []);
    const rule = unknown.length === 0 && scopeRuleViolation(type, body.scopes as Scope[], servers);
    if (rule) p.add('scopes', rule);
    const players = uniq([...(body.player_restrictions ?? []), ...(body.uuid_restrictions ?? [])]);
    if (players.length > 1000) p.add('player_restrictions', 'must hold at most 1000 UUIDs');
    const seasons = uniq(body.season_restrictions ?? []);
    for (const [field, ids, table] of [
      ['server_restrictions', servers, 'servers'],
      ['season_restrictions', seasons, 'seasons'],
    ] as const) {
      if (ids.length === 0) continue;
      const found = new Set(await repo.existingIds(db, table, workspaceId, ids));
      for (const id of ids) if (!found.has(id)) p.add(field, `unknown id ${id}`);
    }
    p.throwIfAny('The API key is invalid.');
    return {
      name: body.name.trim(),
      description: body.description ?? null,
      scopes: body.scopes,
      playerRestrictions: players,
      serverRestrictions: servers,
      seasonRestrictions: seasons,
      expiresAt: body.expires_at == null ? null : new Date(body.expires_at),
    };
  }

  /** Issues a key; the secret is in the answer only. */
  async create(actor: Actor, workspaceId: string, input: unknown): Promise<IssuedKey> {
    const body = checkBody(CreateApiKeyRequest, input, 'The API key is invalid.');
    return this.db.transaction(async (tx) => {
      const write = await this.settings(tx, workspaceId, body.type, body);
      const issued = await this.issue(tx, workspaceId, body.type, write, null);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'API_KEY_CREATED',
        targetType: 'api_key',
        targetId: issued.data.id,
        before: null,
        after: issued.data,
      });
      return issued;
    });
  }

  private async issue(
    db: Queryable,
    workspaceId: string,
    type: KeyType,
    write: repo.KeyWrite,
    rotatedFrom: string | null,
  ): Promise<IssuedKey> {
    const id = randomUUID();
    const secret = generateSecret();
    await this.changed(db, id);
    const row = await repo.insertKey(db, {
      ...write,
      id,
      workspaceId,
      type,
      secretHash: sha256Hex(secret),
      rotatedFrom,
    });
    return { data: this.toRecord(row), secret: formatToken(type, id, secret) };
  }

  async list(workspaceId: string): Promise<ApiKey[]> {
    return (await this.keptKeys(workspaceId)).rows.map((r) => this.toRecord(r));
  }

  /**
   * `GET /admin/api-keys` as JSON in UTF-8 (`{data: list(…)}`). The same bytes are served again while they hold:
   * the kept rows are the same, no key was used on this instance since, and no key's status has changed with
   * time; a list of 200 keys is ~150 KB, which made afresh for every request of a busy console is mostly garbage.
   */
  async listJson(workspaceId: string): Promise<Buffer> {
    const kept = await this.keptKeys(workspaceId);
    const now = Date.now();
    const last = kept.answer;
    if (last && last.uses === this.verifier.uses && now < last.until) return last.json;
    const json = Buffer.from(JSON.stringify({ data: kept.rows.map((r) => this.toRecord(r)) }));
    // The first instant a key's status changes with time: its expiry, or the end of its grace window.
    let until = Number.POSITIVE_INFINITY;
    for (const r of kept.rows) {
      for (const t of [r.expires_at, r.revoked_at]) if (t && t.getTime() > now) until = Math.min(until, t.getTime());
    }
    kept.answer = { uses: this.verifier.uses, until, json };
    return json;
  }

  /** A workspace's key rows, newest first: kept for ADMIN_KEY_ROWS_MS (a new object every time without caches). */
  private async keptKeys(workspaceId: string): Promise<KeptKeys> {
    const read = async (): Promise<KeptKeys> => ({ rows: await repo.listKeys(this.db, workspaceId), answer: null });
    return this.lists ? (this.lists.peek(workspaceId) ?? (await this.lists.get(workspaceId, read))) : read();
  }

  async get(workspaceId: string, id: string): Promise<ApiKey> {
    return this.toRecord(await this.mustFind(this.db, workspaceId, id));
  }

  private async mustFind(db: Queryable, workspaceId: string, id: string): Promise<repo.ApiKeyRow> {
    const row = isUuid(id) ? await repo.findKey(db, workspaceId, id.toLowerCase()) : null;
    if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
    return row;
  }

  /** Replaces name, description, scopes, restrictions and expiry (omitted lists and values are cleared). */
  async update(actor: Actor, workspaceId: string, id: string, input: unknown): Promise<ApiKey> {
    const body = checkBody(UpdateApiKeyRequest, input, 'The API key is invalid.');
    return this.db.transaction(async (tx) => {
      const existing = await this.mustFind(tx, workspaceId, id);
      const write = await this.settings(tx, workspaceId, existing.type, body);
      const row = await repo.updateKey(tx, workspaceId, existing.id, write);
      if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
      await this.changed(tx, row.id);
      const after = this.toRecord(row);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'API_KEY_UPDATED',
        targetType: 'api_key',
        targetId: row.id,
        before: this.toRecord(existing),
        after,
      });
      return after;
    });
  }

  /**
   * Issues a new key with the same settings and revokes the old one, at once or after `grace_seconds`.
   * A revoked key cannot be rotated back into use (409).
   */
  async rotate(actor: Actor, workspaceId: string, id: string, input: unknown = {}): Promise<IssuedKey> {
    const grace = checkBody(RotateApiKeyRequest, input).grace_seconds ?? 0;
    return this.db.transaction(async (tx) => {
      const existing = await this.mustFind(tx, workspaceId, id);
      if (statusOf(existing, Date.now()) === 'revoked') {
        throw new AppError('CONFLICT', 'A revoked key cannot be rotated.');
      }
      const at = grace > 0 ? new Date(Date.now() + grace * 1000) : null;
      const old = await repo.revokeKey(tx, workspaceId, existing.id, at);
      if (!old) throw new AppError('NOT_FOUND', 'API key not found.');
      await this.changed(tx, old.id);
      const write: repo.KeyWrite = {
        name: existing.name,
        description: existing.description,
        scopes: existing.scopes,
        playerRestrictions: existing.player_restrictions,
        serverRestrictions: existing.server_restrictions,
        seasonRestrictions: existing.season_restrictions,
        expiresAt: existing.expires_at,
      };
      const issued = await this.issue(tx, workspaceId, existing.type, write, existing.id);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'API_KEY_ROTATED',
        targetType: 'api_key',
        targetId: existing.id,
        before: this.toRecord(existing),
        after: { revoked: this.toRecord(old), replacement: issued.data, grace_seconds: grace },
      });
      await this.outbox?.add(tx, workspaceId, 'api_key.rotated', {
        api_key: this.toRecord(old),
        replacement: issued.data,
        grace_seconds: grace,
      });
      return issued;
    });
  }

  async revoke(actor: Actor, workspaceId: string, id: string): Promise<ApiKey> {
    return this.db.transaction(async (tx) => {
      const existing = await this.mustFind(tx, workspaceId, id);
      const row = await repo.revokeKey(tx, workspaceId, existing.id, null);
      if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
      await this.changed(tx, row.id);
      const after = this.toRecord(row);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'API_KEY_REVOKED',
        targetType: 'api_key',
        targetId: row.id,
        before: this.toRecord(existing),
        after,
      });
      await this.outbox?.add(tx, workspaceId, 'api_key.revoked', { api_key: after });
      return after;
    });
  }
}
