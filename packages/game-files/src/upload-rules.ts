/**
 * What a player's upload may contain, whichever door it comes through: the mod's batches (ingest), a server's
 * vanilla statistics files (the importer), and later the server-side agent. Each rule is written here once; the
 * ingest schema states them to Ajv and the OpenAPI, the others call the functions.
 */

// ---------------------------------------------------------------------------------------------------------------
// Player names

/** The wire contract: 1–16 characters (code points, as Ajv's `minLength`/`maxLength` count them). */
export const PLAYER_NAME_MIN_LENGTH = 1;
export const PLAYER_NAME_MAX_LENGTH = 16;

/**
 * Characters no name may hold: control, format (bidirectional overrides, zero-width joiners, soft hyphen),
 * unassigned, private-use, surrogate, line and paragraph separators, and the characters that print as nothing
 * or as a blank: every space but U+0020 (U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000), the Hangul
 * fillers (U+115F, U+1160, U+3164, U+FFA0), the Braille blank U+2800, the combining grapheme joiner U+034F, the
 * Khmer inherent vowels U+17B4–U+17B5, U+180E, and the ranges around the format characters (U+2000–U+200F,
 * U+2028–U+202F, U+205F–U+206F, U+FEFF) whole, including their unassigned code points.
 */
const NOT_IN_NAMES =
  '\\p{Cc}\\p{Cf}\\p{Cn}\\p{Co}\\p{Cs}\\p{Zl}\\p{Zp}' +
  '\\u00A0\\u034F\\u115F\\u1160\\u1680\\u17B4\\u17B5\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u206F' +
  '\\u2800\\u3000\\u3164\\uFEFF\\uFFA0';

/**
 * A player name, as a JSON Schema `pattern` (Ajv compiles patterns with the `u` flag) so that every client of the
 * OpenAPI can check it too:
 * - it starts with neither a space nor a combining mark (a name must begin with something visible), and does not
 *   end with a space; so a name of spaces only is refused;
 * - no run of more than 2 combining marks (`\p{M}`): longer runs pile up over or under the line ("Zalgo" text);
 * - none of the characters above.
 * Minecraft's own account names (3–16 of `A-Z a-z 0-9 _`) always pass; so do the other names servers see
 * (offline mode, Bedrock players through Geyser/Floodgate: `.Steve`, `*Alex`, `Élodie`, `小明`).
 */
export const PLAYER_NAME_PATTERN = `^(?![ \\p{M}])(?!.* $)(?!.*\\p{M}{3})[^${NOT_IN_NAMES}]+$`;

export const PLAYER_NAME_RULE =
  '1–16 characters of printable text: no control, format, invisible or blank-looking characters, no line or ' +
  'paragraph separators, no space at either end, at most 2 combining marks in a row';

const PLAYER_NAME = new RegExp(PLAYER_NAME_PATTERN, 'u');

/** True when `name` may be a player's name (the rule of {@link PLAYER_NAME_PATTERN}, length included). */
export function isPlayerName(name: string): boolean {
  let codePoints = 0;
  for (const _ of name) {
    codePoints++;
    if (codePoints > PLAYER_NAME_MAX_LENGTH) return false;
  }
  return codePoints >= PLAYER_NAME_MIN_LENGTH && PLAYER_NAME.test(name);
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics

/** Bounds of a stored value: exactly representable integers (and any finite number between). */
export const MAX_VALUE = Number.MAX_SAFE_INTEGER;

/** True for a finite number within ±{@link MAX_VALUE}. */
export function isStatValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_VALUE;
}

/** `minecraft.mined:minecraft.stone`, `minecraft:custom:minecraft:play_time`: colon-separated, dots allowed. */
export const STAT_KEY_PATTERN = '^[A-Za-z0-9_.\\-/+]+(:[A-Za-z0-9_.\\-/+]+)+$';
export const STAT_KEY_MAX_LENGTH = 255;

const STAT_KEY = new RegExp(STAT_KEY_PATTERN);

/** True when `key` may name a statistic. */
export function isStatKey(key: string): boolean {
  return key.length >= 1 && key.length <= STAT_KEY_MAX_LENGTH && STAT_KEY.test(key);
}

// ---------------------------------------------------------------------------------------------------------------
// Observation times

/**
 * How far ahead of the service's clock a client's clock may run. A value observed "in the future" would be
 * frozen until then (no earlier observation may replace it), so observations are never stored later than the
 * moment of the upload: the mod's by at most this skew, a file's (import) not at all.
 */
export const CLIENT_CLOCK_SKEW_MS = 5 * 60_000;

/** The observation time to store: `observed`, unless it is later than `latest` (both in ms since the epoch). */
export function observedNoLaterThan(observed: number, latest: number): Date {
  return new Date(Math.min(observed, latest));
}
