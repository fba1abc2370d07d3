import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/types.ts';
import type { IngestItem } from '#src/modules/ingest/writer.ts';
import { IngestWriter } from '#src/modules/ingest/writer.ts';
import { LeaderWatch } from '#src/modules/webhooks/leaders.ts';
import { Outbox } from '#src/modules/webhooks/outbox.ts';
import { WebhookSubscriptions } from '#src/modules/webhooks/subscriptions.ts';
import { ACTOR, createTestContext, DB_KIND, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

let ctx: TestContext;
let fx: Fixture;
beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
});
afterAll(() => ctx.close());

function item(over: Partial<IngestItem> & { uuid?: string } = {}): IngestItem {
  return {
    workspaceId: fx.workspaceId,
    seasonId: fx.seasonId,
    serverId: fx.serverId,
    player: { uuid: over.uuid ?? randomUUID(), username: 'P' },
    sessionId: randomUUID(),
    observedAt: new Date(),
    client: { modVersion: '1', gameVersion: '1.21', loaderVersion: null },
    stats: [{ key: 'minecraft.custom:minecraft.jump', value: 1 }],
    events: [],
    ...over,
  };
}

const count = async (table: string) =>
  (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

describe(`group commit (${DB_KIND})`, () => {
  it('writes many concurrent batches and resolves each only after its data is committed', async () => {
    const writer = new IngestWriter(ctx.db, ctx.bus, 2);
    const items = Array.from({ length: 60 }, (_, i) =>
      item({
        stats: Array.from({ length: 20 }, (_, j) => ({ key: `minecraft.mined:minecraft.b${j}`, value: i * 100 + j })),
      }),
    );
    await Promise.all(
      items.map(async (it) => {
        await writer.submit(it);
        const rows = await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $1',
          [it.player.uuid],
        );
        expect(rows[0]!.n).toBe(20);
      }),
    );
  });

  it('keeps the latest observation when one group holds two batches of the same player', async () => {
    const writer = new IngestWriter(ctx.db, ctx.bus, 1);
    const uuid = randomUUID();
    const key = 'minecraft.custom:minecraft.walk_one_cm';
    const t = Date.now();
    await Promise.all([
      writer.submit(item({ uuid, observedAt: new Date(t), stats: [{ key, value: 10 }] })),
      writer.submit(item({ uuid, observedAt: new Date(t + 1000), stats: [{ key, value: 30 }] })),
      writer.submit(item({ uuid, observedAt: new Date(t - 1000), stats: [{ key, value: 5 }] })),
    ]);
    const rows = await ctx.db.query<{ value: number }>(
      'SELECT s.value FROM player_stats s JOIN players p ON p.id = s.player_id JOIN stat_definitions d ON d.id = s.stat_id WHERE p.uuid = $1 AND d.key = $2',
      [uuid, key],
    );
    expect(rows).toEqual([{ value: 30 }]);
  });

  it('fails only the bad batch of a group and commits the others', async () => {
    const writer = new IngestWriter(ctx.db, ctx.bus, 1);
    const before = await count('players');
    // Occupy the only slot so the next three form one group.
    const first = writer.submit(item());
    const good1 = writer.submit(item());
    const bad = writer.submit(item({ seasonId: randomUUID() })); // no such season: foreign key violation
    const good2 = writer.submit(item());
    await first;
    await expect(good1).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow();
    await expect(good2).resolves.toBeUndefined();
    expect(await count('players')).toBe(before + 3);
  });

  it('stores each event once per workspace even when a group holds the same event twice', async () => {
    const writer = new IngestWriter(ctx.db, ctx.bus, 1);
    const id = randomUUID();
    const ev = { id, type: 'SESSION_STARTED', occurredAt: new Date().toISOString(), payload: {} };
    const uuid = randomUUID();
    await Promise.all([
      writer.submit(item({ uuid, events: [ev] })),
      writer.submit(item({ uuid, events: [{ ...ev, type: 'OTHER' }] })),
    ]);
    await writer.submit(item({ uuid, events: [ev] }));
    const rows = await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE id = $1', [id]);
    expect(rows).toEqual([{ type: 'SESSION_STARTED' }]);
  });

  it('keeps both batches when two writers create the same new player at the same moment', async () => {
    const w1 = new IngestWriter(ctx.db, ctx.bus, 1);
    const w2 = new IngestWriter(ctx.db, ctx.bus, 1);
    // Learn the definitions first, so both writers take the single-statement path.
    await w1.submit(item({ stats: [{ key: 'minecraft.custom:minecraft.race_a', value: 0 }] }));
    await w2.submit(item({ stats: [{ key: 'minecraft.custom:minecraft.race_b', value: 0 }] }));
    await w1.submit(item({ stats: [{ key: 'minecraft.custom:minecraft.race_b', value: 0 }] }));
    await w2.submit(item({ stats: [{ key: 'minecraft.custom:minecraft.race_a', value: 0 }] }));
    for (let round = 0; round < 15; round++) {
      const uuid = randomUUID();
      await Promise.all([
        w1.submit(item({ uuid, stats: [{ key: 'minecraft.custom:minecraft.race_a', value: 1 }] })),
        w2.submit(item({ uuid, stats: [{ key: 'minecraft.custom:minecraft.race_b', value: 2 }] })),
      ]);
      const rows = await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $1',
        [uuid],
      );
      expect(rows[0]!.n).toBe(2);
    }
  });
});

