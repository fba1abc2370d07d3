import type { Actor } from '#src/access/principal.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
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

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {
    const enabled = changes.cache<string, Server | null>('server', 60_000, 10_000);
    this.enabled = enabled;
    changes.onChange((c) => {
      if (c === null) enabled?.clear();
      else if (c.topic === 'server') enabled?.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
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
