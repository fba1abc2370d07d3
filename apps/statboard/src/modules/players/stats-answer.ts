import type { StatKey, StatKeys } from '#src/modules/stats/service.ts';

/**
 * The bytes of `GET /players/{uuid}/stats`, written straight into one buffer from `repo.playerWithValues`'s
 * text: `{"player":…,"season":…,"stats":[…]}`, the values of public definitions sorted by key (bytewise), each
 * `{"key" : …, "value" : …, "updated_at" : "…"}` and joined by `, `, exactly as PostgreSQL's `json_agg` of
 * `json_build_object` wrote them when the database built this part of the answer (so the bytes did not change).
 * A miss of the player cache builds one for every read, so no string is made per value: keys come as bytes made
 * once per definition, values as PostgreSQL wrote them, times from their milliseconds.
 */

const DAY_MS = 86_400_000;
const KEY_OPEN = Buffer.from('{"key" : ');
const VALUE_OPEN = Buffer.from(', "value" : ');
const TIME_OPEN = Buffer.from(', "updated_at" : "');
const CLOSE = Buffer.from('"}');
const SEPARATOR = Buffer.from(', ');
/** `HH:MM:SS.mmmZ`. */
const TIME_LENGTH = 13;

/** One definition's part before its value: `{"key" : "…", "value" : `. */
interface Head {
  key: string;
  order: number;
  public: boolean;
  bytes: Buffer;
}

/** The heads of a workspace's definitions, by the (cached) map they were made from. */
const headsOf = new WeakMap<StatKeys, Map<string, Head>>();

function heads(keys: StatKeys): Map<string, Head> {
  let made = headsOf.get(keys);
  if (made === undefined) {
    made = new Map();
    for (const [id, k] of keys) made.set(id, head(k));
    headsOf.set(keys, made);
  }
  return made;
}

function head(k: StatKey): Head {
  return {
    key: k.key,
    order: k.order,
    public: k.public,
    bytes: Buffer.concat([KEY_OPEN, Buffer.from(k.json), VALUE_OPEN]),
  };
}

/** `YYYY-MM-DDT` of a day (days since the epoch), for the days seen lately. */
const dates = new Map<number, Buffer>();

function dateOf(day: number): Buffer {
  let date = dates.get(day);
  if (date === undefined) {
    if (dates.size >= 10_000) dates.clear();
    const iso = new Date(day * DAY_MS).toISOString();
    date = Buffer.from(iso.slice(0, iso.length - TIME_LENGTH), 'latin1');
    dates.set(day, date);
  }
  return date;
}

/** A public value of the text, as PostgreSQL wrote it (ASCII), with its definition's head. */
interface Found {
  /** The definition's id. */
  id: string;
  head: Head;
  text: string;
  ms: number;
}

/**
 * The public values of `values` (`repo.playerWithValues`'s text), in the answers' order (the keys' bytewise
 * order); null when a value's definition is not in `keys` (a definition added since they were read), unless
 * `skipUnknown`; only those `keep` lets through (its key and number), when given. The one reading of that text: the
 * API's bytes and the public pages' numbers come from it.
 */
function publicFound(
  values: string | null,
  keys: StatKeys,
  skipUnknown: boolean,
  keep?: (key: string, value: number) => boolean,
): Found[] | null {
  const byId = heads(keys);
  const parts = values === null ? [] : values.split(' ');
  // A player holding values of most of the workspace's statistics (the mod uploads every statistic of the game at a
  // session's start): each value put at its key's place, in one pass, rather than sorted (1,000 values: 0.29 ms a
  // read sorted, 0.20 placed). A few values of many statistics: sorted.
  const placed: (Found | undefined)[] | null = parts.length / 3 >= byId.size / 4 ? new Array(byId.size) : null;
  const found: Found[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const h = byId.get(parts[i]!);
    if (h === undefined) {
      if (skipUnknown) continue;
      return null;
    }
    if (!h.public || (keep !== undefined && !keep(h.key, Number(parts[i + 1])))) continue;
    const f = { id: parts[i]!, head: h, text: parts[i + 1]!, ms: Number(parts[i + 2]) };
    if (placed === null) found.push(f);
    else placed[h.order] = f;
  }
  if (placed === null) return found.sort((a, b) => a.head.order - b.head.order);
  for (const f of placed) if (f !== undefined) found.push(f);
  return found;
}

