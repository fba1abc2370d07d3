import { describe, expect, it } from 'vitest';
import type { StoredValues } from '#src/cache/bus.ts';
import { ScreeningMemory } from './memory.ts';
import type { ScreeningContext } from './repo.ts';

const W = 'w1';
const S = 'season1';
const SRV = 'server1';
const P = 'player-uuid';
const JUMP = 'minecraft.custom:minecraft.jump';
const STONE = 'minecraft.mined:minecraft.stone';

function ctx(over: Partial<ScreeningContext> = {}, keys = [JUMP]): ScreeningContext {
  return {
    player: { id: 'pid', username: 'Alex', username_changed_at: null },
    definitions: new Map(
      keys.map((k) => [k, { id: `id:${k}`, max_per_hour: 100, public: true, sort_order: 'desc' as const }]),
    ),
    serverVerified: false,
    verified: new Map(),
    last: new Map(keys.map((k) => [`id:${k}`, { value: 10, at: 1_000, observedAt: 500 }])),
    hasStored: true,
    ...over,
  };
}

function setup(opts: { entries?: number; ttlMs?: number } = {}) {
  const health = { healthy: true };
  let now = 10_000;
  const counts = { hits: 0, misses: 0 };
  const memory = new ScreeningMemory(health, { hit: () => counts.hits++, miss: () => counts.misses++ }, () => now, {
    entries: opts.entries ?? 100,
    bytes: 1_000_000,
    ttlMs: opts.ttlMs ?? 60_000,
  });
  const read = (c: ScreeningContext, uuid = P, server = SRV) => memory.read(W, S, server, uuid, async () => c);
  const recall = (keys = [JUMP], uuid = P, server = SRV) => memory.recall(W, S, server, uuid, keys);
  return { memory, health, counts, read, recall, tick: (ms: number) => (now += ms) };
}

const stored = (values: StoredValues['values'], verified: StoredValues['verified'] = [], at = 20_000) => ({
  topic: 'values' as const,
  workspaceId: W,
  players: [P],
  stored: { at, values, verified },
});

