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

/** The 16 bytes of an IPv6 address in any textual form (`::`, an IPv4 tail, a zone), or null when it is none. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(Number.parseInt(g, 16));
      }
    }
    return out;
  };
  const gap = text.indexOf('::');
  const head = groups(gap < 0 ? text : text.slice(0, gap));
  const tail = gap < 0 ? [] : groups(text.slice(gap + 2));
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 255;
  });
  return bytes;
}

const dotted = (b: Uint8Array, at: number, mask = 0): string =>
  [0, 1, 2, 3].map((i) => (b[at + i]! ^ mask) & 255).join('.');

/** Whether `b` starts with `prefix` (bytes). */
const startsWith = (b: Uint8Array, prefix: readonly number[]): boolean => prefix.every((v, i) => b[i] === v);

const ZEROS_10 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * The IPv4 addresses an IPv6 address carries, each of which a connection to it may end up reaching (through
 * the host's own stack, a NAT64 gateway or a tunnel relay), so each is judged as if it were the address itself.
 */
export function embeddedIpv4s(b: Uint8Array): string[] {
  // IPv4-mapped ::ffff:0:0/96 (RFC 4291 §2.5.5.2).
  if (startsWith(b, [...ZEROS_10, 0xff, 0xff])) return [dotted(b, 12)];
  // IPv4-translated ::ffff:0:0:0/96 (RFC 2765 §2.1).
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0])) return [dotted(b, 12)];
  // IPv4-compatible ::/96 (RFC 4291 §2.5.5.1, deprecated but still routed by some stacks); :: and ::1 are
  // the unspecified and loopback addresses themselves, judged as such.
  if (startsWith(b, [...ZEROS_10, 0, 0, 0, 0, 0]) && b[15]! <= 1) return [];
  if (startsWith(b, [...ZEROS_10, 0, 0])) return [dotted(b, 12)];
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052) and the local-use 64:ff9b:1::/48 (RFC 8215).
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return [dotted(b, 12)];
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1])) return [dotted(b, 12)];
  // 6to4 2002::/16 (RFC 3056 §2): the relay's IPv4 address in bits 16–47.
  if (startsWith(b, [0x20, 0x02])) return [dotted(b, 2)];
  // Teredo 2001:0::/32 (RFC 4380 §4): the server in bits 32–63, the client in the last 32 bits, inverted.
  if (startsWith(b, [0x20, 0x01, 0, 0])) return [dotted(b, 4), dotted(b, 12, 0xff)];
  // ISATAP interface identifiers (RFC 5214 §6.1) under any prefix: 0:5efe or 200:5efe, then the IPv4 address.
  if ((b[8] === 0 || b[8] === 2) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) return [dotted(b, 12)];
  return [];
}

const REFUSED = 'a loopback, private, link-local or reserved address';

/** Why `address` (an IP literal) may not be reached, or null when it may. */
export function blockedAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 4) return BLOCKED.check(address, 'ipv4') ? `${address} is ${REFUSED}` : null;
  const bytes = ipv6Bytes(address);
  if (bytes === null) return `${address} is not an IP address`;
  const inside = embeddedIpv4s(bytes).find((v4) => BLOCKED.check(v4, 'ipv4'));
  if (inside !== undefined) return `${address} embeds ${inside}, ${REFUSED}`;
  return BLOCKED.check(address.replace(/%.*$/, ''), 'ipv6') ? `${address} is ${REFUSED}` : null;
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
