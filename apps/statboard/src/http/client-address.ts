import type { IncomingMessage } from 'node:http';
import proxyaddr from '@fastify/proxy-addr';

/** Whether an address is a trusted proxy (TRUST_PROXY), as Fastify decides it. */
export type Trust = (address: string, hop: number) => boolean;

/** TRUST_PROXY as a trust function: null (trust nobody: the socket address is the client's), everyone, or a list. */
export function trustOf(setting: boolean | readonly string[]): Trust | null {
  if (setting === false) return null;
  if (setting === true) return () => true;
  return proxyaddr.compile([...setting]);
}

/**
 * The client's address of a request: the socket's, or, behind trusted proxies, the nearest untrusted address in
 * `X-Forwarded-For` (what Fastify's `request.ip` gives for the same setting).
 */
export function clientAddressOf(req: IncomingMessage, trust: Trust | null): string {
  if (trust === null) return req.socket.remoteAddress ?? '';
  return proxyaddr(req, trust);
}
