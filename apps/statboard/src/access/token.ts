import { hash, randomBytes } from 'node:crypto';

/** The fixed service abbreviation that starts every token. */
export const TOKEN_PREFIX = 'stb';
export const KEY_TYPES = ['client', 'website', 'integration'] as const;
export type KeyType = (typeof KEY_TYPES)[number];
export type TokenType = KeyType | 'bootstrap';

/** Bytes of randomness in a secret (at least 32). */
const SECRET_BYTES = 32;

export interface ParsedToken {
  type: TokenType;
  id: string;
  secret: string;
}

/** A new random secret: 32 bytes, base64url (43 characters, may contain `_` and `-`). */
export function generateSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** `stb_<type>_<uuid>_<secret>` */
export function formatToken(type: TokenType, id: string, secret: string): string {
  return `${TOKEN_PREFIX}_${type}_${id}_${secret}`;
}

/** The whole token in one pass: type, key id (any case) and secret (which may itself contain `_`). */
const TOKEN_RE = new RegExp(
  `^${TOKEN_PREFIX}_(client|website|integration|bootstrap)_` +
    '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})_([A-Za-z0-9_-]{43,128})$',
);

/**
 * Splits a token into its type, key id and secret. Returns null for anything that is not a well-formed token;
 * the id is lower-cased.
 */
export function parseToken(raw: string): ParsedToken | null {
  const m = TOKEN_RE.exec(raw);
  if (m === null) return null;
  return { type: m[1] as TokenType, id: m[2]!.toLowerCase(), secret: m[3]! };
}

/** SHA-256, hex: the only form in which secrets are stored. */
export function sha256Hex(value: string): string {
  // The one-shot form: several times cheaper than createHash() for short inputs, and this runs per request.
  return hash('sha256', value, 'hex');
}

/**
 * Constant-time comparison of two SHA-256 digests in hex: every one of the 64 characters is compared, with no
 * branch on their values, whatever they hold. Both come from `sha256Hex` (lower case); anything of another
 * length never matches.
 */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== 64 || b.length !== 64) return false;
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The digest compared against when a key id is unknown, so that both paths do the same work. */
export const DUMMY_DIGEST = sha256Hex('statboard-unknown-key');
