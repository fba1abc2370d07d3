import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '#src/app-paths.ts';

/** The list of things a statistic family counts. */
export type ThingList = 'blocks' | 'items' | 'entities';

/**
 * The game's own English names, as `scripts/stat-catalog.mjs` wrote them from one pinned version of the
 * `minecraft-data` package (`source`). Ids are the game's without their `minecraft:` namespace.
 */
export interface GameCatalog {
  source: { package: string; version: string; edition: string; game_version: string };
  /** SHA-256 of the generator that wrote this file, and of the fields below: a test checks both. */
  generator_sha256: string;
  content_sha256: string;
  /** The labels of the game's statistics tabs. */
  groups: { general: string; items: string; mobs: string };
  /** `minecraft.custom:minecraft.<id>` → its name ("Time Played"). */
  custom: Record<string, string>;
  /** `minecraft.<type>:minecraft.<thing>` → `name` with `%s` the thing's name ("%s Mined"). */
  families: Record<string, { of: ThingList; name: string }>;
  blocks: Record<string, string>;
  items: Record<string, string>;
  entities: Record<string, string>;
}

/** The committed catalog, found from the package's folder (the sources and the bundle read the same file). */
export const GAME_CATALOG_FILE = join(APP_ROOT, 'src/modules/stats/game-catalog.json');

let catalog: GameCatalog | null = null;

/** The catalog, read once on first use (~120 KB; the service may never need it). */
export function gameCatalog(): GameCatalog {
  catalog ??= JSON.parse(readFileSync(GAME_CATALOG_FILE, 'utf8')) as GameCatalog;
  return catalog;
}

/**
 * Whether `key` is one of the game's own statistics (`minecraft.custom:minecraft.play_time`,
 * `minecraft.mined:minecraft.stone`): a custom statistic the catalog names, or a family the catalog knows counting
 * a block, item or entity it lists.
 */
export function isGameStatistic(key: string): boolean {
  const m = /^minecraft\.([a-z_]+):minecraft\.([a-z0-9_]+)$/.exec(key);
  if (!m) return false;
  const c = gameCatalog();
  const [, type, thing] = m as unknown as [string, string, string];
  if (type === 'custom') return Object.hasOwn(c.custom, thing);
  const family = c.families[type];
  return family !== undefined && Object.hasOwn(c[family.of], thing);
}
