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

export interface BenchPlayer {
  uuid: string;
  username: string;
  sessionId: string;
  /** Grows with every upload: absolute statistics only go up. */
  counter: number;
}

/**
 * `n` players, each with one game session. `varied` (the default): they arrive with very different histories, as
 * on a real network (a veteran's counters are far ahead of a newcomer's), so the order at the top of a
 * leaderboard rarely changes. `level`: every counter starts at the same value, ahead of any `varied` player's,
 * and all grow alike, so these players race for the top and rank 1 changes all the time (a worst case for
 * leader-change detection).
 */
export function makePlayers(n: number, standing: 'varied' | 'level' = 'varied'): BenchPlayer[] {
  return Array.from({ length: n }, (_, i) => ({
    uuid: randomUUID(),
    username: `Player${i}`,
    sessionId: randomUUID(),
    counter: standing === 'varied' ? randomInt(1_000_000) : 10_000_000,
  }));
}

export function randomInt(n: number): number {
  return Math.floor(Math.random() * n);
}

/** `n` distinct keys (as indexes into STAT_KEYS), starting at a random place in STAT_KEYS. */
function pickKeys(n: number): number[] {
  const start = randomInt(STAT_KEYS.length);
  return Array.from({ length: n }, (_, i) => (start + i) % STAT_KEYS.length);
}

/**
 * The next `n` observations of a player: absolute statistics, so each key's value only grows (by 1–20 times the
 * key's own step of 1–7 per upload), as the mod's counters do.
 */
export function nextStats(p: BenchPlayer, n: number): { key: string; value: number }[] {
  p.counter += 1 + randomInt(20);
  return pickKeys(n).map((k) => ({ key: STAT_KEYS[k]!, value: p.counter * (1 + (k % 7)) }));
}

/** One batch exactly as the Fabric mod sends it; `n = 0` is a heartbeat (`stats: []`). */
export function modBatch(p: BenchPlayer, n: number): string {
  return JSON.stringify({
    protocol_version: 1,
    client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
    player: { uuid: p.uuid, username: p.username },
    server: { hostname: 'mc.example.com', port: 25565 },
    session_id: p.sessionId,
    observed_at: new Date().toISOString(),
    stats: nextStats(p, n),
    events: [],
  });
}
