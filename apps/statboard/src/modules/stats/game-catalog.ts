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

/**
 * A category's name for people (a statistic's `category`, the first segment of its key): the game's tab of general
 * statistics ("General") for `minecraft.custom`, a family's name without its thing for the game's other families
 * ("Mined", "Picked Up", "Killed by"), any other category as it is.
 */
export function categoryName(category: string): string {
  const m = /^minecraft\.([a-z_]+)$/.exec(category);
  if (!m) return category;
  const c = gameCatalog();
  if (m[1] === 'custom') return c.groups.general;
  const family = c.families[m[1]!];
  return family ? family.name.replace('%s', '').trim() : category;
}

/**
 * The order of categories in a list of them: the game's general statistics, then its families in the order of its
 * statistics screen (mined, crafted, used, broken, picked up, dropped, kills, killed by), then any other by name.
 */
export function compareCategories(a: string, b: string): number {
  return categoryOrder(a) - categoryOrder(b) || a.localeCompare(b);
}

/** Where a category comes among the game's (see `compareCategories`); any other after them all. */
function categoryOrder(category: string): number {
  const m = /^minecraft\.([a-z_]+)$/.exec(category);
  if (!m) return Number.MAX_SAFE_INTEGER;
  if (m[1] === 'custom') return 0;
  const i = Object.keys(gameCatalog().families).indexOf(m[1]!);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i + 1;
}
