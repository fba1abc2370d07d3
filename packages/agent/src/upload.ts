/** One `POST /ingest/server` body (see the service's OpenAPI, operation `ingestServer`). */
export interface UploadBody {
  observed_at: string;
  players: { uuid: string; username?: string; stats: { key: string; value: number }[] }[];
  online?: string[];
}

/**
 * What became of an upload. `retry`: worth sending again later (the network, a 5xx, 429; and 401, 403, 404,
 * which an operator fixes on the service: the key, the server, the season). Anything else (400, 413, 422) is the
 * data's fault and is not sent again as it is.
 */
export type UploadOutcome = { ok: true } | { ok: false; retry: boolean; reason: string };

/** The service's ingest URL from the base URL an operator gives (with or without `/api/v1`). */
export function ingestUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return `${trimmed.endsWith('/api/v1') ? trimmed : `${trimmed}/api/v1`}/ingest/server`;
}

const RETRY_STATUSES = new Set([401, 403, 404, 408, 429]);

/** Sends one upload; never throws. */
export async function postUpload(
  url: string,
  key: string,
  body: UploadBody,
  timeoutMs: number,
): Promise<UploadOutcome> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, retry: true, reason: cause?.code ?? cause?.message ?? (err as Error).message };
  }
  if (res.ok) {
    await res.arrayBuffer().catch(() => undefined);
    return { ok: true };
  }
  let message = '';
  try {
    const doc = (await res.json()) as { error?: { code?: string; message?: string; details?: unknown } };
    const details = doc.error?.details === undefined ? '' : ` ${JSON.stringify(doc.error.details).slice(0, 300)}`;
    message = `${doc.error?.code ?? ''}: ${doc.error?.message ?? ''}${details}`;
  } catch {
    // not the service's error shape
  }
  return {
    ok: false,
    retry: res.status >= 500 || RETRY_STATUSES.has(res.status),
    reason: `HTTP ${res.status}${message === '' ? '' : ` ${message}`}`,
  };
}
