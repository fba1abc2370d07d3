import { isUuid } from '#src/lib/uuid.ts';
import { STAT_KEY_PATTERN } from '#src/modules/ingest/schemas.ts';

const STAT_KEY = new RegExp(STAT_KEY_PATTERN);
/** Vanilla identifiers: `namespace:path`, lower case (Minecraft's ResourceLocation). */
const IDENTIFIER = /^[a-z0-9_.-]+:[a-z0-9_./-]+$/;

/** A statistics file's values, as the mod names them, or why the file is skipped. */
export type ParsedStats = { ok: true; values: { key: string; value: number }[] } | { ok: false; reason: string };

/**
 * The mod's key of a vanilla statistic: each identifier with its `:` replaced by `.`, joined by `:`
 * (`minecraft:custom` + `minecraft:play_time` → `minecraft.custom:minecraft.play_time`).
 */
export function statKey(category: string, stat: string): string {
  return `${category.replace(':', '.')}:${stat.replace(':', '.')}`;
}

/** The player UUID a file `<uuid>.json` belongs to (lower case), or null. */
export function playerOfFile(name: string): string | null {
  const m = /^([0-9A-Fa-f-]{36})\.json$/.exec(name);
  return m && isUuid(m[1]!.toLowerCase()) ? m[1]!.toLowerCase() : null;
}

/**
 * Reads one `world/stats/<uuid>.json` of Minecraft 1.13 or later: `{"stats": {"<category>": {"<stat>": n}},
 * "DataVersion": n}`. Files of older versions (flat `stat.*` and `achievement.*` keys), empty, unparseable or
 * ill-formed files are skipped with a reason; never an exception.
 */
export function parseVanillaStats(text: string): ParsedStats {
  if (text.trim() === '') return { ok: false, reason: 'empty file' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, reason: 'not a statistics file (expected a JSON object)' };
  }
  const root = doc as Record<string, unknown>;
  if (!('stats' in root)) {
    if (Object.keys(root).some((k) => k.startsWith('stat.') || k.startsWith('achievement.'))) {
      return { ok: false, reason: 'Minecraft before 1.13 (flat stat.* keys): its statistics have other names' };
    }
    return { ok: false, reason: 'not a statistics file (no "stats" object)' };
  }
  const stats = root.stats;
  if (typeof stats !== 'object' || stats === null || Array.isArray(stats)) {
    return { ok: false, reason: '"stats" is not an object' };
  }
  const values: { key: string; value: number }[] = [];
  for (const [category, entries] of Object.entries(stats)) {
    if (!IDENTIFIER.test(category)) return { ok: false, reason: `"${category.slice(0, 80)}" is not a category` };
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
      return { ok: false, reason: `"stats.${category}" is not an object` };
    }
    for (const [stat, value] of Object.entries(entries)) {
      const key = statKey(category, stat);
      if (!IDENTIFIER.test(stat) || key.length > 255 || !STAT_KEY.test(key)) {
        return { ok: false, reason: `"${stat.slice(0, 80)}" in "${category}" is not a statistic` };
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return { ok: false, reason: `"stats.${category}.${stat}" is not a number` };
      }
      values.push({ key, value });
    }
  }
  return { ok: true, values };
}

/** Usernames by UUID (lower case) from a server's `usercache.json` (`[{name, uuid, expiresOn}]`). */
export function parseUsercache(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const doc: unknown = JSON.parse(text);
  if (!Array.isArray(doc)) throw new Error('usercache.json is not a JSON array');
  for (const e of doc) {
    if (typeof e !== 'object' || e === null) continue;
    const { name, uuid } = e as { name?: unknown; uuid?: unknown };
    if (typeof name !== 'string' || typeof uuid !== 'string') continue;
    // As the mod sends names: 1–16 characters.
    if (name.length < 1 || name.length > 16 || !isUuid(uuid.toLowerCase())) continue;
    names.set(uuid.toLowerCase(), name);
  }
  return names;
}
