import { describe, expect, it } from 'vitest';
import { blockedAddress, blockedHost, embeddedIpv4s, guardedLookup, hostOf, ipv6Bytes } from './address-guard.ts';

/** How a URL's host is judged when a webhook is saved (the host as Node's URL parser normalizes it). */
const judgeUrl = (url: string) => blockedHost(hostOf(new URL(url)));

describe('ipv6Bytes', () => {
  it('reads every textual form to the same 16 bytes', () => {
    const hex = (a: string) => Buffer.from(ipv6Bytes(a) ?? []).toString('hex');
    expect(hex('::7f00:1')).toBe('0000000000000000000000007f000001');
    expect(hex('::127.0.0.1')).toBe(hex('::7f00:1'));
    expect(hex('0:0:0:0:0:ffff:7f00:1')).toBe(hex('::ffff:127.0.0.1'));
    expect(hex('2002:7f00:1::')).toBe('20027f00000100000000000000000000');
    expect(hex('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
    expect(hex('1:2:3:4:5:6:7:8')).toBe('00010002000300040005000600070008');
    expect(ipv6Bytes('127.0.0.1')).toBeNull();
    expect(ipv6Bytes('not-an-address')).toBeNull();
  });
});

describe('embeddedIpv4s', () => {
  const embedded = (a: string) => embeddedIpv4s(ipv6Bytes(a)!);

  it('finds the IPv4 address of each form that carries one', () => {
    expect(embedded('::ffff:7f00:1')).toEqual(['127.0.0.1']); // mapped
    expect(embedded('::ffff:0:7f00:1')).toEqual(['127.0.0.1']); // translated
    expect(embedded('::7f00:1')).toEqual(['127.0.0.1']); // compatible
    expect(embedded('64:ff9b::a00:1')).toEqual(['10.0.0.1']); // NAT64 well-known prefix
    expect(embedded('64:ff9b:1::7f00:1')).toEqual(['127.0.0.1']); // NAT64 local-use prefix
    expect(embedded('2002:c0a8:101::1')).toEqual(['192.168.1.1']); // 6to4
    // Teredo: server 65.54.227.120, client 192.168.1.1 stored inverted (3f57:fefe).
    expect(embedded('2001:0:4136:e378:8000:63bf:3f57:fefe')).toEqual(['65.54.227.120', '192.168.1.1']);
    expect(embedded('2a00:1450::5efe:a00:1')).toEqual(['10.0.0.1']); // ISATAP
  });

  it('finds none in an ordinary address', () => {
    expect(embedded('2606:4700:4700::1111')).toEqual([]);
    expect(embedded('2a00:1450:4001:82b::200e')).toEqual([]);
  });
});

describe('the webhook address check', () => {
  it('refuses every IPv6 form that embeds a loopback, private or link-local IPv4 address', () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[64:ff9b:1::7f00:1]/',
      'http://[64:ff9b:1:ffff::10.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[2002:c0a8:101:1::1]/',
      // Teredo with a loopback server, then with a public server and a private client (10.0.0.1 inverted).
      'http://[2001:0:7f00:1::1]/',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
      'http://[2a00:1450::5efe:7f00:1]/',
    ]) {
      expect(judgeUrl(url), url).toMatch(/embeds (127|10|169\.254|192\.168)\.[\d.]+, a loopback, private/);
    }
  });

  it('allows the same forms around a public IPv4 address', () => {
    for (const url of [
      'http://[::ffff:93.184.216.34]/',
      'http://[::ffff:0:5db8:d822]/',
      'http://[::5db8:d822]/',
      'http://[64:ff9b::5db8:d822]/',
      'http://[64:ff9b:1::5db8:d822]/',
      'http://[2002:5db8:d822::1]/',
      'http://[2001:0:4136:e378:8000:63bf:a247:27dd]/',
      'http://[2606:4700:4700::1111]/',
    ]) {
      expect(judgeUrl(url), url).toBeNull();
    }
  });

  it('still judges IPv6 ranges and plain IPv4 addresses as before', () => {
    expect(blockedAddress('::1')).toMatch(/^::1 is a loopback/);
    expect(blockedAddress('::')).toMatch(/is a loopback/);
    expect(blockedAddress('fe80::1%eth0')).toMatch(/is a loopback/);
    expect(blockedAddress('fd00:ec2::254')).toMatch(/is a loopback/);
    expect(blockedAddress('127.0.0.1')).toBe('127.0.0.1 is a loopback, private, link-local or reserved address');
    expect(blockedAddress('93.184.216.34')).toBeNull();
    expect(blockedAddress('localhost')).toBe('localhost is not an IP address');
  });
});

describe('the connection-time lookup', () => {
  it('refuses an address embedding a refused IPv4 address, as the save-time check does', async () => {
    const lookup = (host: string) =>
      new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(host, {}, (err) => resolve(err)));
    for (const address of ['::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '2002:7f00:1::']) {
      const err = await lookup(address);
      expect(err?.code, address).toBe('EBLOCKED');
      expect(err?.message).toMatch(/embeds 127\.0\.0\.1/);
    }
    expect(await lookup('64:ff9b::5db8:d822')).toBeNull();
  });
});
