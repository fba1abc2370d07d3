import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { expectError, snapshotDb } from '../http/support.ts';
import { nastyString, rawJsonValue } from './arbitraries.ts';

/**
 * Generated ingest bodies: whatever arrives, the answer is never a 5xx, every error has the one error shape,
 * and nothing is written unless the answer is 200.
 */

let ctx: TestContext;
let fx: Fixture;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Property ingest');
});
afterAll(async () => {
  await ctx?.close();
});

const RUNS = { numRuns: 200 };
const MARK = '__RAW_JSON_VALUE__';

function send(payload: string | Buffer, contentType = 'application/json'): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: { authorization: `Bearer ${fx.keys.client}`, 'content-type': contentType },
    payload,
  });
}

/** Statuses seen, so a property can prove it also reached the success path. */
const seen = new Map<number, number>();

/** The invariant of every generated request. */
async function checkInvariant(payload: string | Buffer, contentType?: string): Promise<void> {
  const before = await snapshotDb(ctx.db);
  const res = await send(payload, contentType);
  seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode === 200) {
    const body = res.json();
    expect(body).toEqual({
      accepted: true,
      request_id: res.headers['x-request-id'],
      server_time: expect.any(String),
      next_upload_after: 60,
    });
    return;
  }
  expect([400, 403, 404, 413, 422]).toContain(res.statusCode);
  expectError(res, res.statusCode);
  expect(await snapshotDb(ctx.db)).toEqual(before);
}

/** Paths of a mod batch (with one stat and one event) that a mutation may replace or delete. */
const PATHS: (string | number)[][] = [
  [],
  ['protocol_version'],
  ['client'],
  ['client', 'mod_version'],
  ['client', 'minecraft_version'],
  ['client', 'fabric_loader_version'],
  ['client', 'game_version'],
  ['client', 'loader_version'],
  ['player'],
  ['player', 'uuid'],
  ['player', 'username'],
  ['server'],
  ['server', 'hostname'],
  ['server', 'port'],
  ['season'],
  ['session_id'],
  ['observed_at'],
  ['stats'],
  ['stats', 0],
  ['stats', 0, 'key'],
  ['stats', 0, 'value'],
  ['stats', 1],
  ['events'],
  ['events', 0],
  ['events', 0, 'id'],
  ['events', 0, 'type'],
  ['events', 0, 'occurred_at'],
  ['events', 0, 'payload'],
  ['events', 0, 'payload', 'nested'],
  ['unknown_extra'],
];

interface Mutation {
  path: (string | number)[];
  op: 'set' | 'delete';
  raw: string;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.constantFrom(...PATHS),
  op: fc.constantFrom<'set' | 'delete'>('set', 'set', 'set', 'delete'),
  raw: rawJsonValue,
});

/** Applies mutations to a valid batch and serialises it, splicing raw JSON text in where values were replaced. */
function mutatedBody(player: string, mutations: Mutation[]): string {
  const body = modBatch({
    uuid: player,
    sessionId: crypto.randomUUID(),
    stats: [{ key: 'minecraft.mined:minecraft.stone', value: 42 }],
    events: [{ id: crypto.randomUUID(), type: 'SESSION_STARTED', occurred_at: '2026-10-06T12:00:00Z', payload: {} }],
  }) as Record<string | number, unknown>;
  const raws: string[] = [];
  let root: unknown = body;
  for (const m of mutations) {
    const value = `${MARK}${raws.length}`;
    if (m.path.length === 0) {
      if (m.op === 'set') {
        raws.push(m.raw);
        root = value;
      }
      continue;
    }
    let node: unknown = root;
    for (const k of m.path.slice(0, -1)) {
      node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[k] : undefined;
    }
    if (node === null || typeof node !== 'object') continue;
    const last = m.path[m.path.length - 1]!;
    const target = node as Record<string | number, unknown>;
    if (m.op === 'delete') {
      if (Array.isArray(target) && typeof last === 'number') target.splice(last, 1);
      else delete target[last];
    } else {
      raws.push(m.raw);
      target[last] = value;
    }
  }
  let text = JSON.stringify(root);
  raws.forEach((raw, i) => {
    text = text.replace(JSON.stringify(`${MARK}${i}`), () => raw);
  });
  return text;
}

