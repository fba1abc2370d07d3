import { expect } from 'vitest';
import type { Db } from '#src/db/types.ts';
import type { TestContext } from '../helpers.ts';
import { bearer } from '../helpers.ts';

/** An answer of inject() or over HTTP. */
interface AnswerLike {
  statusCode: number;
  headers: Record<string, number | string | string[] | undefined>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: typed as inject()'s answers, which the tests are written against
  json<T = any>(): T;
}

/** Row count and a digest of every row, per table: equal snapshots mean nothing was written. */
export type DbSnapshot = Record<string, { n: number; h: string }>;

/**
 * Snapshots every table of the public schema. What background flushes write (not requests) is left out, as they
 * may fire while a long test runs: `last_used_at` of API keys, and the ingest diagnostics (rejections and upload
 * counts, which refused requests are meant to add to, and servers' `last_ingest_at`).
 */
export async function snapshotDb(db: Db): Promise<DbSnapshot> {
  let query = snapshotQueries.get(db);
  if (query === undefined) {
    const tables = await db.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
         AND table_name NOT IN ('ingest_activity', 'ingest_rejections') ORDER BY table_name`,
    );
    const row = "(to_jsonb(x) - 'last_used_at' - 'last_ingest_at')::text";
    query = tables
      .map(
        ({ t }) =>
          `SELECT '${t}' AS t, count(*)::int AS n, coalesce(md5(string_agg(${row}, '|' ORDER BY ${row})), '') AS h FROM "${t}" x`,
      )
      .join(' UNION ALL ');
    snapshotQueries.set(db, query);
  }
  const out: DbSnapshot = {};
  for (const r of await db.query<{ t: string; n: number; h: string }>(query)) out[r.t] = { n: r.n, h: r.h };
  return out;
}

const snapshotQueries = new WeakMap<Db, string>();

/** Counts rows of one table (assertions only; fixtures are built through the services). */
export async function countRows(db: Db, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE ${where}`, params);
  return rows[0]!.n;
}

interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: Record<string, string[]> };
}

/** Asserts the one error shape `{error:{code,message,request_id}}`, its status, and the X-Request-ID header. */
export function expectError(res: AnswerLike, status: number, code?: string): ErrorBody {
  const requestId = res.headers['x-request-id'];
  expect(typeof requestId, 'X-Request-ID header').toBe('string');
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as ErrorBody;
  expect(res.statusCode, JSON.stringify(body)).toBe(status);
  expect(body).toEqual({
    error: expect.objectContaining({
      code: expect.any(String),
      message: expect.any(String),
      request_id: requestId,
    }),
  });
  expect(Object.keys(body.error).sort()).toEqual(
    body.error.details === undefined ? ['code', 'message', 'request_id'] : ['code', 'details', 'message', 'request_id'],
  );
  expect(body.error.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.error.code).toBe(code);
  return body;
}

/** Asserts a 422 INVALID_PAYLOAD whose details name `field` (a key of the details map). */
export function expectInvalid(res: AnswerLike, field: string): Record<string, string[]> {
  const body = expectError(res, 422, 'INVALID_PAYLOAD');
  const details = body.error.details ?? {};
  expect(Object.keys(details), JSON.stringify(details)).toContain(field);
  for (const messages of Object.values(details)) {
    expect(Array.isArray(messages)).toBe(true);
    for (const m of messages) expect(typeof m).toBe('string');
  }
  return details;
}

export function postBatch(
  ctx: TestContext,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<AnswerLike> {
  return ctx.http({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: { ...bearer(token), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Posts a batch and requires a 200. */
export async function ingestOk(ctx: TestContext, token: string, body: unknown): Promise<void> {
  const res = await postBatch(ctx, token, body);
  expect(res.statusCode, res.body).toBe(200);
}

/** A GET over a real connection to the app as it ships (reads meet the fast path in front of Fastify). */
export function getJson(
  ctx: TestContext,
  token: string | null,
  url: string,
  headers: Record<string, string> = {},
): Promise<AnswerLike> {
  return ctx.http({ method: 'GET', url, headers: { ...(token === null ? {} : bearer(token)), ...headers } });
}

/** Runs SQL for assertions and for states no route can set yet (definition visibility, session age). */
export function sql(ctx: TestContext, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return ctx.db.query(text, params);
}

/**
 * Changes state that no route can change yet (player or definition visibility, sort order, session age), then
 * tells the service caches, where there are any, that everything of the workspace may be stale.
 */
export async function mutate(
  ctx: TestContext,
  workspaceId: string,
  text: string,
  params: unknown[] = [],
): Promise<void> {
  await ctx.db.query(text, params);
  for (const topic of ['season', 'definition', 'player', 'values'] as const)
    await ctx.bus.publish({ topic, workspaceId });
}

/** A random canonical UUID (v4). */
export function uuid(): string {
  return crypto.randomUUID();
}

/** An RFC 3339 timestamp `seconds` after a fixed instant. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 9, 6, 12, 0, 0) + seconds * 1000).toISOString();
}
