import { randomUUID } from 'node:crypto';

const ITEMS = [
  'stone',
  'cobblestone',
  'dirt',
  'grass_block',
  'sand',
  'gravel',
  'oak_log',
  'birch_log',
  'spruce_log',
  'oak_planks',
  'coal_ore',
  'iron_ore',
  'gold_ore',
  'diamond_ore',
  'redstone_ore',
  'lapis_ore',
  'emerald_ore',
  'copper_ore',
  'deepslate',
  'netherrack',
  'end_stone',
  'obsidian',
  'glass',
  'torch',
  'crafting_table',
  'furnace',
  'chest',
  'wheat',
  'carrots',
  'potatoes',
  'sugar_cane',
  'pumpkin',
  'melon',
  'bread',
  'cooked_beef',
  'apple',
  'arrow',
  'bow',
  'iron_pickaxe',
  'diamond_pickaxe',
  'iron_sword',
  'diamond_sword',
  'shield',
  'bucket',
  'water_bucket',
  'ladder',
  'rail',
  'tnt',
  'bone',
  'string',
];
const CATEGORIES = ['mined', 'used', 'crafted', 'broken', 'picked_up', 'dropped'];

/** 300 distinct statistic keys as the mod sends them: `minecraft.mined:minecraft.stone`. */
export const STAT_KEYS: readonly string[] = CATEGORIES.flatMap((c) =>
  ITEMS.map((i) => `minecraft.${c}:minecraft.${i}`),
);

/**
 * `n` distinct statistic keys: STAT_KEYS, then made-up items of the same categories past its 300
 * (`minecraft.mined:minecraft.item_301`), for players with as many values as the mod uploads (every statistic of the
 * game at a session's start).
 */
export function statKeys(n: number): string[] {
  const keys = STAT_KEYS.slice(0, n);
  for (let i = keys.length; i < n; i++)
    keys.push(`minecraft.${CATEGORIES[i % CATEGORIES.length]}:minecraft.item_${i + 1}`);
  return keys;
}

/** A game server the players upload through, as the mod names it (`server` of a batch). */
export interface BenchServer {
  hostname: string;
  port: number;
}

/**
 * The servers of the benchmarks' workspace, all registered (and enabled) by `seedStatboard`. The first is the one
 * server of the benchmarks that use one: a player plays on it unless `makePlayers` is asked for more.
 */
export const BENCH_SERVERS: readonly BenchServer[] = [
  { hostname: 'mc.example.com', port: 25565 },
  { hostname: 'mc2.example.com', port: 25565 },
];

export interface BenchPlayer {
  uuid: string;
  username: string;
  /** The game session on the player's first server (`sessions[servers[0]]`). */
  sessionId: string;
  /** Indexes into BENCH_SERVERS of the servers the player plays on; uploads go to them in turn. */
  servers: number[];
  /**
   * The player's counter on each server (by index into BENCH_SERVERS; a server the player does not play on keeps
   * 0): a server's world counts on its own, so each grows with the uploads through that server only.
   */
  counters: number[];
  /** The game session on each server (by index): the mod opens one per server joined. */
  sessions: string[];
  /** Most a counter grows per upload (at least 1). */
  step: number;
  /** Uploads so far (`nextServer`). */
  uploads: number;
}

/**
 * `n` players, each with one game session per server it plays on. `varied` (the default): they arrive with very
 * different histories, as on a real network (a veteran's counters are far ahead of a newcomer's), so the order at
 * the top of a leaderboard rarely changes; their counters grow by 1 an upload, so that no statistic rises faster
 * than the game can count (72,000 an hour: see the screening's `rate` rule) even at the benchmarks' upload rates,
 * which are far above the mod's one a minute. `level`: every counter starts at the same value, ahead of any
 * `varied` player's, and grows by 1–20 an upload, so these players race for the top and rank 1 changes all the
 * time (a worst case for leader-change detection; for the writer alone, which does not screen).
 *
 * `servers` (1 or 2, at most BENCH_SERVERS.length): with 1, every player plays on the first server. With 2, as on
 * a small network: the first half of the players play on both servers (their uploads alternate), the other half
 * on one server each, split evenly between the two.
 */
export function makePlayers(n: number, standing: 'varied' | 'level' = 'varied', servers = 1): BenchPlayer[] {
  return Array.from({ length: n }, (_, i) => {
    const on = servers < 2 ? [0] : i < n / 2 ? [0, 1] : [i % 2];
    const start = () => (standing === 'varied' ? randomInt(1_000_000) : 10_000_000);
    const counters = BENCH_SERVERS.map((_, s) => (on.includes(s) ? start() : 0));
    const sessions = BENCH_SERVERS.map(() => randomUUID());
    return {
      uuid: randomUUID(),
      username: `Player${i}`,
      sessionId: sessions[on[0]!]!,
      servers: on,
      counters,
      sessions,
      step: standing === 'varied' ? 1 : 20,
      uploads: 0,
    };
  });
}

export function randomInt(n: number): number {
  return Math.floor(Math.random() * n);
}

/** The server (index into BENCH_SERVERS) of the player's next upload: its servers in turn. */
export function nextServer(p: BenchPlayer): number {
  return p.servers[p.uploads++ % p.servers.length]!;
}

/** `n` distinct keys (as indexes into STAT_KEYS), starting at a random place in STAT_KEYS. */
function pickKeys(n: number): number[] {
  const start = randomInt(STAT_KEYS.length);
  return Array.from({ length: n }, (_, i) => (start + i) % STAT_KEYS.length);
}

/**
 * The next `n` observations of a player on `server` (default: its first): absolute statistics of that server's
 * world, so each key's value there only grows (by 1 to `step` times the key's own factor of 1–7 per upload), as
 * the mod's counters do. A heartbeat (`n = 0`) carries no values and leaves the counter alone.
 */
export function nextStats(p: BenchPlayer, n: number, server: number = p.servers[0]!): { key: string; value: number }[] {
  if (n === 0) return [];
  const counter = p.counters[server]! + 1 + randomInt(p.step);
  p.counters[server] = counter;
  return pickKeys(n).map((k) => ({ key: STAT_KEYS[k]!, value: counter * (1 + (k % 7)) }));
}

/**
 * One batch exactly as the Fabric mod sends it through `server` (index into BENCH_SERVERS; default: the player's
 * first, which is the first server unless the player was made for two); `n = 0` is a heartbeat (`stats: []`).
 */
export function modBatch(p: BenchPlayer, n: number, server: number = p.servers[0]!): string {
  const s = BENCH_SERVERS[server]!;
  return JSON.stringify({
    protocol_version: 1,
    client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
    player: { uuid: p.uuid, username: p.username },
    server: { hostname: s.hostname, port: s.port },
    session_id: p.sessions[server],
    observed_at: new Date().toISOString(),
    stats: nextStats(p, n, server),
    events: [],
  });
}
