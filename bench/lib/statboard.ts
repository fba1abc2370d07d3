import { READ_SCOPES } from '../../apps/statboard/src/access/scopes.ts';
import { loadConfig } from '../../apps/statboard/src/config.ts';
import { migrate } from '../../apps/statboard/src/db/migrate.ts';
import { openDatabase } from '../../apps/statboard/src/db/open.ts';
import type { Db } from '../../apps/statboard/src/db/types.ts';
import { CLI_ACTOR as ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { BENCH_SERVERS } from './traffic.ts';

export interface BenchWorkspace {
  workspaceId: string;
  /** The first server (BENCH_SERVERS[0]). */
  serverId: string;
  /** Every registered server, by index into BENCH_SERVERS (the first is `serverId`). */
  serverIds: string[];
  seasonId: string;
  /** Client key (ingest:write). */
  clientToken: string;
  /** Website key (all read scopes). */
  websiteToken: string;
}

/** Where a benchmark's database lives: a PostgreSQL URL, or a PGlite data directory (DATA_DIR). */
export type DbTarget = { url: string } | { dataDir: string };

/** Opens the target the way the service does (PGlite: under DATA_DIR/pglite, with its pid lock). */
export function openTarget(target: DbTarget, poolSize = 4): Promise<Db> {
  return 'url' in target
    ? openDatabase({ databaseUrl: target.url, dataDir: '/nonexistent', databasePoolSize: poolSize })
    : openDatabase({ databaseUrl: null, dataDir: target.dataDir, databasePoolSize: 1 });
}

/**
 * Migrates and seeds through the service layer (no CLI, no raw SQL): a workspace (`Bench`, slug `bench`, unless
 * `options.workspace` names another), the servers of BENCH_SERVERS
 * (mc.example.com:25565 and mc2.example.com:25565, both enabled; only the first with `servers: 1`), the active
 * season `s1`, a client key and a website key. The handle stays open for `extra` (bulk SQL seeding) and is closed
 * before this returns.
 */
export async function seedStatboard(
  target: DbTarget,
  extra?: (db: Db, ws: BenchWorkspace) => Promise<void>,
  options: { servers?: number; workspace?: { name: string; slug: string } } = {},
): Promise<BenchWorkspace> {
  const db = await openTarget(target);
  try {
    await migrate(db);
    const services = buildServices(db, loadConfig({}));
    const ws = await services.workspaces.create(ACTOR, options.workspace ?? { name: 'Bench' });
    const serverIds: string[] = [];
    for (const [i, s] of BENCH_SERVERS.slice(0, options.servers ?? BENCH_SERVERS.length).entries()) {
      const server = await services.servers.create(ACTOR, ws.id, {
        name: i === 0 ? 'Main' : `Server ${i + 1}`,
        hostname: s.hostname,
        port: s.port,
      });
      serverIds.push(server.id);
    }
    const season = await services.seasons.create(ACTOR, ws.id, { name: 'Season 1', slug: 's1', active: true });
    const client = await services.keys.create(ACTOR, ws.id, { name: 'mod', type: 'client', scopes: ['ingest:write'] });
    const website = await services.keys.create(ACTOR, ws.id, {
      name: 'site',
      type: 'website',
      scopes: [...READ_SCOPES],
    });
    const out: BenchWorkspace = {
      workspaceId: ws.id,
      serverId: serverIds[0]!,
      serverIds,
      seasonId: season.id,
      clientToken: client.secret,
      websiteToken: website.secret,
    };
    if (extra) await extra(db, out);
    await services.flush();
    return out;
  } finally {
    await db.close();
  }
}

/** What `npm start` runs: the service's bundle, which `startServer` builds first as `npm start` does (`prestart`). */
export const SERVICE_SCRIPT = 'apps/statboard/dist/server.js';
export const READY_PATH = '/health/ready';

/**
 * The service's environment for a target: its defaults (access log at `info`, development login), with
 * DATABASE_URL or DATA_DIR, and the in-process rate limiter counting every request against a limit no benchmark
 * reaches (so its cost is measured too). Its stdout (the log) goes to a file: see `startServer`.
 */
export function serviceEnv(target: DbTarget): Record<string, string> {
  return 'url' in target
    ? { DATABASE_URL: target.url, RATE_LIMIT_PER_MINUTE: '10000000' }
    : { DATABASE_URL: '', DATA_DIR: target.dataDir, RATE_LIMIT_PER_MINUTE: '10000000' };
}
