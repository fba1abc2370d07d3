import { loadConfig } from '../../../apps/statboard/src/config.ts';
import { migrate } from '../../../apps/statboard/src/db/migrate.ts';
import { openDatabase } from '../../../apps/statboard/src/db/open.ts';
import type { Db } from '../../../apps/statboard/src/db/types.ts';
import { CLI_ACTOR } from '../../../apps/statboard/src/modules/audit-log/service.ts';
import { buildServices } from '../../../apps/statboard/src/services.ts';
import type { ModClient } from './mods.ts';

export const STAT = 'minecraft.custom:minecraft.jump';

/** Where the service keeps its data: a PostgreSQL URL, or an embedded data directory. */
export type Target = { url: string } | { dataDir: string };

export function open(target: Target): Promise<Db> {
  return 'url' in target
    ? openDatabase({ databaseUrl: target.url, dataDir: '/nonexistent', databasePoolSize: 2 })
    : openDatabase({ databaseUrl: null, dataDir: target.dataDir, databasePoolSize: 1 });
}

/** A migrated database with a workspace, the server mc.example.com:25565, an active season and a client key. */
export async function seed(target: Target): Promise<{ clientKey: string; workspaceId: string }> {
  const db = await open(target);
  try {
    await migrate(db);
    const services = buildServices(db, loadConfig({}));
    const ws = await services.workspaces.create(CLI_ACTOR, { name: 'Chaos' });
    await services.servers.create(CLI_ACTOR, ws.id, { name: 'Main', hostname: 'mc.example.com', port: 25565 });
    await services.seasons.create(CLI_ACTOR, ws.id, { name: 'Season 1', slug: 's1', active: true });
    const key = await services.keys.create(CLI_ACTOR, ws.id, {
      name: 'mods',
      type: 'client',
      scopes: ['ingest:write'],
    });
    await services.flush();
    return { clientKey: key.secret, workspaceId: ws.id };
  } finally {
    await db.close();
  }
}

/** What the database holds for the clients: each player's value, and how many times each event id is stored. */
export interface Ledger {
  lost: string[];
  duplicated: string[];
  acked: number;
}

/**
 * Checks every acknowledged batch against the database: the stored value is at least the last acknowledged
 * one (values only grow), every acknowledged event is stored, and no event is stored twice.
 */
export async function checkLedger(target: Target, workspaceId: string, mods: ModClient[]): Promise<Ledger> {
  // What was acknowledged up to now, taken before the database is read: clients may still be uploading.
  const seen = mods.map((m) => ({ uuid: m.uuid, last: m.lastAcked, acked: [...m.acked] }));
  const db = await open(target);
  try {
    const values = new Map(
      (
        await db.query<{ uuid: string; value: number }>(
          `SELECT p.uuid::text AS uuid, s.value FROM player_stats s JOIN players p ON p.id = s.player_id
           WHERE p.workspace_id = $1`,
          [workspaceId],
        )
      ).map((r) => [r.uuid, Number(r.value)]),
    );
    const events = await db.query<{ id: string; n: number }>(
      'SELECT id::text AS id, count(*)::int AS n FROM events WHERE workspace_id = $1 GROUP BY id',
      [workspaceId],
    );
    const stored = new Map(events.map((e) => [e.id, e.n]));
    const lost: string[] = [];
    let acked = 0;
    for (const m of seen) {
      const last = m.last;
      if (last && (values.get(m.uuid) ?? 0) < last.value) {
        lost.push(`${m.uuid}: value ${values.get(m.uuid)} < acknowledged ${last.value}`);
      }
      for (const b of m.acked) {
        acked++;
        if (!stored.has(b.eventId)) lost.push(`${m.uuid}: event ${b.eventId} (value ${b.value}) missing`);
      }
    }
    return { lost, duplicated: events.filter((e) => e.n > 1).map((e) => e.id), acked };
  } finally {
    await db.close();
  }
}
