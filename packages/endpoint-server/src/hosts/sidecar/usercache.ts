/**
 * `usercache.json`: the server's name ↔ UUID cache. Entries expire one month after the player's last login,
 * so `expiresOn` minus one month is the last login when player data has none.
 * @packageDocumentation
 */

/** One player of the cache. */
export interface UsercacheEntry {
  /** Name as the server knows it. */
  readonly name: string;
  /** Lower-case dashed UUID. */
  readonly uuid: string;
  /** `expiresOn` minus one calendar month, or null when absent or unreadable. */
  readonly lastLogin: Date | null;
}

/** Lookup by lower-cased name. */
export type Usercache = ReadonlyMap<string, UsercacheEntry>;

const EXPIRES_ON = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Parses `expiresOn` (`yyyy-MM-dd HH:mm:ss Z`) and subtracts one calendar month in the written offset, as
 * `Calendar.add(MONTH, -1)` would (the day is clamped to the shorter month).
 */
export function lastLoginFromExpiresOn(expiresOn: string): Date | null {
  const m = EXPIRES_ON.exec(expiresOn.trim());
  if (!m) return null;
  const [, ys, mos, ds, hs, mins, ss, sign, ohs, oms] = m;
  let year = Number(ys);
  let month = Number(mos) - 1;
  if (month < 1) {
    month += 12;
    year -= 1;
  }
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(ds), daysInMonth);
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(ohs) * 60 + Number(oms));
  const local = Date.UTC(year, month - 1, day, Number(hs), Number(mins), Number(ss));
  const ms = local - offsetMinutes * 60_000;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** Parses `usercache.json`. Unreadable entries are skipped; for a repeated name the latest login wins. */
export function parseUsercache(text: string): Usercache {
  const data: unknown = JSON.parse(text);
  const map = new Map<string, UsercacheEntry>();
  if (!Array.isArray(data)) return map;
  for (const item of data as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, uuid, expiresOn } = item as Record<string, unknown>;
    if (typeof name !== 'string' || typeof uuid !== 'string' || !UUID.test(uuid)) continue;
    const entry: UsercacheEntry = {
      name,
      uuid: uuid.toLowerCase(),
      lastLogin: typeof expiresOn === 'string' ? lastLoginFromExpiresOn(expiresOn) : null,
    };
    const key = name.toLowerCase();
    const existing = map.get(key);
    if (existing && (existing.lastLogin?.getTime() ?? 0) > (entry.lastLogin?.getTime() ?? 0)) continue;
    map.set(key, entry);
  }
  return map;
}
