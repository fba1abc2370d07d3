import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a webhook may never reach unless WEBHOOK_ALLOW_PRIVATE=1: this host, private networks, link-local
 * (where cloud metadata services answer, 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast,
 * documentation and reserved ranges. Requests from the service to them would let whoever can create a webhook
 * probe or call what sits behind the firewall (SSRF).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Host names refused whatever they resolve to. */
const BLOCKED_NAMES = /(^|\.)localhost$|^metadata\.google\.internal$|^metadata$/i;

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why `address` (an IP literal) may not be reached, or null when it may. */
export function blockedAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address.toLowerCase()) : address;
  const blocked = v4 !== null ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(address, 'ipv6');
  return blocked ? `${address} is a loopback, private, link-local or reserved address` : null;
}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Why `host` may not be reached by name alone (an IP literal, or a name such as localhost), or null. */
export function blockedHost(host: string): string | null {
  if (isIP(host) !== 0) return blockedAddress(host);
  if (BLOCKED_NAMES.test(host.replace(/\.$/, ''))) return `${host} is a local name`;
  return null;
}

/** The addresses `host` resolves to now (as the operating system's resolver answers). */
export function resolveAll(host: string, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`resolving ${host} took longer than ${timeoutMs} ms`)), timeoutMs);
    lookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/**
 * A `lookup` for outgoing connections that refuses a name resolving to any blocked address, so the address
 * checked is the address connected to (a name that changes between a check and the connection, "DNS
 * rebinding", gains nothing).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { all: true, verbatim: true, family: options.family ?? 0 }, (err, addresses) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    for (const a of addresses) {
      const why = blockedAddress(a.address);
      if (why !== null) {
        callback(Object.assign(new Error(`refused: ${hostname} resolves to ${why}`), { code: 'EBLOCKED' }), '', 0);
        return;
      }
    }
    if (options.all) (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    else if (addresses.length === 0)
      callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
