import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { getJson, ingestOk, sql } from './support.ts';

let ctx: TestContext;
let fx: Fixture;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services, 'Last used');
});
afterAll(async () => {
  await ctx?.close();
});

async function lastUsed(id: string): Promise<Date | null> {
  return (await sql(ctx, 'SELECT last_used_at FROM api_keys WHERE id = $1', [id]))[0]!.last_used_at as Date | null;
}

describe('API key last_used_at', () => {
  it('is not written per request, only when the collected times are flushed', async () => {
    const start = Date.now();
    await ingestOk(ctx, fx.keys.client!, modBatch());
    for (const url of ['/api/v1/players', '/api/v1/seasons', '/api/v1/online']) {
      expect((await getJson(ctx, fx.keys.website!, url)).statusCode).toBe(200);
    }
    expect(await lastUsed(fx.keyIds.client!)).toBeNull();
    expect(await lastUsed(fx.keyIds.website!)).toBeNull();
    await ctx.services.verifier.flushLastUsed();
    for (const id of [fx.keyIds.client!, fx.keyIds.website!]) {
      const t = await lastUsed(id);
      expect(t).not.toBeNull();
      expect(t!.getTime()).toBeGreaterThanOrEqual(start - 1000);
      expect(t!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
    // A key that was not used stays untouched.
    expect(await lastUsed(fx.keyIds.integration!)).toBeNull();
  });

  it('is not written for a refused token', async () => {
    const id = fx.keyIds.integration!;
    const token = fx.keys.integration!;
    const wrong = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await getJson(ctx, wrong, '/api/v1/players')).statusCode).toBe(401);
    await ctx.services.verifier.flushLastUsed();
    expect(await lastUsed(id)).toBeNull();
  });

  it('moves forward with later use', async () => {
    const id = fx.keyIds.website!;
    const first = (await lastUsed(id))!;
    await new Promise((r) => setTimeout(r, 20));
    expect((await getJson(ctx, fx.keys.website!, '/api/v1/seasons')).statusCode).toBe(200);
    expect((await lastUsed(id))!.getTime()).toBe(first.getTime());
    await ctx.services.verifier.flushLastUsed();
    expect((await lastUsed(id))!.getTime()).toBeGreaterThan(first.getTime());
  });
});