/**
 * What a page does with a public value (its statistic's key, its number): lists it, counts it among those it leaves
 * out (a value of 0 of most statistics), or skips it.
 */
export type ValueUse = (key: string, value: number) => 'list' | 'count' | 'skip';

/**
 * The public values as numbers, with their statistics' keys and ids (what a public page shows), those `use` lists
 * only (every one without it), and how many it counted as left out; or null as `statsAnswer`. A value left out
 * costs no object: a player holds a value of every statistic of the game, most of them 0.
 */
export function publicValues(
  values: string | null,
  keys: StatKeys,
  skipUnknown = false,
  use?: ValueUse,
): { values: { key: string; id: string; value: number }[]; left: number } | null {
  let left = 0;
  const keep =
    use &&
    ((key: string, value: number) => {
      const u = use(key, value);
      if (u === 'count') left++;
      return u === 'list';
    });
  const found = publicFound(values, keys, skipUnknown, keep);
  if (found === null) return null;
  return { values: found.map((f) => ({ key: f.head.key, id: f.id, value: Number(f.text) })), left };
}

/** PostgreSQL's JSON quotes a float8 whose text is not a JSON number. */
function quoted(text: string): boolean {
  return text === 'NaN' || text === 'Infinity' || text === '-Infinity';
}

/**
 * The answer's bytes; null when a value's definition is not in `keys` (a definition added since they were read),
 * unless `skipUnknown`. `player` and `season` are their JSON.
 */
export function statsAnswer(
  player: string,
  season: Buffer,
  values: string | null,
  keys: StatKeys,
  skipUnknown = false,
): Buffer | null {
  const found = publicFound(values, keys, skipUnknown);
  if (found === null) return null;
  const dates = found.map((f) => dateOf(Math.floor(f.ms / DAY_MS)));
  let size = found.length * TIME_LENGTH;
  for (let i = 0; i < found.length; i++) {
    const f = found[i]!;
    size += f.head.bytes.length + f.text.length + (quoted(f.text) ? 2 : 0) + dates[i]!.length;
  }
  const perValue = TIME_OPEN.length + CLOSE.length + SEPARATOR.length;
  const opening = `{"player":${player},"season":`;
  const openingBytes = Buffer.byteLength(opening);
  const total = openingBytes + season.length + ',"stats":['.length + size + found.length * perValue + ']}'.length;
  const out = Buffer.allocUnsafe(total);
  let at = out.write(opening, 0, 'utf8');
  at += season.copy(out, at);
  at = ascii(out, at, ',"stats":[');
  for (let i = 0; i < found.length; i++) {
    const v = found[i]!;
    const q = quoted(v.text);
    if (i > 0) at = put(out, at, SEPARATOR);
    at = put(out, at, v.head.bytes);
    if (q) out[at++] = 0x22;
    at = ascii(out, at, v.text);
    if (q) out[at++] = 0x22;
    at = put(out, at, TIME_OPEN);
    at = put(out, at, dates[i]!);
    at = time(out, at, v.ms - Math.floor(v.ms / DAY_MS) * DAY_MS);
    at = put(out, at, CLOSE);
  }
  at = ascii(out, at, ']}');
  return at === total ? out : out.subarray(0, at);
}

function put(out: Buffer, at: number, bytes: Buffer): number {
  out.set(bytes, at);
  return at + bytes.length;
}

function ascii(out: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/** `HH:MM:SS.mmmZ` of a time of day in milliseconds. */
function time(out: Buffer, at: number, ms: number): number {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const milli = ms % 1000;
  out[at] = 0x30 + Math.floor(h / 10);
  out[at + 1] = 0x30 + (h % 10);
  out[at + 2] = 0x3a;
  out[at + 3] = 0x30 + Math.floor(m / 10);
  out[at + 4] = 0x30 + (m % 10);
  out[at + 5] = 0x3a;
  out[at + 6] = 0x30 + Math.floor(s / 10);
  out[at + 7] = 0x30 + (s % 10);
  out[at + 8] = 0x2e;
  out[at + 9] = 0x30 + Math.floor(milli / 100);
  out[at + 10] = 0x30 + (Math.floor(milli / 10) % 10);
  out[at + 11] = 0x30 + (milli % 10);
  out[at + 12] = 0x5a;
  return at + TIME_LENGTH;
}
