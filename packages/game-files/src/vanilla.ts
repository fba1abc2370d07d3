import { isPlayerName, isStatKey, isStatValue, MAX_VALUE } from './upload-rules.ts';
import { isUuid } from './uuid.ts';

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
 * A piece of a file, quoted in a skip reason: at most 40 characters, as printable ASCII (anything else escaped),
 * so a reason printed on a terminal can neither move the cursor nor reorder the text around it.
 */
function quoted(text: string): string {
  const ascii = JSON.stringify(text.slice(0, 40)).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return text.length > 40 ? `${ascii}...` : ascii;
}

/** Why a text is not JSON, without quoting it (V8's messages quote the text's first characters). */
function notJson(err: unknown): string {
  const at = err instanceof Error ? /position (\d+)/.exec(err.message) : null;
  return at ? `not JSON (at character ${at[1]})` : 'not JSON';
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
    return { ok: false, reason: notJson(err) };
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
  // `for…in` rather than `Object.entries`: a file may hold a quarter of a million statistics, and pairs for each
  // would be garbage to collect (JSON.parse gives plain objects: their keys are all own and enumerable).
  const categories = stats as Record<string, unknown>;
  for (const category in categories) {
    const entries = categories[category];
    if (!IDENTIFIER.test(category)) return { ok: false, reason: `${quoted(category)} is not a category` };
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
      return { ok: false, reason: `"stats.${category}" is not an object` };
    }
    const byStat = entries as Record<string, unknown>;
    for (const stat in byStat) {
      const value = byStat[stat];
      const key = statKey(category, stat);
      if (!IDENTIFIER.test(stat) || !isStatKey(key)) {
        return { ok: false, reason: `${quoted(stat)} in "${category}" is not a statistic` };
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return { ok: false, reason: `"stats.${category}.${stat}" is not a number` };
      }
      // As ingest refuses a whole batch with such a value (422), the whole file is skipped.
      if (!isStatValue(value)) {
        return { ok: false, reason: `"stats.${category}.${stat}" is outside ±${MAX_VALUE} (2^53 - 1)` };
      }
      values.push({ key, value });
    }
  }
  return { ok: true, values };
}

/**
 * Usernames by UUID (lower case) from a server's `usercache.json` (`[{name, uuid, expiresOn}]`). An entry whose
 * name breaks the rule of player names (as ingest's) is ignored: that player keeps the name it has. Throws, with
 * a message that quotes nothing of the text, when the text is not a JSON array.
 */
export function parseUsercache(text: string): Map<string, string> {
  const names = new Map<string, string>();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(notJson(err));
  }
  if (!Array.isArray(doc)) throw new Error('not a JSON array');
  for (const e of doc) {
    if (typeof e !== 'object' || e === null) continue;
    const { name, uuid } = e as { name?: unknown; uuid?: unknown };
    if (typeof name !== 'string' || typeof uuid !== 'string') continue;
    if (!isPlayerName(name) || !isUuid(uuid.toLowerCase())) continue;
    names.set(uuid.toLowerCase(), name);
  }
  return names;
}
