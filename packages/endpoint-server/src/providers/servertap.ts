/**
 * External placeholders through ServerTap: `POST <url>/v1/placeholders/replace`
 * with form fields `message` and `uuid`, header `key`; the answer is a JSON string.
 *
 * All placeholders of one render go out in one request, joined by a random separator that no placeholder or
 * answer can contain; when the answer does not split back into the right count, each is asked alone.
 * Identical requests in flight are shared, and sockets are capped, so slow answers never pile up.
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { ServerTapSettings } from '../config.ts';
import { SharedRequests } from './shared-requests.ts';

/** Resolves external placeholders for a player UUID (or none). */
export interface PlaceholderProvider {
  /** Answers `placeholders` (each `%name%`) in order. */
  resolve(placeholders: readonly string[], uuid: string | null, signal: AbortSignal): Promise<readonly string[]>;
  /** Closes kept-alive connections. */
  close(): void;
}

/** Options of {@link createServerTapProvider}. */
export interface ServerTapOptions {
  /** Most concurrent connections to ServerTap (default 32); further requests queue. */
  readonly maxSockets?: number;
  /** Largest answer accepted, in bytes (default 1 MiB). */
  readonly maxResponseBytes?: number;
}

/** ServerTap answered something other than a JSON string with status 2xx. */
export class ServerTapError extends Error {
  override readonly name = 'ServerTapError';
}

// A placeholder that is exactly `%…%` with no inner `%` is self-contained for PlaceholderAPI's scanner; the
// separator starts with a space (which ends an unterminated identifier) and holds no `%`.
const SELF_CONTAINED = /^%[^%]+%$/;

/** Creates a ServerTap placeholder provider. */
export function createServerTapProvider(
  settings: ServerTapSettings,
  options: ServerTapOptions = {},
): PlaceholderProvider {
  const endpoint = new URL(`${settings.url}/v1/placeholders/replace`);
  const isHttps = endpoint.protocol === 'https:';
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 32,
    maxFreeSockets: options.maxSockets ?? 32,
  };
  // node:https (and TLS) is loaded only for an https URL: ~1.5 MB less memory for the usual local ServerTap.
  const https = isHttps ? (createRequire(import.meta.url)('node:https') as typeof import('node:https')) : null;
  const agent = https ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const request = https ? https.request : http.request;
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  const separator = ` <es-${randomBytes(12).toString('hex')}> `;
  const shared = new SharedRequests<string>();

  const post = (message: string, uuid: string | null, signal: AbortSignal): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const form = new URLSearchParams();
      form.set('message', message);
      if (uuid !== null) form.set('uuid', uuid);
      const body = form.toString();
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
        accept: 'application/json',
      };
      if (settings.key !== null) headers.key = settings.key;
      const req = request(endpoint, { method: 'POST', agent, headers, signal }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new ServerTapError('ServerTap answer too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) {
            reject(new ServerTapError(`ServerTap answered HTTP ${status}`));
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            reject(new ServerTapError('ServerTap answered something that is not JSON'));
            return;
          }
          if (typeof parsed !== 'string') {
            reject(new ServerTapError('ServerTap answered JSON that is not a string'));
            return;
          }
          resolve(parsed);
        });
      });
      req.on('error', (error) => reject(signal.aborted ? signal.reason : error));
      req.end(body);
    });

  const ask = (message: string, uuid: string | null, signal: AbortSignal): Promise<string> =>
    shared.run(`${uuid ?? ''}\n${message}`, (s) => post(message, uuid, s), signal);

  const each = (placeholders: readonly string[], uuid: string | null, signal: AbortSignal): Promise<string[]> =>
    Promise.all(placeholders.map((p) => ask(p, uuid, signal)));

  return {
    async resolve(placeholders, uuid, signal) {
      if (placeholders.length === 0) return [];
      if (placeholders.length === 1) return [await ask(placeholders[0] ?? '', uuid, signal)];
      const batchable: string[] = [];
      const alone: string[] = [];
      for (const p of placeholders) (SELF_CONTAINED.test(p) ? batchable : alone).push(p);
      const answers = new Map<string, string>();
      const work: Promise<void>[] = [];
      if (batchable.length > 1) {
        work.push(
          ask(batchable.join(separator), uuid, signal).then(async (joined) => {
            const parts = joined.split(separator);
            const values = parts.length === batchable.length ? parts : await each(batchable, uuid, signal);
            batchable.forEach((p, i) => {
              answers.set(p, values[i] ?? p);
            });
          }),
        );
      } else {
        alone.push(...batchable);
      }
      if (alone.length > 0)
        work.push(
          each(alone, uuid, signal).then((values) => {
            alone.forEach((p, i) => {
              answers.set(p, values[i] ?? p);
            });
          }),
        );
      await Promise.all(work);
      return placeholders.map((p) => answers.get(p) ?? p);
    },
    close() {
      agent.destroy();
    },
  };
}
