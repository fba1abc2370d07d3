import { isIP } from 'node:net';

/**
 * Whether a URL's host is this machine only (localhost, 127.0.0.0/8, ::1, or the unspecified address): a
 * player's game client resolves such a URL to its own machine, so a mod configured with it never reaches the
 * service.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  // The URL parser writes an IPv4-mapped 127.x.y.z as ::ffff:7fxx:yyzz.
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^::ffff:7f[0-9a-f]{2}:/.test(host);
  return false;
}
