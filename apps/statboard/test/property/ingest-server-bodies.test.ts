import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, seedWorkspace, type TestContext } from '../helpers.ts';
import { expectError, snapshotDb } from '../http/support.ts';
import { rawJsonValue } from './arbitraries.ts';

/**
 * Generated `POST /ingest/server` bodies: whatever arrives, the answer is never a 5xx, every error has the one
 * error shape, and nothing is written unless the answer is 200.
 */

let ctx: TestContext;
let fx: Fixture;
let agent: string;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Property server uploads');
  agent = (
    await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [fx.serverId],
    })
  ).secret;
});
afterAll(async () => {
  await ctx?.close();
});

const MARK = '__RAW_JSON_VALUE__';

/** Paths of a valid upload (two players, one online) that a mutation may replace or delete. */
const PATHS: (string | number)[][] = [
  [],
  ['observed_at'],
  ['players'],
  ['players', 0],
  ['players', 0, 'uuid'],
  ['players', 0, 'username'],
  ['players', 0, 'stats'],
  ['players', 0, 'stats', 0],
  ['players', 0, 'stats', 0, 'key'],
  ['players', 0, 'stats', 0, 'value'],
  ['players', 1, 'uuid'],
  ['online'],
  ['online', 0],
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

/** A valid upload with mutations applied, raw JSON text spliced in where values were replaced. */
function mutatedBody(a: string, b: string, mutations: Mutation[]): string {
  let root: unknown = {
    observed_at: new Date().toISOString(),
    players: [
      { uuid: a, username: 'Prop', stats: [{ key: 'minecraft.custom:minecraft.jump', value: 3 }] },
      { uuid: b, stats: [] },
    ],
    online: [a],
  };
  const raws: string[] = [];
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

describe('POST /api/v1/ingest/server: generated bodies', () => {
  it('mutated uploads are answered 200, or a 4xx in the error shape that wrote nothing', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.uuid(), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (a, b, ms) => {
        const before = await snapshotDb(ctx.db);
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/ingest/server',
          headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
          payload: mutatedBody(a, b, ms),
        });
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
        if (res.statusCode === 200) return;
        expect([400, 413, 422]).toContain(res.statusCode);
        expectError(res, res.statusCode);
        expect(await snapshotDb(ctx.db)).toEqual(before);
      }),
      { numRuns: 100 },
    );
    expect(seen.get(422) ?? 0).toBeGreaterThan(0);
  });
});