describe('POST /api/v1/ingest/batch: generated bodies', () => {
  it('mutated mod batches (wrong types, non-finite numbers, bad UUIDs, NUL, lone surrogates, nesting, long arrays)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (player, ms) => {
        await checkInvariant(mutatedBody(player, ms));
      }),
      RUNS,
    );
  });

  it('random JSON values as the whole body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (v) => {
        await checkInvariant(JSON.stringify(v) ?? 'null');
      }),
      { numRuns: 150 },
    );
  });

  it('random text and bytes as the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          nastyString(200),
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
          fc.string({ maxLength: 100 }).map((s) => `{"protocol_version":1,${s}`),
        ),
        async (payload) => {
          await checkInvariant(payload);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('valid batches with generated usernames, hostnames, stat keys and values never fail on the server', async () => {
    const statKey = fc.oneof(
      fc.constantFrom('minecraft.mined:minecraft.stone', 'minecraft:custom:minecraft:play_time', 'a:b'),
      fc
        .array(fc.stringMatching(/^[A-Za-z0-9_.\-/+]{1,12}$/), { minLength: 2, maxLength: 4 })
        .map((parts) => parts.join(':')),
      nastyString(20),
    );
    const stat = fc.record({
      key: statKey,
      value: fc.oneof(fc.double(), fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER)),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          uuid: fc.uuid(),
          username: nastyString(18),
          hostname: fc.oneof(fc.constantFrom('mc.example.com', 'MC.EXAMPLE.COM.', 'x'), nastyString(20)),
          port: fc.oneof(fc.constant(25565), fc.integer({ min: -5, max: 70_000 })),
          stats: fc.array(stat, { maxLength: 8 }),
          season: fc.oneof(fc.constant(null), nastyString(10), fc.constant('s'.repeat(256))),
        }),
        async (b) => {
          // JSON.stringify writes NaN and ±Infinity as null: both must be refused without a write.
          const body = { ...modBatch({ uuid: b.uuid, username: b.username, hostname: b.hostname, port: b.port }) };
          body.stats = b.stats;
          body.season = b.season;
          await checkInvariant(JSON.stringify(body));
        },
      ),
      RUNS,
    );
    // The generator reaches both sides: accepted batches and refusals.
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    expect([...seen.keys()].some((s) => s >= 400)).toBe(true);
  });

  it('generated content types with a valid body: 200 only for application/json, else 400 BAD_REQUEST', async () => {
    const body = JSON.stringify(modBatch({ uuid: crypto.randomUUID() }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(
            'application/json',
            'Application/JSON',
            'application/json; charset=utf-8',
            'application/json;charset=UTF-8',
            'text/plain',
            'text/json',
            'application/jsonx',
            'application/json-patch+json',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/octet-stream',
            '*/*',
            ';',
            'application/json; charset=latin1',
          ),
          fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n\0]/g, '')),
        ),
        async (type) => {
          const before = await snapshotDb(ctx.db);
          const res = await send(body, type);
          const media = type.split(';')[0]!.trim().toLowerCase();
          if (media !== 'application/json') {
            expectError(res, 400, 'BAD_REQUEST');
            expect(await snapshotDb(ctx.db)).toEqual(before);
          } else {
            expect(res.statusCode, `${type}: ${res.body}`).toBeLessThan(500);
            if (res.statusCode !== 200) {
              expectError(res, res.statusCode);
              expect(await snapshotDb(ctx.db)).toEqual(before);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses deeply nested and very long arrays without a 5xx', async () => {
    for (const raw of [
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"protocol_version":1,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      `{"stats":[${Array(20_000).fill('{"key":"a:b","value":1}').join(',')}]}`,
      `{"events":[${Array(5_000).fill('{}').join(',')}]}`,
    ]) {
      await checkInvariant(raw);
    }
  });
});
