import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestItem } from '#src/modules/ingest/writer.ts';
import { IngestWriter } from '#src/modules/ingest/writer.ts';
import { createTestContext, DB_KIND, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';

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
