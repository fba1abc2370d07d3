import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '#src/db/types.ts';
import { listAllPlayers } from '#src/modules/players/admin-repo.ts';
import { ADMIN_PLAYER_LIMIT } from '#src/modules/players/admin-service.ts';
import { listPublicPlayers } from '#src/modules/players/repo.ts';
import {
  ACTOR,
  createTestContext,
  DB_KIND,
  type Fixture,
  modBatch,
  seedWorkspace,
  type TestContext,
} from '../helpers.ts';
import { getJson, ingestOk } from '../http/support.ts';

/**
 * GET /players and GET /admin/players at scale (migration 0011): the unfiltered total comes from
 * `workspace_player_counts`, kept by triggers on `players`; it must stay exactly the number of public players
 * through every way players change. Filtered totals and pages are checked against the database's own count.
 */
describe(`player lists at scale: exact totals and searches (${DB_KIND})`, () => {
  let ctx: TestContext;
  let fx: Fixture;
  let other: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services, 'Counts');
    other = await seedWorkspace(ctx.services, 'Counts other');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const one = async (sql: string, params: unknown[] = []) =>
    (await ctx.db.query<{ n: number | null }>(sql, params))[0]?.n ?? null;
  /** The number of public players, counted. */
  const truth = (ws: string) =>
    one('SELECT count(*)::int AS n FROM players WHERE workspace_id = $1 AND public', [ws]) as Promise<number>;
  /** The counter row (null: none, no public player yet). */
  const counter = (ws: string) =>
    one('SELECT public_players::int AS n FROM workspace_player_counts WHERE workspace_id = $1', [ws]);

  async function page(token: string, query: string) {
    const res = await getJson(ctx, token, `/api/v1/players${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: { uuid: string; username: string; public: boolean }[];
      meta: { total: number; per_page: number; current_page: number };
    };
  }
  const apiTotal = async (f: Fixture, query = '') => (await page(f.keys.website!, `?per_page=1${query}`)).meta.total;

  /** The unfiltered total of the API, the counter and a count over the players all agree. */
  async function expectExact(f: Fixture, expected?: number): Promise<number> {
    const n = await truth(f.workspaceId);
    if (expected !== undefined) expect(n).toBe(expected);
    expect(await apiTotal(f)).toBe(n);
    expect((await counter(f.workspaceId)) ?? 0).toBe(n);
    return n;
  }

  async function upload(f: Fixture, username: string, uuid: string = randomUUID()): Promise<string> {
    await ingestOk(ctx, f.keys.client!, modBatch({ uuid, username, sessionId: randomUUID() }));
    return uuid;
  }

  /** Runs SQL that changes players, and tells the caches of `workspaces`, as a change by the services would. */
  async function write(sql: string, params: unknown[], ...workspaces: string[]): Promise<void> {
    await ctx.db.query(sql, params);
    for (const workspaceId of workspaces) await ctx.bus.publish({ topic: 'player', workspaceId });
  }

  const setPublic = (f: Fixture, uuid: string, isPublic: boolean) =>
    ctx.services.playerAdmin.update(ACTOR, f.workspaceId, uuid, { public: isPublic });

  it('counts each new player once: a second upload of the same player, or a rename, changes nothing', async () => {
    await expectExact(fx, 0);
    const ids: string[] = [];
    for (const name of ['Alice', 'Bob', 'Carol']) ids.push(await upload(fx, name));
    await expectExact(fx, 3);
    await upload(fx, 'Alice', ids[0]);
    await upload(fx, 'Alicia', ids[0]);
    await expectExact(fx, 3);
    expect((await page(fx.keys.website!, '?search=alicia')).data.map((p) => p.uuid)).toEqual([ids[0]]);
    // Another workspace's players are counted there only.
    await upload(other, 'Stranger');
    await expectExact(other, 1);
    await expectExact(fx, 3);
  });

  it('follows visibility changes, and only real ones', async () => {
    const n = await expectExact(fx);
    const id = await upload(fx, 'Shy');
    await expectExact(fx, n + 1);
    await setPublic(fx, id, false);
    await expectExact(fx, n);
    await setPublic(fx, id, false);
    await expectExact(fx, n);
    // An update that does not touch visibility (as every upload's) leaves the count alone.
    await write(
      'UPDATE players SET updated_at = now(), public = public WHERE workspace_id = $1',
      [fx.workspaceId],
      fx.workspaceId,
    );
    await upload(fx, 'Shy', id);
    await expectExact(fx, n);
    await setPublic(fx, id, true);
    await expectExact(fx, n + 1);
    await setPublic(fx, id, false);
    await expectExact(fx, n);
  });

  it('follows deletes and moves of players, and statements of many rows', async () => {
    const n = await expectExact(fx);
    const gone = await upload(fx, 'Gone');
    const hidden = await upload(fx, 'GoneHidden');
    await setPublic(fx, hidden, false);
    await expectExact(fx, n + 1);
    await write(
      'DELETE FROM players WHERE workspace_id = $1 AND uuid = ANY($2::uuid[])',
      [fx.workspaceId, [gone, hidden]],
      fx.workspaceId,
    );
    await expectExact(fx, n);

    // One statement of 50 new players (10 hidden), as an import writes them.
    await write(
      `INSERT INTO players (workspace_id, uuid, username, username_observed_at, public)
       SELECT $1, gen_random_uuid(), 'bulk' || g, now(), g % 5 <> 0 FROM generate_series(1, 50) g`,
      [fx.workspaceId],
      fx.workspaceId,
    );
    await expectExact(fx, n + 40);
    const o = await expectExact(other);
    await write(
      `UPDATE players SET workspace_id = $2 WHERE workspace_id = $1 AND username IN ('bulk1', 'bulk2', 'bulk5')`,
      [fx.workspaceId, other.workspaceId],
      fx.workspaceId,
      other.workspaceId,
    );
    await expectExact(fx, n + 38);
    await expectExact(other, o + 2);
    await write("DELETE FROM players WHERE username LIKE 'bulk%'", [], fx.workspaceId, other.workspaceId);
    await expectExact(fx, n);
    await expectExact(other, o);
  });

  it('drops the counter with its workspace', async () => {
    // Made directly: a workspace made by the services has audit records, which refuse deletion.
    const ws = (
      await ctx.db.query<{ id: string }>("INSERT INTO workspaces (name, slug) VALUES ('Doomed', 'doomed') RETURNING id")
    )[0]!.id;
    await ctx.db.query(
      `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
       SELECT $1, gen_random_uuid(), 'doomed' || g, now() FROM generate_series(1, 7) g`,
      [ws],
    );
    expect(await counter(ws)).toBe(7);
    const before = [await truth(fx.workspaceId), await truth(other.workspaceId)];
    await ctx.db.query('DELETE FROM workspaces WHERE id = $1', [ws]);
    expect(await counter(ws)).toBeNull();
    expect(await one('SELECT count(*)::int AS n FROM players WHERE workspace_id = $1', [ws])).toBe(0);
    expect([await counter(fx.workspaceId), await counter(other.workspaceId)]).toEqual(before);
  });

  it('stays exact under concurrent uploads that bring new players (some of them the same)', async () => {
    const n = await expectExact(fx);
    const fresh = Array.from({ length: 30 }, () => randomUUID());
    // 60 uploads at once: every new player twice, so that uploads of the same new player race.
    await Promise.all([...fresh, ...fresh].map((id, i) => upload(fx, `Rush${i % 30}`, id)));
    await expectExact(fx, n + 30);

    // Transactions of the database itself, at once, over overlapping sets of new players, each holding its
    // counter row a moment before committing.
    const more = Array.from({ length: 24 }, () => randomUUID()).sort();
    await Promise.all(
      [0, 4, 8, 12, 16].map((from) =>
        ctx.db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
             SELECT $1, u, 'race', now() FROM unnest($2::uuid[]) AS t(u) ORDER BY u
             ON CONFLICT (workspace_id, uuid) DO UPDATE SET last_seen_at = now()`,
            [fx.workspaceId, more.slice(from, from + 8)],
          );
          await tx.query('SELECT pg_sleep(0.02)');
        }),
      ),
    );
    await ctx.bus.publish({ topic: 'player', workspaceId: fx.workspaceId });
    await expectExact(fx, n + 30 + 24);
    await write(
      "DELETE FROM players WHERE workspace_id = $1 AND (username LIKE 'Rush%' OR username = 'race')",
      [fx.workspaceId],
      fx.workspaceId,
    );
    await expectExact(fx, n);
  });

  describe('searches, usernames and restricted keys', () => {
    const NAMES = [
      'Alice2',
      'alfred',
      'ALBERT',
      'MalAlgo',
      'Bob2',
      'a_b',
      'axb',
      'a%b',
      '100%',
      '1000',
      'back\\slash',
      'Zed',
      'Ärger',
      'ärgerlich',
      'Hidden_al',
    ];
    const ids = new Map<string, string>();

    beforeAll(async () => {
      for (const name of NAMES) ids.set(name, await upload(fx, name));
      await setPublic(fx, ids.get('Hidden_al')!, false);
    });

    /** The public players whose username holds `term` (case-insensitive, every character literal), in order. */
    async function expected(term: string): Promise<string[]> {
      const rows = await ctx.db.query<{ uuid: string }>(
        `SELECT uuid FROM players WHERE workspace_id = $1 AND public AND strpos(lower(username), lower($2)) > 0
         ORDER BY lower(username), uuid`,
        [fx.workspaceId, term],
      );
      return rows.map((r) => r.uuid);
    }

    /** Every page of a search, concatenated, and the totals the pages gave. */
    async function allPages(token: string, query: string): Promise<{ uuids: string[]; totals: number[] }> {
      const uuids: string[] = [];
      const totals: number[] = [];
      for (let p = 1; ; p++) {
        const res = await page(token, `?per_page=3&page=${p}${query}`);
        totals.push(res.meta.total);
        uuids.push(...res.data.map((d) => d.uuid));
        if (res.data.length < 3) break;
      }
      return { uuids, totals };
    }

    const TERMS = ['AL', 'al', 'a', 'A', '_', '%', 'a_b', 'a%b', '100%', '\\', 'back\\', 'Alg', 'LICE', 'ärg', 'ÄRG'];
    for (const term of [...TERMS, 'nobody', 'e2']) {
      it(`finds exactly the public players whose username holds ${JSON.stringify(term)}, in order, on every page`, async () => {
        const want = await expected(term);
        const got = await allPages(fx.keys.website!, `&search=${encodeURIComponent(term)}`);
        expect(got.uuids).toEqual(want);
        expect(new Set(got.totals)).toEqual(new Set([want.length]));
      });
    }

    it('treats %, _ and the backslash literally, and ignores case', async () => {
      const names = async (term: string) =>
        (await page(fx.keys.website!, `?per_page=100&search=${encodeURIComponent(term)}`)).data.map((p) => p.username);
      expect(await names('_')).toEqual(['a_b']);
      expect(await names('a_b')).toEqual(['a_b']);
      expect(await names('%')).toEqual(['100%', 'a%b']);
      expect(await names('a%b')).toEqual(['a%b']);
      expect(await names('k\\s')).toEqual(['back\\slash']);
      // Alicia: the first test's Alice, renamed.
      expect(await names('aL')).toEqual(['ALBERT', 'alfred', 'Alice2', 'Alicia', 'MalAlgo']);
      expect(await names('hidden')).toEqual([]);
    });

    it('pages the whole unfiltered list in order, with the exact total on every page', async () => {
      const want = (
        await ctx.db.query<{ uuid: string }>(
          'SELECT uuid FROM players WHERE workspace_id = $1 AND public ORDER BY lower(username), uuid',
          [fx.workspaceId],
        )
      ).map((r) => r.uuid);
      const got = await allPages(fx.keys.website!, '');
      expect(got.uuids).toEqual(want);
      expect(new Set(got.totals)).toEqual(new Set([want.length]));
    });

    it('counts exactly a username, and a search with a username', async () => {
      expect(await apiTotal(fx, '&username=ALICE2')).toBe(1);
      expect(await apiTotal(fx, '&username=hidden_al')).toBe(0);
      expect(await apiTotal(fx, '&username=alice2&search=lic')).toBe(1);
      expect(await apiTotal(fx, '&username=alice2&search=bob')).toBe(0);
    });

    it("counts exactly the public players of a player-restricted key's list, searched or not", async () => {
      const allowed = ['Alice2', 'alfred', 'Bob2', 'Hidden_al'].map((n) => ids.get(n)!);
      const stranger = await upload(other, 'alien');
      const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
        name: 'restricted counts',
        type: 'website',
        scopes: ['players:read'],
        player_restrictions: [...allowed, stranger, randomUUID()],
      });
      const all = await page(k.secret, '');
      expect(all.data.map((p) => p.username)).toEqual(['alfred', 'Alice2', 'Bob2']);
      expect(all.meta.total).toBe(3);
      const al = await page(k.secret, '?search=al');
      expect(al.data.map((p) => p.username)).toEqual(['alfred', 'Alice2']);
      expect(al.meta.total).toBe(2);
      expect((await page(k.secret, '?search=alice')).meta.total).toBe(1);
      expect((await page(k.secret, '?search=alien')).meta.total).toBe(0);
    });

    it('lists every player to administrators by username substring or exact UUID', async () => {
      const names = async (term: string | undefined) =>
        (await ctx.services.playerAdmin.list(fx.workspaceId, term)).map((p) => p.username);
      expect(await names('AL')).toEqual(['ALBERT', 'alfred', 'Alice2', 'Alicia', 'Hidden_al', 'MalAlgo']);
      expect(await names('hidden_')).toEqual(['Hidden_al']);
      expect(await names('%')).toEqual(['100%', 'a%b']);
      expect(await names('a')).toEqual(
        (
          await ctx.db.query<{ username: string }>(
            "SELECT username FROM players WHERE workspace_id = $1 AND strpos(lower(username), 'a') > 0 ORDER BY lower(username), uuid",
            [fx.workspaceId],
          )
        ).map((r) => r.username),
      );
      const hidden = ids.get('Hidden_al')!;
      expect(await names(hidden.toUpperCase())).toEqual(['Hidden_al']);
      expect(await names(` ${hidden} `)).toEqual(['Hidden_al']);
      // As before: only the canonical form matches a UUID (not without dashes), and only whole.
      expect(await names(hidden.replace(/-/g, ''))).toEqual([]);
      expect(await names(hidden.slice(0, 13))).toEqual([]);
      expect(await names(ids.get('Bob2')!)).toEqual(['Bob2']);
      // Not another workspace's player.
      const theirs = await upload(other, 'Theirs');
      expect(await names(theirs)).toEqual([]);
      expect((await names(undefined)).length).toBe(
        Math.min(
          ADMIN_PLAYER_LIMIT,
          (await one('SELECT count(*)::int AS n FROM players WHERE workspace_id = $1', [fx.workspaceId])) as number,
        ),
      );
    });
  });

  describe('query plans', () => {
    let ws: string;

    beforeAll(async () => {
      ws = (
        await ctx.db.query<{ id: string }>("INSERT INTO workspaces (name, slug) VALUES ('Plans', 'plans') RETURNING id")
      )[0]!.id;
      await ctx.db.query(
        `INSERT INTO players (workspace_id, uuid, username, username_observed_at, public)
         SELECT $1, gen_random_uuid(), substr(md5(g::text), 1, 4 + g % 9), now(), g % 20 <> 0
         FROM generate_series(1, 20000) g`,
        [ws],
      );
      // VACUUM too: it moves the trigram index's pending entries into the index and sets its statistics.
      await ctx.db.exec('VACUUM ANALYZE players');
    }, 60_000);

    /**
     * The plans of the statements `run` sends, with sequential scans priced out: a statement that no index can
     * serve still shows a Seq Scan.
     */
    function plans(run: (db: Queryable) => Promise<unknown>): Promise<string[]> {
      return ctx.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        const out: string[] = [];
        const explaining: Queryable = {
          async query<T>(sql: string, params?: readonly unknown[]) {
            const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
            out.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
            return [] as T[];
          },
          exec: async () => undefined,
        };
        await run(explaining);
        return out;
      });
    }
    const q = { workspaceId: '', search: null, username: null, onlyUuids: null, limit: 50, offset: 0 };

    it('reads the unfiltered total from the counter and a page in order from the index, with no sort', async () => {
      const [count, rows] = await plans((db) => listPublicPlayers(db, { ...q, workspaceId: ws, offset: 10_000 }));
      expect(count).toMatch(/workspace_player_counts/);
      expect(count).not.toMatch(/\bon players\b/);
      expect(rows).toMatch(/players_workspace_lower_username_uuid_idx/);
      expect(rows).not.toMatch(/\bSort\b|Seq Scan/);
      const [admin] = await plans((db) => listAllPlayers(db, ws, null, 500));
      expect(admin).toMatch(/players_workspace_lower_username_uuid_idx/);
      expect(admin).not.toMatch(/\bSort\b|Seq Scan/);
    });

    it('serves a search of 3 characters or more from the trigram index, and a username from the order index', async () => {
      for (const plan of await plans((db) => listPublicPlayers(db, { ...q, workspaceId: ws, search: 'abc' }))) {
        expect(plan).toMatch(/Bitmap Index Scan on players_username_trgm_idx/);
        expect(plan).not.toMatch(/Seq Scan/);
      }
      for (const plan of await plans((db) => listPublicPlayers(db, { ...q, workspaceId: ws, username: 'Abcd' }))) {
        expect(plan).toMatch(/players_workspace_lower_username_uuid_idx/);
        expect(plan).not.toMatch(/Seq Scan/);
      }
      const [admin] = await plans((db) => listAllPlayers(db, ws, 'abc', 500));
      expect(admin).toMatch(/Bitmap Index Scan on players_username_trgm_idx/);
      expect(admin).not.toMatch(/Seq Scan/);
    });

    it('serves an administrator search by UUID from both indexes', async () => {
      const [plan] = await plans((db) => listAllPlayers(db, ws, randomUUID().toUpperCase(), 500));
      expect(plan).toMatch(/BitmapOr/);
      expect(plan).toMatch(/players_username_trgm_idx/);
      expect(plan).toMatch(/players_workspace_id_uuid_key/);
      expect(plan).not.toMatch(/Seq Scan/);
    });
  });
});
