/**
 * Offline-mode player UUIDs, as the server computes them: `UUID.nameUUIDFromBytes("OfflinePlayer:" + name)`,
 * a version 3 (MD5) UUID.
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';

/** Formats 16 bytes as a lower-case dashed UUID. */
export function formatUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The offline-mode UUID of a player name (case-sensitive, UTF-8), like Java's `UUID.nameUUIDFromBytes`. */
export function offlinePlayerUuid(name: string): string {
  const bytes = createHash('md5').update(`OfflinePlayer:${name}`, 'utf8').digest();
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x30;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}
