/**
 * A typed client for the Statboard API. Paths, parameters, bodies and answers come from the service's own OpenAPI
 * document (`./schema.ts`, generated), so a call that the service would refuse for its shape does not compile.
 *
 * @example A website reading a leaderboard with a website key
 * ```ts
 * const statboard = createStatboardClient({ baseUrl: 'https://stats.example.com', apiKey: process.env.STATBOARD_KEY });
 * const board = await ok(statboard.GET('/api/v1/leaderboards', {
 *   params: { query: { season: 's1', stat: 'minecraft.custom:minecraft.play_time', limit: 10 } },
 * }));
 * for (const e of board.entries) console.log(e.rank, e.player.username, e.value);
 * ```
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export {
  DAMAGE_PER_HEART,
  type FormatStatValueOptions,
  formatStatValue,
  STAT_UNIT_LABELS,
  STAT_UNITS,
  type StatUnit,
  type StatValueStyle,
  TICKS_PER_SECOND,
} from './format.ts';
export type { components, operations, paths } from './schema.ts';

/** Every named shape of the API: `Schemas['ApiKey']`, `Schemas['Server']`, … */
export type Schemas = components['schemas'];

/** The client: `GET`, `POST`, `PUT`, `DELETE` of every path, typed (openapi-fetch). */
export type StatboardClient = Client<paths>;

export interface StatboardOptions {
  /** The service's origin, e.g. `https://stats.example.com`. Default: the page's own origin (in a browser). */
  baseUrl?: string;
  /**
   * An API key (`stb_…`), sent as `Authorization: Bearer`: websites, bots and tools. Leave it out in a browser
   * signed in to the console, where the session cookie authenticates admin routes.
   */
  apiKey?: string;
  /** Another `fetch` (tests, a proxy agent). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Every answer that is not 2xx throws a {@link StatboardError} (default true), so `data` is the answer
   * wherever the call returns. False: errors come back as `error`, as openapi-fetch returns them.
   */
  throwOnError?: boolean;
}

/** The error shape of every failed answer: `{error: {code, message, request_id, details?}}`. */
interface WireError {
  error?: { code?: string; message?: string; request_id?: string; details?: Record<string, string[]> };
}

/**
 * A failed answer: its HTTP status, the service's error code (`NOT_FOUND`, `INVALID_API_KEY`, …), its message,
 * the request id to quote when asking for help, and per-field messages of a refused body (`details`).
 */
export class StatboardError extends Error {
  override readonly name = 'StatboardError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: Record<string, string[]> | null = null,
    /** Seconds to wait before trying again (429, 503), from `Retry-After`. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** Builds the error of a failed answer (its body read from a copy). */
  static async from(response: Response): Promise<StatboardError> {
    let body: WireError = {};
    try {
      body = (await response.clone().json()) as WireError;
    } catch {
      // Not JSON (a proxy's page): the status says what it can.
    }
    const e = body.error ?? {};
    const retry = Number(response.headers.get('retry-after'));
    return new StatboardError(
      response.status,
      e.code ?? `HTTP_${response.status}`,
      e.message ?? (response.statusText || `The service answered ${response.status}.`),
      e.request_id ?? response.headers.get('x-request-id'),
      e.details ?? null,
      Number.isFinite(retry) && retry > 0 ? retry : null,
    );
  }
}

const throwErrors: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await StatboardError.from(response);
    return undefined;
  },
};

/** A client of the Statboard API at `options.baseUrl`. */
export function createStatboardClient(options: StatboardOptions = {}): StatboardClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.throwOnError !== false) client.use(throwErrors);
  return client;
}

/** What a call returns: the answer, or the error (openapi-fetch's `FetchResponse`). */
type Answer<T> = { data: T; error?: never; response: Response } | { data?: never; error: unknown; response: Response };

/**
 * The answer of a call, or a thrown {@link StatboardError}: `const me = await ok(client.GET('/api/v1/admin/me'))`.
 * Answers without a body (204) come back as `undefined`.
 */
export async function ok<T>(call: Promise<Answer<T>>): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw await StatboardError.from(response);
  return data as NonNullable<T>;
}