describe('ScreeningMemory', () => {
  it('answers what a read found, without reading, for any statistic whose definition it knows', async () => {
    const { read, recall, counts } = setup();
    expect(recall()).toBeUndefined();
    await read(ctx());
    const hit = recall();
    expect(hit?.last.get(`id:${JUMP}`)).toEqual({ value: 10, at: 1_000, observedAt: 500 });
    expect(hit?.definitions.get(JUMP)?.max_per_hour).toBe(100);
    expect(hit?.player?.username).toBe('Alex');
    // A key whose definition was never read may be new: a miss.
    expect(recall([JUMP, STONE])).toBeUndefined();
    expect(counts).toEqual({ hits: 1, misses: 2 });
    // Another player's read brings the definition; the read held every value of the player (none of STONE).
    await read(
      ctx({ last: new Map([[`id:${STONE}`, { value: 3, at: 900, observedAt: 400 }]]) }, [STONE]),
      'other-player',
    );
    const both = recall([JUMP, STONE]);
    expect(both?.last.size).toBe(1);
    expect(both?.last.get(`id:${STONE}`)).toBeUndefined();
    expect(recall([JUMP, STONE], 'other-player')?.last.get(`id:${STONE}`)?.value).toBe(3);
  });

  it('keeps no newcomer (no player row yet), and never answers while the bus is unhealthy', async () => {
    const { read, recall, health } = setup();
    await read(ctx({ player: null, hasStored: false, last: new Map() }));
    expect(recall()).toBeUndefined();
    health.healthy = false;
    await read(ctx());
    health.healthy = true;
    expect(recall()).toBeUndefined();
    await read(ctx());
    health.healthy = false;
    expect(recall()).toBeUndefined();
  });

  it("follows this process's writes by the writer's rule: later observations win, the time moves with the value", async () => {
    const { memory, read, recall } = setup();
    await read(ctx());
    const id = `id:${JUMP}`;
    // Observed later, a new value: arrived at the statement's now().
    memory.apply(stored([[S, SRV, id, P, 12, 600]], [], 20_000));
    expect(recall()?.last.get(id)).toEqual({ value: 12, at: 20_000, observedAt: 600 });
    // Observed later, the same value: its arrival stays.
    memory.apply(stored([[S, SRV, id, P, 12, 700]], [], 30_000));
    expect(recall()?.last.get(id)).toEqual({ value: 12, at: 20_000, observedAt: 700 });
    // Observed earlier: refused.
    memory.apply(stored([[S, SRV, id, P, 99, 650]], [], 40_000));
    expect(recall()?.last.get(id)).toEqual({ value: 12, at: 20_000, observedAt: 700 });
    // Another player's or server's values touch nothing here.
    memory.apply(stored([[S, 'other', id, P, 99, 900]]));
    memory.apply(stored([[S, SRV, id, 'other', 99, 900]]));
    expect(recall()?.last.get(id)?.value).toBe(12);
    // The same observation with another value: which one the database kept is unsure, so the entry goes.
    memory.apply(stored([[S, SRV, id, P, 13, 700]]));
    expect(recall()).toBeUndefined();
  });

  it('learns a first value of a statistic known to have none, and that the player has values now', async () => {
    const { memory, read, recall } = setup();
    await read(ctx({ last: new Map(), hasStored: false }));
    const id = `id:${JUMP}`;
    memory.apply(stored([[S, SRV, 'id:unknown', P, 5, 600]]));
    expect(recall()?.hasStored).toBe(true);
    expect(recall()?.last.has(id)).toBe(false);
    memory.apply(stored([[S, SRV, id, P, 5, 600]]));
    expect(recall()?.last.get(id)).toEqual({ value: 5, at: 20_000, observedAt: 600 });
  });

  it('follows verified values written by this process (the agent): the newest, arrived at the write', async () => {
    const { memory, read, recall } = setup();
    await read(ctx());
    const id = `id:${JUMP}`;
    memory.apply(stored([[S, SRV, id, P, 7, 600]], [[S, SRV, id, P, 7]], 25_000));
    const hit = recall();
    expect(hit?.serverVerified).toBe(true);
    expect(hit?.verified.get(id)).toEqual({ value: 7, at: 25_000 });
    expect(hit?.last.get(id)).toEqual({ value: 7, at: 25_000, observedAt: 600 });
  });

  it('forgets players named by any other change of values or players, in every season and server', async () => {
    const { memory, read, recall } = setup();
    await read(ctx());
    await read(ctx(), P, 'server2');
    await read(ctx(), 'other');
    memory.apply({ topic: 'values', workspaceId: W, players: [P] });
    expect(recall()).toBeUndefined();
    expect(recall([JUMP], P, 'server2')).toBeUndefined();
    expect(recall([JUMP], 'other')).toBeDefined();
    await read(ctx());
    memory.apply({ topic: 'player', workspaceId: W, players: [P], nameOnly: true });
    expect(recall()).toBeUndefined();
    expect(recall([JUMP], 'other')).toBeDefined();
    // Another workspace's change.
    memory.apply({ topic: 'values', workspaceId: 'w2' });
    expect(recall([JUMP], 'other')).toBeDefined();
  });

  it('forgets the whole workspace for changes that name no player: imports, scorings, seasons, servers', async () => {
    for (const change of [
      { topic: 'values', workspaceId: W },
      { topic: 'player', workspaceId: W },
      { topic: 'season', workspaceId: W },
      { topic: 'server', workspaceId: W },
    ] as const) {
      const { memory, read, recall } = setup();
      await read(ctx());
      memory.apply(change);
      expect(recall(), change.topic).toBeUndefined();
    }
    const { memory, read, recall } = setup();
    await read(ctx());
    memory.apply(null);
    expect(recall()).toBeUndefined();
  });

  it('reads definitions again after they change, but not for new ones; other topics change nothing', async () => {
    const { memory, read, recall } = setup();
    await read(ctx());
    memory.apply({ topic: 'definition', workspaceId: W, added: true });
    memory.apply({ topic: 'roster', workspaceId: W });
    memory.apply({ topic: 'key', ids: [] });
    expect(recall()).toBeDefined();
    memory.apply({ topic: 'definition', workspaceId: W });
    expect(recall()).toBeUndefined();
    await read(ctx());
    expect(recall()).toBeDefined();
  });

  it('does not keep a read that a change of its player overtook', async () => {
    const { memory, recall } = setup();
    for (const change of [
      stored([[S, SRV, `id:${JUMP}`, P, 12, 600]]),
      { topic: 'values' as const, workspaceId: W, players: [P] },
      { topic: 'season' as const, workspaceId: W },
      null,
    ]) {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const reading = memory.read(W, S, SRV, P, async () => {
        await gate;
        return ctx();
      });
      memory.apply(change);
      release();
      expect((await reading).player?.username).toBe('Alex');
      expect(recall()).toBeUndefined();
    }
    // One for another player is kept.
    const reading = memory.read(W, S, SRV, P, async () => ctx());
    memory.apply({ topic: 'values', workspaceId: W, players: ['other'] });
    await reading;
    expect(recall()).toBeDefined();
  });

  it('is bounded: expires after its TTL, and drops the least recently used first', async () => {
    const { read, recall, tick, memory } = setup({ entries: 2, ttlMs: 1_000 });
    await read(ctx(), 'a');
    await read(ctx(), 'b');
    expect(recall([JUMP], 'a')).toBeDefined(); // a is used last now
    await read(ctx(), 'c');
    expect(recall([JUMP], 'b')).toBeUndefined();
    expect(recall([JUMP], 'a')).toBeDefined();
    expect(memory.stats.entries).toBe(2);
    tick(1_000);
    expect(recall([JUMP], 'a')).toBeUndefined();
    expect(recall([JUMP], 'c')).toBeUndefined();
  });
});
