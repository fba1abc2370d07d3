import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUuid } from '#src/lib/uuid.ts';

/** The fixed service abbreviation that starts every token (DECISIONS: `stb`). */
export const TOKEN_PREFIX = 'stb';
export const KEY_TYPES = ['client', 'website', 'integration'] as const;
export type KeyType = (typeof KEY_TYPES)[number];
export type TokenType = KeyType | 'bootstrap';

/** Bytes of randomness in a secret (DECISIONS: at least 32). */
const SECRET_BYTES = 32;
const SECRET_RE = /^[A-Za-z0-9_-]{43,128}$/;

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

/**
 * Splits a token on its first three underscores only (the secret may contain `_`). Returns null for anything
 * that is not a well-formed token; the id is lower-cased.
 */
export function parseToken(raw: string): ParsedToken | null {
  const a = raw.indexOf('_');
  const b = a < 0 ? -1 : raw.indexOf('_', a + 1);
  const c = b < 0 ? -1 : raw.indexOf('_', b + 1);
  if (c < 0) return null;
  if (raw.slice(0, a) !== TOKEN_PREFIX) return null;
  const type = raw.slice(a + 1, b);
  const id = raw.slice(b + 1, c);
  const secret = raw.slice(c + 1);
  if (type !== 'client' && type !== 'website' && type !== 'integration' && type !== 'bootstrap') return null;
  if (!isUuid(id) || !SECRET_RE.test(secret)) return null;
  return { type, id: id.toLowerCase(), secret };
}

/** SHA-256, hex: the only form in which secrets are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex SHA-256 digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/** The digest compared against when a key id is unknown, so that both paths do the same work. */
export const DUMMY_HASH = sha256Hex('statboard-unknown-key');
