import type { AuthKey } from '#src/access/auth-key.ts';
import type { Actor } from '#src/access/principal.ts';
import { requireServer, restrictsServers } from '#src/access/restrictions.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody, Problems } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './repo.ts';
import { type Server, ServerRequest } from './schemas.ts';

/** Hostnames match case-insensitively, with a trailing dot ignored. */
export function normalizeHostname(hostname: string): string {
  const h = hostname.trim().toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function toServer(row: repo.ServerRow): Server {
  return {
    ...row,
    last_ingest_at: row.last_ingest_at === null ? null : isoRequired(row.last_ingest_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

function conflict(write: repo.ServerWrite, err: unknown): AppError {
  return new AppError('CONFLICT', `A server ${write.hostname}:${write.port} is already registered.`, undefined, {
    cause: err,
  });
}

/** Registered game servers; ingest accepts batches only for an enabled one. */
export class ServerService {
  /** Enabled servers by `workspace|hostname|port` (null: none), for the ingest hot path. */
  private readonly enabled: Cache<string, Server | null> | null;
  /** Whether a server id is the workspace's, by `workspace|id` (the `server=` of reads). */
  private readonly known: Cache<string, boolean> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {
    const enabled = changes.cache<string, Server | null>('server', 60_000, 10_000);
    this.enabled = enabled;
    const known = changes.cache<string, boolean>('server_id', 60_000, 10_000);
    this.known = known;
    changes.onChange((c) => {
      if (c === null) {
        enabled?.clear();
        known?.clear();
      } else if (c.topic === 'server') {
        enabled?.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
        known?.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      }
    });
  }

  private settings(input: unknown): repo.ServerWrite {
    const body = checkBody(ServerRequest, input, 'The server is invalid.');
    const hostname = normalizeHostname(body.hostname);
    const p = new Problems();
    if (hostname === '') p.add('hostname', 'must not be empty');
    p.throwIfAny('The server is invalid.');
    return {
      name: body.name?.trim() ?? hostname,
      displayName: body.display_name?.trim() ?? null,
      hostname,
      port: body.port,
      enabled: body.enabled !== false,
    };
  }

  async create(actor: Actor, workspaceId: string, input: unknown): Promise<Server> {
    const write = this.settings(input);
    try {
      return await this.db.transaction(async (tx) => {
        const created = toServer(await repo.insertServer(tx, workspaceId, write));
        await this.changes.publish(tx, { topic: 'server', workspaceId });
        await this.audit.record(tx, actor, {
          workspaceId,
          action: 'SERVER_CREATED',
          targetType: 'server',
          targetId: created.id,
          before: null,
          after: created,
        });
        return created;
      });
    } catch (err) {
      throw sqlState(err) === UNIQUE_VIOLATION ? conflict(write, err) : err;
    }
  }

  /** Replaces a server's settings (PUT). */
  async update(actor: Actor, workspaceId: string, id: string, input: unknown): Promise<Server> {
    const write = this.settings(input);
    try {
      return await this.db.transaction(async (tx) => {
        const before = await this.find(tx, workspaceId, id);
        const row = await repo.updateServer(tx, workspaceId, before.id, write);
        if (!row) throw new AppError('NOT_FOUND', 'Server not found.');
        const after = toServer(row);
        await this.changes.publish(tx, { topic: 'server', workspaceId });
        await this.audit.record(tx, actor, {
          workspaceId,
          action: 'SERVER_UPDATED',
          targetType: 'server',
          targetId: after.id,
          before,
          after,
        });
        return after;
      });
    } catch (err) {
      throw sqlState(err) === UNIQUE_VIOLATION ? conflict(write, err) : err;
    }
  }

  private async find(db: Queryable, workspaceId: string, id: string): Promise<Server> {
    const row = isUuid(id) ? await repo.findServer(db, workspaceId, id.toLowerCase()) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Server not found.');
    return toServer(row);
  }

  /** One of the workspace's servers; unknown is 404. */
  async get(workspaceId: string, id: string): Promise<Server> {
    return this.find(this.db, workspaceId, id);
  }

  /** Whether `id` is one of the workspace's servers (cached: the `server=` of every read asks). */
  async exists(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const load = async () => (await repo.findServer(this.db, workspaceId, id.toLowerCase())) !== null;
    return this.known ? this.known.get(`${workspaceId}|${id.toLowerCase()}`, load) : load();
  }

  /**
   * The servers a key read sums its values over (`server=`: `asked`): null for the network totals (every server of
   * the workspace, the stored `player_stats` rows), else those servers' values alone. A key restricted to servers
   * reads the sum over its servers; `server=` outside them is 403 whether or not it exists (a restricted key cannot
   * probe for servers), an unknown one 404. At once (no promise) without `server=`.
   */
  readScope(key: AuthKey, asked: string | undefined): Maybe<readonly string[] | null> {
    if (asked === undefined) return restrictsServers(key) ? key.servers : null;
    const id = asked.toLowerCase();
    requireServer(key, id, 'read');
    return this.exists(key.workspaceId, id).then((found) => {
      if (!found) throw new AppError('NOT_FOUND', 'Server not found.');
      return [id];
    });
  }

  /**
   * The server whose values an import writes: `id` when given (unknown: 404), else the workspace's only server;
   * none, or several without `id`, is refused with what to do.
   */
  async importTarget(workspaceId: string, id: string | undefined): Promise<Server> {
    if (id !== undefined) return this.get(workspaceId, id);
    const all = await this.list(workspaceId);
    if (all.length === 1) return all[0]!;
    if (all.length === 0) {
      throw new AppError(
        'INVALID_PAYLOAD',
        'The workspace has no server: register the server these values come from.',
        {
          server: ['register a server first'],
        },
      );
    }
    throw new AppError(
      'INVALID_PAYLOAD',
      `The workspace has ${all.length} servers: name the one these values come from with --server ID.`,
      { server: ['required when the workspace has several servers'] },
    );
  }

  async list(workspaceId: string): Promise<Server[]> {
    return (await repo.listServers(this.db, workspaceId)).map(toServer);
  }

  /** The enabled server registered for this hostname and port, or null. */
  async findEnabled(workspaceId: string, hostname: string, port: number): Promise<Server | null> {
    const host = normalizeHostname(hostname);
    const load = async () => {
      const row = await repo.findEnabledServer(this.db, workspaceId, host, port);
      return row ? toServer(row) : null;
    };
    return this.enabled ? this.enabled.get(`${workspaceId}|${host}|${port}`, load) : load();
  }

  /** The server with this id if it is enabled, else null (the server of an `ingest:server` key's uploads). */
  async findEnabledById(workspaceId: string, id: string): Promise<Server | null> {
    const load = async () => {
      const row = isUuid(id) ? await repo.findServer(this.db, workspaceId, id.toLowerCase()) : null;
      return row?.enabled ? toServer(row) : null;
    };
    return this.enabled ? this.enabled.get(`${workspaceId}|#${id}`, load) : load();
  }
}
