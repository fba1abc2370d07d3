import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthKey } from '#src/access/auth-key.ts';
import { CHANGE_CHANNEL, ChangeBus } from '#src/cache/bus.ts';
import type { Config } from '#src/config.ts';
import { openPg } from '#src/db/pg.ts';
import type { Db } from '#src/db/types.ts';
import { CompactBoard } from '#src/modules/leaderboards/compact-board.ts';
import type { Leaderboard, LeaderboardQuery } from '#src/modules/leaderboards/service.ts';
import { buildServices, type Services } from '#src/services.ts';
import {
  ACTOR,
  createTestDb,
  type Fixture,
  modBatch,
  seedWorkspace,
  TEST_DATABASE_URL,
  type TestDb,
  testConfig,
} from '../helpers.ts';

/** Two instances of the service layer on one PostgreSQL database, as two processes behind a load balancer. */
async function instance(
  url: string,
  overrides: Partial<Config> = {},
): Promise<{ db: Db; bus: ChangeBus; services: Services; close(): Promise<void> }> {
  const db = openPg(url, { poolSize: 3 });
  const bus = await ChangeBus.postgres(url, async (payload) => {
    await db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
  });
  const services = buildServices(db, { ...testConfig(), ...overrides }, { bus });
  return {
    db,
    bus,
    services,
    async close() {
      await bus.close();
      await db.close();
    },
  };
}

/** The leaderboard answer as an object. */
async function board(services: Services, key: AuthKey, q: LeaderboardQuery): Promise<Leaderboard> {
  return JSON.parse((await services.leaderboards.json(key, q)).toString('utf8'));
}

async function eventually(check: () => Promise<boolean>, ms = 2_000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now() - start;
}