describe(`bounds of the writer (${DB_KIND})`, () => {
  /** Holds the players table (and, on PGlite, the one connection) until the returned function is called. */
  async function holdDatabase(): Promise<() => Promise<void>> {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const done = ctx.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE players IN EXCLUSIVE MODE');
      locked();
      await gate;
    });
    await isLocked;
    return async () => {
      release();
      await done;
    };
  }

  const code = (err: unknown) => (err as { code?: string }).code;
  const retryAfter = (err: unknown) => (err as { headers?: Record<string, string> }).headers?.['retry-after'];

  it('answers 503 with Retry-After at once when the queue holds its limit of batches or bytes', async () => {
    const release = await holdDatabase();
    const writer = new IngestWriter(ctx.db, ctx.bus, 1, { maxBatches: 2, maxBytes: 1_000, deadlineMs: 0 });
    const inFlight = writer.submit(item(), 100); // taken by the one write slot
    const queued = [writer.submit(item(), 100), writer.submit(item(), 100)];
    await new Promise((r) => setTimeout(r, 20));
    expect(writer.queued).toBe(2);
    const t = performance.now();
    const over = await writer.submit(item(), 100).catch((e: unknown) => e);
    expect(performance.now() - t).toBeLessThan(50);
    expect(code(over)).toBe('SERVICE_UNAVAILABLE');
    expect(retryAfter(over)).toMatch(/^\d+$/);
    await release();
    await Promise.all([inFlight, ...queued]);

    const release2 = await holdDatabase();
    const byBytes = new IngestWriter(ctx.db, ctx.bus, 1, { maxBatches: 100, maxBytes: 1_000, deadlineMs: 0 });
    const first = byBytes.submit(item(), 900);
    const second = byBytes.submit(item(), 900); // queued: 900 bytes
    await new Promise((r) => setTimeout(r, 20));
    expect(code(await byBytes.submit(item(), 200).catch((e: unknown) => e))).toBe('SERVICE_UNAVAILABLE');
    await release2();
    await Promise.all([first, second]);
  });

  it('answers 503 once the deadline passes without a commit, and never writes a batch it dropped from the queue', async () => {
    const release = await holdDatabase();
    const writer = new IngestWriter(ctx.db, ctx.bus, 1, { maxBatches: 100, maxBytes: 1e9, deadlineMs: 300 });
    const dropped = item();
    const t = performance.now();
    const outcomes = await Promise.all(
      [item(), dropped, item()].map((it) =>
        writer.submit(it).then(
          () => 'ok',
          (e: unknown) => code(e),
        ),
      ),
    );
    const waited = performance.now() - t;
    expect(outcomes).toEqual(['SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(2_000);
    expect(writer.queued).toBe(0);
    await release();
    await new Promise((r) => setTimeout(r, 200));
    const rows = await ctx.db.query('SELECT 1 FROM players WHERE uuid = $1', [dropped.player.uuid]);
    expect(rows).toEqual([]);
    // The writer goes on serving once the database answers.
    await writer.submit(item());
  });
});

