import { randomUUID } from 'node:crypto';
import { type Cache, cacheFor } from '#src/cache/cache.ts';
import { type Db, publishChange, type Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { iso, isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { optionalDate, Problems } from '#src/lib/validate.ts';
import * as repo from './repo.ts';
import { isScope, type Scope, scopeRuleViolation } from './scopes.ts';
import {
  DUMMY_DIGEST,
  formatToken,
  generateSecret,
  KEY_TYPES,
  type KeyType,
  type ParsedToken,
  parseToken,
  sameDigest,
  sha256Hex,
  TOKEN_PREFIX,
} from './token.ts';
import type { ApiKey, AuthKey, CreateKeyInput, KeyInput } from './types.ts';

const LAST_USED_FLUSH_MS = 15_000;

function statusOf(row: repo.ApiKeyRow, now: number): ApiKey['status'] {
  if (row.revoked_at !== null && (row.revoked_at.getTime() <= now || !row.enabled)) return 'revoked';
  if (!row.enabled) return 'disabled';
  if (row.expires_at !== null && row.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

/** Whether a key may authenticate right now: enabled, not revoked (grace window aside), not expired. */
function usable(row: repo.ApiKeyRow, now: number): boolean {
  return (
    row.enabled &&
    (row.revoked_at === null || row.revoked_at.getTime() > now) &&
    (row.expires_at === null || row.expires_at.getTime() > now)
  );
}

/** A key row with what `verify` needs, derived once per load. */
interface VerifiedRow {
  row: repo.ApiKeyRow;
  /** The stored SHA-256 of the secret, hex. */
  digest: string;
  /** The request's view of the key (shared, never mutated). */
  key: AuthKey;
}

function verifiedRow(row: repo.ApiKeyRow): VerifiedRow {
  return {
    row,
    digest: row.secret_hash,
    key: {
      id: row.id,
      workspaceId: row.workspace_id,
      type: row.type,
      scopes: new Set(row.scopes as Scope[]),
      players: row.player_restrictions,
      servers: row.server_restrictions,
      seasons: row.season_restrictions,
    },
  };
}

/** The key id a token names; tokens that name none look up an id no key has (the same work either way). */
function keyIdOf(parsed: ParsedToken | null): string {
  return parsed !== null && parsed.type !== 'bootstrap' ? parsed.id : '00000000-0000-0000-0000-000000000000';
}

function uniq(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** API keys: issue, list, update, rotate, revoke, and verify a bearer token. Shared by HTTP and the CLI. */
export class KeyService {
  /** Epoch milliseconds of the latest use, by key id, not yet written. */
  private readonly lastUsed = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;

  /**
   * Key rows by id (null: no such key) with what verifying needs derived once (the stored digest, the
   * request's view of the key), so that verifying a token costs no query and little work on the hot path.
   */
  private readonly rows: Cache<string, VerifiedRow | null> | null;

  constructor(private readonly db: Db) {
    this.rows = cacheFor(db, 30_000, 20_000);
    const rows = this.rows;
    if (rows)
      db.changes?.subscribe((c) => {
        if (c === null || (c.topic === 'key' && c.ids.length === 0)) rows.clear();
        else if (c.topic === 'key') for (const id of c.ids) rows.delete(id);
      });
  }

  private changed(db: Queryable, ...ids: string[]): Promise<void> {
    return publishChange(db, { topic: 'key', ids });
  }

  toRecord(row: repo.ApiKeyRow): ApiKey {
    const pending = this.lastUsed.get(row.id);
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
      server_restrictions: row.server_restrictions,
      season_restrictions: row.season_restrictions,
      expires_at: iso(row.expires_at),
      last_used_at: iso(lastUsed),
      created_at: isoRequired(row.created_at),
      updated_at: isoRequired(row.updated_at),
      revoked_at: iso(row.revoked_at),
    };
  }

  /** Checks names, scopes, restrictions and expiry; restriction ids must belong to the workspace. */
  private async validate(workspaceId: string, type: KeyType, input: KeyInput): Promise<repo.KeyWrite> {
    const p = new Problems();
    const add = (field: string, message: string) => p.add(field, message);
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name.length < 1 || name.length > 100) add('name', 'must be 1 to 100 characters');
    const description = input.description ?? null;
    if (description !== null && (typeof description !== 'string' || description.length > 500)) {
      add('description', 'must be at most 500 characters');
    }
    const scopes = Array.isArray(input.scopes) ? input.scopes : [];
    if (scopes.length < 1) add('scopes', 'must hold at least one scope');
    if (new Set(scopes).size !== scopes.length) add('scopes', 'must not repeat a scope');
    for (const s of scopes) if (!isScope(s)) add('scopes', `unknown scope '${String(s).slice(0, 64)}'`);
    if (p.details.scopes === undefined) {
      const rule = scopeRuleViolation(type, scopes as Scope[]);
      if (rule) add('scopes', rule);
    }
    const players = uniq((input.player_restrictions ?? []).map((p) => String(p).toLowerCase()));
    if (players.length > 1000) add('player_restrictions', 'must hold at most 1000 UUIDs');
    if (players.some((p) => !isUuid(p))) add('player_restrictions', 'must hold player UUIDs');
    const servers = uniq((input.server_restrictions ?? []).map((p) => String(p).toLowerCase()));
    const seasons = uniq((input.season_restrictions ?? []).map((p) => String(p).toLowerCase()));
    for (const [field, ids, table] of [
      ['server_restrictions', servers, 'servers'],
      ['season_restrictions', seasons, 'seasons'],
    ] as const) {
      if (ids.length > 100) add(field, 'must hold at most 100 ids');
      else if (ids.some((id) => !isUuid(id))) add(field, 'must hold ids');
      else if (ids.length > 0) {
        const found = new Set(await repo.existingIds(this.db, table, workspaceId, ids));
        for (const id of ids) if (!found.has(id)) add(field, `unknown id ${id}`);
      }
    }
    const expiresAt = optionalDate(p, 'expires_at', input.expires_at);
    p.throwIfAny('The API key is invalid.');
    return {
      name,
      description,
      scopes,
      playerRestrictions: players,
      serverRestrictions: servers,
      seasonRestrictions: seasons,
      expiresAt,
    };
  }

  async create(workspaceId: string, input: CreateKeyInput): Promise<{ data: ApiKey; secret: string }> {
    if (!(KEY_TYPES as readonly string[]).includes(input.type)) {
      throw new AppError('INVALID_PAYLOAD', 'The API key is invalid.', {
        type: ['must be client, website or integration'],
      });
    }
    const type = input.type as KeyType;
    const write = await this.validate(workspaceId, type, input);
    return this.issue(workspaceId, type, write, null);
  }

  private async issue(
    workspaceId: string,
    type: KeyType,
    write: repo.KeyWrite,
    rotatedFrom: string | null,
    db = this.db as Parameters<typeof repo.insertKey>[0],
  ) {
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
    return (await repo.listKeys(this.db, workspaceId)).map((r) => this.toRecord(r));
  }

  async get(workspaceId: string, id: string): Promise<ApiKey> {
    return this.toRecord(await this.mustFind(workspaceId, id));
  }

  private async mustFind(workspaceId: string, id: string): Promise<repo.ApiKeyRow> {
    const row = isUuid(id) ? await repo.findKey(this.db, workspaceId, id.toLowerCase()) : null;
    if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
    return row;
  }

  /** Replaces name, description, scopes, restrictions and expiry (omitted lists and values are cleared). */
  async update(workspaceId: string, id: string, input: KeyInput): Promise<ApiKey> {
    const existing = await this.mustFind(workspaceId, id);
    const write = await this.validate(workspaceId, existing.type, input);
    const row = await repo.updateKey(this.db, workspaceId, existing.id, write);
    if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
    await this.changed(this.db, row.id);
    return this.toRecord(row);
  }

  /**
   * Issues a new key with the same settings and revokes the old one, at once or after `graceSeconds`.
   * A revoked key cannot be rotated back into use (409).
   */
  async rotate(
    workspaceId: string,
    id: string,
    graceSeconds = 0,
  ): Promise<{ data: ApiKey; secret: string; previous: ApiKey }> {
    const existing = await this.mustFind(workspaceId, id);
    if (statusOf(existing, Date.now()) === 'revoked')
      throw new AppError('CONFLICT', 'A revoked key cannot be rotated.');
    return this.db.transaction(async (tx) => {
      const at = graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000) : null;
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
      const issued = await this.issue(workspaceId, existing.type, write, existing.id, tx);
      return { ...issued, previous: this.toRecord(old) };
    });
  }

  async revoke(workspaceId: string, id: string): Promise<ApiKey> {
    const existing = await this.mustFind(workspaceId, id);
    const row = await repo.revokeKey(this.db, workspaceId, existing.id, null);
    if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
    await this.changed(this.db, row.id);
    return this.toRecord(row);
  }

  async setEnabled(workspaceId: string, id: string, enabled: boolean): Promise<ApiKey> {
    const existing = await this.mustFind(workspaceId, id);
    const row = await repo.setKeyEnabled(this.db, workspaceId, existing.id, enabled);
    if (!row) throw new AppError('NOT_FOUND', 'API key not found.');
    await this.changed(this.db, row.id);
    return this.toRecord(row);
  }

  /**
   * Verifies a bearer token. Malformed tokens and unknown ids do the same lookup and the same constant-time
   * comparison as real keys, so timing does not tell them apart. Returns null for every failure.
   */
  verify(token: string): AuthKey | null | Promise<AuthKey | null> {
    const parsed = parseToken(token);
    const id = keyIdOf(parsed);
    // The hot path: the key's row is cached, and the answer comes without a promise.
    const cached = this.rows?.peek(id);
    if (cached !== undefined) return this.check(parsed, cached);
    return this.loadVerified(id).then((entry) => this.check(parsed, entry));
  }

  /** The same work whether or not the key exists: one digest and one constant-time comparison. */
  private check(parsed: ParsedToken | null, entry: VerifiedRow | null): AuthKey | null {
    const matches = sameDigest(sha256Hex(parsed?.secret ?? ''), entry?.digest ?? DUMMY_DIGEST);
    if (!matches || !entry || !parsed || entry.row.type !== parsed.type) return null;
    const now = Date.now();
    if (!usable(entry.row, now)) return null;
    this.markUsed(entry.row.id, now);
    return entry.key;
  }

  private async loadVerified(id: string): Promise<VerifiedRow | null> {
    const load = async () => {
      const row = (await repo.findKeyById(this.db, id))[0];
      return row ? verifiedRow(row) : null;
    };
    return this.rows ? this.rows.get(id, load) : load();
  }

  /** last_used_at is collected in memory and written in one statement every few seconds, not per request. */
  private markUsed(id: string, at: number): void {
    this.lastUsed.set(id, at);
    if (this.flushTimer === null) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        this.flushLastUsed().catch(() => undefined);
      }, LAST_USED_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  async flushLastUsed(): Promise<void> {
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.lastUsed.size === 0) return;
    const entries = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    await repo.touchKeys(
      this.db,
      entries.map((e) => e[0]),
      entries.map((e) => new Date(e[1])),
    );
  }
}