describe.skipIf(TEST_DATABASE_URL === null)('several instances sharing PostgreSQL', () => {
  let t: TestDb;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  let fx: Fixture;

  beforeAll(async () => {
    t = await createTestDb();
    a = await instance(t.url!);
    b = await instance(t.url!);
    fx = await seedWorkspace(a.services);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
  });

  it('a key revoked on one instance fails on the other within milliseconds, though the other had it cached', async () => {
    const { data, secret } = await a.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'x',
      type: 'website',
      scopes: ['stats:read'],
    });
    expect(await b.services.verifier.verify(secret)).not.toBeNull(); // now cached on b
    await a.services.keys.revoke(ACTOR, fx.workspaceId, data.id);
    const waited = await eventually(async () => (await b.services.verifier.verify(secret)) === null);
    expect(waited).toBeLessThan(500);
  });

  it('a session ended or a role changed on one instance is refused or changed on the other, which kept it', async () => {
    const identity = {
      issuer: 'https://idp.example',
      subject: 'kept',
      email: 'kept@example.com',
      emailVerified: true,
      displayName: 'K',
    };
    const user = await a.services.users.upsertFromLogin(identity, new Date());
    await a.services.db.transaction((tx) => a.services.users.addOwner(tx, fx.workspaceId, user.id));
    const { id } = await a.services.sessions.create(user.id);
    const roleOnB = async () => (await b.services.sessions.signedIn(id))?.role;
    await eventually(async () => (await roleOnB()) === 'owner');
    // Kept on b: answered without a query. (A second owner lets the first be demoted.)
    await eventually(async () => !(b.services.sessions.signedIn(id) instanceof Promise));
    const other = await a.services.users.upsertFromLogin(
      { ...identity, subject: 'other', email: 'o@example.com' },
      new Date(),
    );
    await a.services.db.transaction((tx) => a.services.users.addOwner(tx, fx.workspaceId, other.id));
    await a.services.users.setRole({ ...ACTOR, userId: other.id, role: 'owner' }, fx.workspaceId, user.id, {
      role: 'readonly',
    });
    expect(await eventually(async () => (await roleOnB()) === 'readonly')).toBeLessThan(500);
    await a.services.sessions.destroy(id);
    expect(await eventually(async () => (await b.services.sessions.signedIn(id)) === null)).toBeLessThan(500);
  });

  it('a leaderboard cached on one instance shows values ingested through the other', async () => {
    const key = (await b.services.verifier.verify(fx.keys.website!))!;
    const stat = 'minecraft.mined:minecraft.stone';
    const ingestKey = (await a.services.verifier.verify(fx.keys.client!))!;
    await a.services.ingest.ingest(ingestKey, modBatch({ stats: [{ key: stat, value: 5 }] }) as never);
    const first = await board(b.services, key, { season: 's1', stat });
    expect(first.entries[0]?.value).toBe(5);
    await a.services.ingest.ingest(
      ingestKey,
      modBatch({ stats: [{ key: stat, value: 9 }], observedAt: new Date(Date.now() + 1000).toISOString() }) as never,
    );
    await eventually(async () => (await board(b.services, key, { season: 's1', stat })).entries[0]?.value === 9);
  });

  it('a compact rank board on one instance is read again after values ingested through the other', async () => {
    // Every board compact on this instance (no room for full entries).
    const c = await instance(t.url!, { rankCacheEntries: 0 });
    try {
      const key = (await c.services.verifier.verify(fx.keys.website!))!;
      const ingestKey = (await a.services.verifier.verify(fx.keys.client!))!;
      const stat = 'compact:multi';
      const players = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const send = (i: number, value: number, observedAt: string) =>
        a.services.ingest.ingest(
          ingestKey,
          modBatch({
            uuid: players[i],
            username: `M${i}`,
            sessionId: crypto.randomUUID(),
            observedAt,
            stats: [{ key: stat, value }],
          }) as never,
        );
      for (const i of [0, 1, 2]) await send(i, 10 * (i + 1), '2026-10-01T00:00:00Z');
      const [def] = await a.db.query<{ id: string }>(
        'SELECT id FROM stat_definitions WHERE workspace_id = $1 AND key = $2',
        [fx.workspaceId, stat],
      );
      const ref = { workspaceId: fx.workspaceId, seasonId: fx.seasonId, statId: def!.id, order: 'desc' as const };
      const rank = async (i: number) =>
        JSON.parse(
          (await c.services.leaderboards.rankJson(key, { season: 's1', stat, player: players[i]! })).toString(),
        ).entry.rank as number;
      await eventually(
        async () => (await rank(0)) === 3 && c.services.leaderboards.boards.ready(ref) instanceof CompactBoard,
      );
      await send(0, 99, '2026-10-02T00:00:00Z');
      await eventually(async () => (await rank(0)) === 1 && (await rank(2)) === 2);
    } finally {
      await c.close();
    }
  });

  it('screening on one instance judges a client upload against a value written through the other', async () => {
    const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
    const H = 72_000; // its default max_per_hour
    const client = (await a.services.verifier.verify(fx.keys.client!))!;
    const tool = (await b.services.verifier.verify(fx.keys.integration!))!;
    const p = crypto.randomUUID();
    let at = Date.now() - 60_000;
    const send = (services: Services, key: AuthKey, value: number) => {
      at += 1_000;
      return services.ingest.ingest(
        key,
        modBatch({
          uuid: p,
          username: 'Multi',
          stats: [{ key: PLAY_TIME, value }],
          observedAt: new Date(at).toISOString(),
        }) as never,
      );
    };
    const stored = async () =>
      (
        await a.db.query<{ value: number }>(
          `SELECT s.value FROM server_stats s JOIN players p ON p.id = s.player_id
           JOIN stat_definitions d ON d.id = s.stat_id WHERE p.uuid = $1 AND d.key = $2`,
          [p, PLAY_TIME],
        )
      )[0]?.value;
    const memory = a.services.screening.memory!;
    const held = () => memory.holds(fx.workspaceId, fx.seasonId, fx.serverId, p);
    await send(a.services, client, 1_000);
    await send(a.services, client, 1_001);
    expect(held()).toBe(true); // a knows the player's values now
    // Through b (an integration key: not screened), a value a would hold as too fast a rise from 1,001.
    await send(b.services, tool, 1_000 + 40 * H);
    await eventually(async () => !held());
    await send(a.services, client, 1_000 + 40 * H + 100);
    expect(await stored()).toBe(1_000 + 40 * H + 100);
    expect(held()).toBe(true);
  });

  it('a season activated on one instance is the one the other ingests into', async () => {
    const s2 = await a.services.seasons.create(ACTOR, fx.workspaceId, { name: 'S2', slug: 's2' });
    expect((await b.services.seasons.active(fx.workspaceId))?.slug).toBe('s1'); // cached on b
    await a.services.seasons.activate(ACTOR, fx.workspaceId, s2.id);
    await eventually(async () => (await b.services.seasons.active(fx.workspaceId))?.slug === 's2');
  });

  it('stops using its caches while it cannot listen, and resumes after reconnecting', async () => {
    const bus = b.bus;
    expect(bus.healthy).toBe(true);
    // Kill b's LISTEN connection from the server side.
    await a.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await eventually(async () => !bus.healthy);
    await eventually(async () => bus.healthy, 5_000);
  });
});
