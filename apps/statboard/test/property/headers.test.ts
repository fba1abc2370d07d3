import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { expectError, snapshotDb } from '../http/support.ts';

/**
 * Generated Authorization, Content-Type and X-Request-ID headers on every key route: a token that is not
 * exactly a valid key is 401 INVALID_API_KEY, never a 5xx, never a write; X-Request-ID follows its rule.
 */

let ctx: TestContext;
let fx: Fixture;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Property headers');
});
afterAll(async () => {
  await ctx?.close();
});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ROUTES: { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'POST', url: '/api/v1/ingest/batch' },
  { method: 'GET', url: '/api/v1/players' },
  { method: 'GET', url: '/api/v1/players/3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b' },
  { method: 'GET', url: '/api/v1/players/3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b/stats' },
  { method: 'GET', url: '/api/v1/leaderboards?season=s1&stat=a:b' },
  { method: 'GET', url: '/api/v1/online' },
  { method: 'GET', url: '/api/v1/seasons' },
];

/** Header values a client could put on the wire: printable ASCII, tabs, and latin-1 bytes. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constant('\t') },
    ),
    maxLength,
  });

function send(
  route: { method: 'GET' | 'POST'; url: string },
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  if (route.method === 'POST') {
    return ctx.app.inject({
      method: 'POST',
      url: route.url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(modBatch({ uuid: crypto.randomUUID() })),
    });
  }
  return ctx.app.inject({ method: 'GET', url: route.url, headers });
}

/** Token-shaped strings: right and wrong prefixes, types, ids and secrets, and mutations of real tokens. */
function tokenLike(): fc.Arbitrary<string> {
  const real = () => Object.values(fx.keys);
  const part = (good: string[], bad: fc.Arbitrary<string>) => fc.oneof(fc.constantFrom(...good), bad);
  const assembled = fc
    .tuple(
      part(['stb'], fc.constantFrom('STB', 'mst', '', 'stb ')),
      part(['client', 'website', 'integration'], fc.constantFrom('bootstrap', 'admin', 'Client', '')),
      part([fx.keyIds.client!, fx.keyIds.website!], fc.oneof(fc.uuid(), headerText(36))),
      fc.oneof(fc.base64String({ minLength: 0, maxLength: 90 }), headerText(60)),
    )
    .map((parts) => parts.join('_'));
  const mutated = fc
    .tuple(fc.nat(), fc.nat(), fc.constantFrom('flip', 'cut', 'append', 'case'))
    .map(([which, pos, op]) => {
      const t = real()[which % real().length]!;
      const i = pos % t.length;
      switch (op) {
        case 'flip':
          // Never a mere case change: the key id is case-insensitive.
          return `${t.slice(0, i)}${t[i] === 'A' || t[i] === 'a' ? 'B' : 'A'}${t.slice(i + 1)}`;
        case 'cut':
          return t.slice(0, i);
        case 'append':
          return `${t}x`;
        default:
          return t.toUpperCase();
      }
    });
  return fc.oneof(assembled, mutated, headerText(200));
}

describe('key routes: generated headers', () => {
  it('answers any Authorization that is not a valid key with 401 INVALID_API_KEY and writes nothing', async () => {
    const before = await snapshotDb(ctx.db);
    const tokens = new Set(Object.values(fx.keys));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.oneof(
          tokenLike().map((t) => `Bearer ${t}`),
          fc
            .tuple(fc.constantFrom('Bearer', 'bearer', 'Basic', 'Token', 'Bearer:', ''), tokenLike())
            .map(([s, t]) => `${s} ${t}`),
          headerText(300),
          fc.integer({ min: 1000, max: 4000 }).map((n) => `Bearer ${'Z'.repeat(n)}`),
        ),
        async (route, authorization) => {
          // Strings that still hold a real token exactly are not the subject here.
          const m = /^bearer +(\S+) *$/i.exec(authorization);
          fc.pre(!(m && tokens.has(m[1]!)));
          const res = await send(route, { authorization });
          expectError(res, 401, 'INVALID_API_KEY');
          expect(await snapshotDb(ctx.db)).toEqual(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('echoes X-Request-ID when it is 1–128 printable ASCII characters of the safe set and otherwise makes a new UUID', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.oneof(
          headerText(140),
          fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 130 }).map((s) => s.replace(/[\r\n\0]/g, '')),
          fc.integer({ min: 120, max: 300 }).map((n) => 'r'.repeat(n)),
        ),
        fc.constantFrom('valid', 'invalid', 'none'),
        async (route, id, auth) => {
          const headers: Record<string, string> = { 'x-request-id': id };
          if (auth === 'valid')
            headers.authorization = `Bearer ${route.method === 'POST' ? fx.keys.client : fx.keys.website}`;
          if (auth === 'invalid') headers.authorization = 'Bearer nope';
          const res = await send(route, headers);
          expect(res.statusCode).toBeLessThan(500);
          const got = res.headers['x-request-id'];
          // Printable ASCII without the characters that could turn it into markup or an escape: " ' < > \ `
          const printable = /^[\x20-\x7e]{1,128}$/.test(id) && !/["'<>\\`]/.test(id);
          const padded = /^\s|\s$/.test(id);
          if (printable && !padded) expect(got).toBe(id);
          else if (!printable) expect(got).toMatch(UUID_RE);
          // Leading or trailing blanks are trimmed by HTTP itself; either answer is fine then.
          if (res.statusCode === 200 && route.method === 'POST') expect(res.json().request_id).toBe(got);
          if (res.statusCode >= 400) expect(expectError(res, res.statusCode).error.request_id).toBe(got);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers generated Content-Types on GET routes normally (a GET body is not read)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES.filter((r) => r.method === 'GET')),
        headerText(60),
        async (route, type) => {
          const res = await ctx.app.inject({
            method: 'GET',
            url: route.url,
            headers: { authorization: `Bearer ${fx.keys.website}`, 'content-type': type },
          });
          expect(res.statusCode).toBeLessThan(500);
          if (res.statusCode !== 200) expectError(res, res.statusCode);
        },
      ),
      { numRuns: 150 },
    );
  });
});
