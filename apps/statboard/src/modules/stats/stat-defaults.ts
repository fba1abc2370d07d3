import { gameCatalog } from './game-catalog.ts';
import type { StatUnit } from './schemas.ts';

/**
 * A key of the game's statistics as the mod writes them: `minecraft.<type>:<namespace>.<path>`
 * (`minecraft.mined:minecraft.stone`), each identifier's `:` replaced by `.`.
 */
const GAME_KEY = /^minecraft\.([a-z0-9_]+):([a-z0-9_-]+)\.([A-Za-z0-9_.\-/+]+)$/;

/**
 * Custom statistics the game renamed, by their old id: worlds played before 1.17 report `play_one_minute`, which
 * counted ticks (not minutes) and is today's `play_time`.
 */
const RENAMED_CUSTOM: Readonly<Record<string, string>> = { play_one_minute: 'play_time' };

function parse(key: string): { type: string; namespace: string; path: string } | null {
  const m = GAME_KEY.exec(key);
  if (!m) return null;
  const [type, namespace, path] = [m[1]!, m[2]!, m[3]!];
  const renamed = type === 'custom' && namespace === 'minecraft' ? RENAMED_CUSTOM[path] : undefined;
  return { type, namespace, path: renamed ?? path };
}

/** "walk_under_water_one_cm" → "Walk Under Water One Cm": the readable fallback for ids the catalog lacks. */
export function titleCase(id: string): string {
  return id
    .split(/[_\-/.+]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The name a statistic has until an admin gives it one: the game's own English name for the `minecraft`
 * namespace ("Time Played", "Stone Mined", "Zombie Kills", "Killed by Zombie"), a title-casing of the id for what
 * the pinned game version does not know (a newer version, a mod's block), and the key itself for other
 * namespaces, whose names only their admins know.
 */
export function defaultStatName(key: string): string {
  const k = parse(key);
  if (!k) return key;
  const c = gameCatalog();
  const known = k.namespace === 'minecraft';
  if (k.type === 'custom') return (known ? c.custom[k.path] : undefined) ?? titleCase(k.path);
  const family = c.families[k.type];
  if (!family) return `${titleCase(k.type)}: ${titleCase(k.path)}`;
  const thing = (known ? c[family.of][k.path] : undefined) ?? titleCase(k.path);
  return family.name.replace('%s', thing);
}

/**
 * The unit a statistic has until an admin sets one. Only the game's custom statistics measure something other
 * than a count: distances end in `_one_cm` (centimetres), damage starts with `damage_` (tenths of a health
 * point), and times say so in their id or name (`play_time`, `time_since_death`, "Sneak Time": ticks).
 */
export function defaultStatUnit(key: string): StatUnit {
  const k = parse(key);
  if (k?.type !== 'custom') return 'count';
  if (k.path.endsWith('_one_cm')) return 'cm';
  if (k.path.startsWith('damage_')) return 'damage';
  const name = k.namespace === 'minecraft' ? (gameCatalog().custom[k.path] ?? '') : '';
  if (/(^|_)time(_|$)/.test(k.path) || /\btime\b/i.test(name)) return 'ticks';
  return 'count';
}

/** The game's distances rise by at most this many centimetres an hour (200 km: faster than any way to travel). */
const MAX_CM_PER_HOUR = 20_000_000;
/** Every other game statistic: an hour of ticks (20 a second), which also bounds any count a player can reach. */
const MAX_GAME_PER_HOUR = 72_000;

/**
 * How much a statistic may rise in an hour ("Trusting the numbers" in the README) until an admin sets it: the
 * game's distances (`minecraft.custom:minecraft.*_one_cm`) 20,000,000, every other statistic the game counts
 * (`minecraft.<type>:…`) 72,000, other namespaces no limit (null). Stored with the definition when ingest creates
 * it; migration 0023 applied the same rule to those that existed.
 */
export function defaultMaxPerHour(key: string): number | null {
  const k = parse(key);
  if (!k) return null;
  if (k.type === 'custom' && k.namespace === 'minecraft' && k.path.endsWith('_one_cm')) return MAX_CM_PER_HOUR;
  return MAX_GAME_PER_HOUR;
}
