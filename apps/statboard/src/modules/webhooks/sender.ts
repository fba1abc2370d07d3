import http from 'node:http';
import https from 'node:https';
import { blockedHost, guardedLookup, hostOf } from './address-guard.ts';

/** What one attempt came to: the receiver's status code, or why there was none. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private addresses may be reached. */
  allowPrivate: boolean;
}

/** Bytes of a receiver's answer read (and dropped); past it the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one delivery. Success is a 2xx answer within `timeoutMs` (redirects are not followed: a 3xx is a
 * failure). The address is checked when the connection is made, not only when the webhook was saved.
 */
export function send(req: OutgoingRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.resolve(done(null, 'the URL is not valid'));
  }
  if (!req.allowPrivate) {
    const why = blockedHost(hostOf(url));
    if (why !== null) return Promise.resolve(done(null, `refused: ${why}`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(statusCode, error));
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
        agent: false,
        ...(req.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => finish(res.statusCode ?? null, null));
        res.on('close', () => finish(res.statusCode ?? null, null));
        res.on('error', () => finish(res.statusCode ?? null, null));
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no answer within ${req.timeoutMs / 1000} s`);
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish(null, describe(err));
    });
    request.end(req.body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'EBLOCKED':
      return err.message;
    default:
      return err.code ? `${err.code}: ${err.message}` : err.message;
  }
}
