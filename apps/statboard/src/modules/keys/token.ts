import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
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
  // The one-shot form: several times cheaper than createHash() for short inputs, and this runs per request.
  return hash('sha256', value, 'hex');
}

/** SHA-256 as raw bytes, for comparing with `sameDigest`. */
export function sha256(value: string): Buffer {
  return Buffer.from(sha256Hex(value), 'hex');
}

/** Constant-time comparison of two raw SHA-256 digests. */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}

/** The digest compared against when a key id is unknown, so that both paths do the same work. */
export const DUMMY_DIGEST = sha256('statboard-unknown-key');