describe(`leader changes found by the write statement (${DB_KIND})`, () => {
  beforeAll(async () => {
    // Never sent: no dispatcher runs here; the messages are read from the outbox.
    await ctx.services.webhooks.create(ACTOR, fx.workspaceId, {
      url: 'https://93.184.216.34/hook',
      events: ['leaderboard.leader_changed'],
    });
  });

  /** A writer with one write slot that looks for leader changes, as the service's does. */
  function hooked(db: Db = ctx.db): IngestWriter {
    return new IngestWriter(db, ctx.bus, 1, undefined, {
      leaders: new LeaderWatch(ctx.bus, new WebhookSubscriptions(ctx.bus)),
      outbox: new Outbox(),
    });
  }

  /** Who took rank 1 of `key` (and from whom), in the order stored. */
  async function leaders(key: string) {
    const rows = await ctx.db.query<{
      data: { player: { uuid: string }; value: number; previous: { player: { uuid: string } | null } };
    }>(
      `SELECT data FROM webhook_messages
       WHERE type = 'leaderboard.leader_changed' AND data->'stat'->>'key' = $1 ORDER BY created_at`,
      [key],
    );
    return rows.map((r) => [r.data.player.uuid, r.data.value, r.data.previous.player?.uuid ?? null]);
  }

  const value = (uuid: string, key: string, v: number) => item({ uuid, stats: [{ key, value: v }] });

  it('names the best public value of a group, past a hidden player ahead of it in the same statement', async () => {
    const writer = hooked();
    const key = 'minecraft.custom:minecraft.boat_one_cm';
    const [leader, hidden, newcomer] = [randomUUID(), randomUUID(), randomUUID()];
    await writer.submit(value(leader, key, 100));
    await writer.submit(value(hidden, 'minecraft.custom:minecraft.jump', 1));
    await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, hidden, { public: false });
    // The one write slot is taken: the next two batches are written by one statement.
    const first = writer.submit(value(randomUUID(), 'minecraft.custom:minecraft.jump', 1));
    const group = [writer.submit(value(hidden, key, 500)), writer.submit(value(newcomer, key, 200))];
    await Promise.all([first, ...group]);
    expect(await leaders(key)).toEqual([
      [leader, 100, null],
      [newcomer, 200, leader],
    ]);
  });

  it('keeps the leader when it grows in the same statement as a value that beats its old one', async () => {
    const writer = hooked();
    const key = 'minecraft.custom:minecraft.pig_one_cm';
    const [leader, other] = [randomUUID(), randomUUID()];
    await writer.submit(value(leader, key, 100));
    await writer.submit(value(other, key, 50));
    const first = writer.submit(value(randomUUID(), 'minecraft.custom:minecraft.jump', 1));
    const group = [writer.submit(value(leader, key, 300)), writer.submit(value(other, key, 200))];
    await Promise.all([first, ...group]);
    expect(await leaders(key)).toEqual([[leader, 100, null]]);
  });

  it('announces nothing for a value in a season that is not active', async () => {
    const writer = hooked();
    const key = 'minecraft.custom:minecraft.horse_one_cm';
    const past = await ctx.services.seasons.create(ACTOR, fx.workspaceId, { name: 'Past', slug: 'leaders-past' });
    await writer.submit({ ...value(randomUUID(), key, 10), seasonId: past.id });
    await writer.submit({ ...value(randomUUID(), key, 20), seasonId: past.id });
    expect(await leaders(key)).toEqual([]);
  });

  it('sends one statement, without the leader check, for a batch that beats no rank 1 it knows of', async () => {
    const sent: string[] = [];
    const recording: Db = {
      kind: ctx.db.kind,
      query: (sql, params) => {
        sent.push(sql);
        return ctx.db.query(sql, params);
      },
      exec: (script) => ctx.db.exec(script),
      transaction: (fn) => ctx.db.transaction(fn),
      close: async () => undefined,
    };
    const writer = hooked(recording);
    const key = 'minecraft.custom:minecraft.minecart_one_cm';
    await writer.submit(value(randomUUID(), key, 100)); // a new statistic: the writer forgets the boards after it
    await writer.submit(value(randomUUID(), key, 50));
    sent.length = 0;
    await writer.submit(value(randomUUID(), key, 60));
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain('leader_messages');
    const newcomer = randomUUID();
    await writer.submit(value(newcomer, key, 150));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain('leader_messages');
    expect((await leaders(key)).map((l) => l[0])).toContain(newcomer);
  });
});

