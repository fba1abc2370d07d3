import { type Cache, cacheFor } from '#src/cache/cache.ts';
import { type Db, publishChange } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { sqlState, UNIQUE_VIOLATION } from '#src/lib/pg-errors.ts';
import { isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { Problems, text } from '#src/lib/validate.ts';
import * as repo from './repo.ts';

export interface Server {
  id: string;
  workspace_id: string;
  name: string;
  display_name: string | null;
  hostname: string;
  port: number;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface ServerInput {
  name?: unknown;
  display_name?: unknown;
  hostname?: unknown;
  port?: unknown;
  enabled?: unknown;
}

/** DECISIONS: hostnames match case-insensitively with a trailing dot ignored. */
export function normalizeHostname(hostname: string): string {
  const h = hostname.trim().toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function toServer(row: repo.ServerRow): Server {
  return { ...row, created_at: isoRequired(row.created_at), updated_at: isoRequired(row.updated_at) };
}

/** Registered game servers; ingest accepts batches only for an enabled one. */
export class ServerService {
  /** Enabled servers by `workspace|hostname|port` (null: none), for the ingest hot path. */
  private readonly enabled: Cache<string, Server | null> | null;

  constructor(private readonly db: Db) {
    const enabled = cacheFor<string, Server | null>(db, 60_000, 10_000);
    this.enabled = enabled;
    if (enabled) {
      db.changes?.subscribe((c) => {
        if (c === null) enabled.clear();
        else if (c.topic === 'server') enabled.deleteWhere((k) => k.startsWith(`${c.workspaceId}|`));
      });
    }
  }

  private validate(input: ServerInput): repo.ServerWrite {
    const p = new Problems();
    const hostname = normalizeHostname(text(p, 'hostname', input.hostname, 1, 253));
    if (hostname === '' && p.details.hostname === undefined) p.add('hostname', 'must not be empty');
    const name = input.name === undefined || input.name === null ? hostname : text(p, 'name', input.name, 1, 120);
    let displayName: string | null = null;
    if (input.display_name !== undefined && input.display_name !== null) {
      displayName = text(p, 'display_name', input.display_name, 1, 160);
    }
    const port = input.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      p.add('port', 'must be an integer from 1 to 65535');
    }
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean') p.add('enabled', 'must be a boolean');
    p.throwIfAny('The server is invalid.');
    return { name, displayName, hostname, port: port as number, enabled: input.enabled !== false };
  }

  async create(workspaceId: string, input: ServerInput): Promise<Server> {
    const write = this.validate(input);
    try {
      const created = toServer(await repo.insertServer(this.db, workspaceId, write));
      await publishChange(this.db, { topic: 'server', workspaceId });
      return created;
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) {
        throw new AppError('CONFLICT', `A server ${write.hostname}:${write.port} is already registered.`, undefined, {
          cause: err,
        });
      }
      throw err;
    }
  }

  async update(workspaceId: string, id: string, input: ServerInput): Promise<{ before: Server; after: Server }> {
    const before = await this.get(workspaceId, id);
    const write = this.validate(input);
    try {
      const row = await repo.updateServer(this.db, workspaceId, before.id, write);
      if (!row) throw new AppError('NOT_FOUND', 'Server not found.');
      await publishChange(this.db, { topic: 'server', workspaceId });
      return { before, after: toServer(row) };
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) {
        throw new AppError('CONFLICT', `A server ${write.hostname}:${write.port} is already registered.`, undefined, {
          cause: err,
        });
      }
      throw err;
    }
  }

  async get(workspaceId: string, id: string): Promise<Server> {
    const row = isUuid(id) ? await repo.findServer(this.db, workspaceId, id.toLowerCase()) : null;
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
}