describe(`leader changes with several servers (${DB_KIND})`, () => {
  let multi: Fixture;
  let second: string;
  beforeAll(async () => {
    multi = await seedWorkspace(ctx.services, 'Two servers');
    second = (
      await ctx.services.servers.create(ACTOR, multi.workspaceId, {
        name: 'Creative',
        hostname: 'c.example.com',
        port: 25566,
      })
    ).id;
    await ctx.services.webhooks.create(ACTOR, multi.workspaceId, {
      url: 'https://93.184.216.34/hook',
      events: ['leaderboard.leader_changed'],
    });
  });

  /** Statements sent, and what the write statement found on its candidate boards, per write. */
  function recorded() {
    const sent: string[] = [];
    const db: Db = {
      kind: ctx.db.kind,
      query: (sql, params) => {
        sent.push(sql);
        return ctx.db.query(sql, params);
      },
      exec: (script) => ctx.db.exec(script),
      transaction: (fn) => ctx.db.transaction(fn),
      close: async () => undefined,
    };
    const watch = new LeaderWatch(ctx.bus, new WebhookSubscriptions(ctx.bus));
    /** Per write: how many boards' rank 1 the statement read. */
    const checked: number[] = [];
    const settle = watch.settle.bind(watch);
    watch.settle = (values, candidates, outcome) => {
      checked.push(outcome.checked.length);
      settle(values, candidates, outcome);
    };
    const writer = new IngestWriter(db, ctx.bus, 1, undefined, { leaders: watch, outbox: new Outbox() });
    return { writer, sent, checked };
  }

  const value = (uuid: string, key: string, v: number, server: string) =>
    item({
      uuid,
      workspaceId: multi.workspaceId,
      seasonId: multi.seasonId,
      serverId: server,
      stats: [{ key, value: v }],
    });

  async function leaders(key: string) {
    const rows = await ctx.db.query<{
      data: { player: { uuid: string }; value: number; previous: { player: { uuid: string } | null } };
    }>(
      `SELECT data FROM webhook_messages
       WHERE workspace_id = $2 AND type = 'leaderboard.leader_changed' AND data->'stat'->>'key' = $1
       ORDER BY created_at, id`,
      [key, multi.workspaceId],
    );
    return rows.map((r) => [r.data.player.uuid, r.data.value, r.data.previous.player?.uuid ?? null]);
  }

  it("announces once a leader change made by a second server's upload, and nothing for the new leader's growth", async () => {
    const { writer } = recorded();
    const key = 'minecraft.custom:minecraft.fly_one_cm';
    const [leader, chaser, other] = [randomUUID(), randomUUID(), randomUUID()];
    await writer.submit(value(leader, key, 100, multi.serverId));
    await writer.submit(value(chaser, key, 60, multi.serverId));
    // 60 + 30 = 90: short of 100.
    await writer.submit(value(chaser, key, 30, second));
    // 60 + 50 = 110: rank 1, through the second server alone (50 beats nothing).
    await writer.submit(value(chaser, key, 50, second));
    await writer.submit(value(chaser, key, 55, second));
    await writer.submit(value(other, key, 40, second));
    await writer.submit(value(leader, key, 5, second));
    expect(await leaders(key)).toEqual([
      [leader, 100, null],
      [chaser, 110, leader],
    ]);
  });

  it('reads no rank 1 and announces nothing for values of several servers whose totals beat no leader', async () => {
    const { writer, sent, checked } = recorded();
    const key = 'minecraft.custom:minecraft.swim_one_cm';
    const [leader, a, b] = [randomUUID(), randomUUID(), randomUUID()];
    await writer.submit(value(leader, key, 1000, multi.serverId));
    await writer.submit(value(a, key, 100, multi.serverId));
    await writer.submit(value(b, key, 100, second));
    sent.length = 0;
    checked.length = 0;
    for (let i = 1; i <= 4; i++) {
      await writer.submit(value(a, key, 100 + i * 10, second));
      await writer.submit(value(b, key, 100 + i * 10, multi.serverId));
      // The leader's own growth through the other server: its new total (1000 + 10i) is remembered.
      await writer.submit(value(leader, key, i * 10, second));
    }
    // One statement a write (the board's leader is never read again), which reads the rank 1 only when the
    // leader's own total grows past what the writer knows.
    expect(sent).toHaveLength(12);
    expect(checked).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    expect(await leaders(key)).toEqual([[leader, 1000, null]]);
    // 900 + 140 = 1040 does not beat the leader's 1040 (the earlier one stays first); 900 + 141 does.
    await writer.submit(value(a, key, 900, multi.serverId));
    expect(await leaders(key)).toEqual([[leader, 1000, null]]);
    await writer.submit(value(a, key, 141, second));
    expect(await leaders(key)).toEqual([
      [leader, 1000, null],
      [a, 1041, leader],
    ]);
  });

  it("finds another instance's new leader in the committed board, and announces only a total that beats it", async () => {
    const key = 'minecraft.custom:minecraft.climb_one_cm';
    const here = recorded();
    const there = recorded();
    const [leader, newer, mine] = [randomUUID(), randomUUID(), randomUUID()];
    await here.writer.submit(value(leader, key, 100, multi.serverId));
    await here.writer.submit(value(mine, key, 10, second)); // `here` knows the leader's 100
    await there.writer.submit(value(newer, key, 200, second));
    // 150 beats the 100 `here` knows of, not the committed 200: read, and nothing announced.
    await here.writer.submit(value(mine, key, 140, multi.serverId));
    await here.writer.submit(value(mine, key, 60, multi.serverId)); // 10 + 60 = 70
    await here.writer.submit(value(mine, key, 200, multi.serverId)); // 10 + 200 = 210
    expect(await leaders(key)).toEqual([
      [leader, 100, null],
      [newer, 200, leader],
      [mine, 210, newer],
    ]);
  });
});
