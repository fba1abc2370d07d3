import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#src/errors.ts';
import { ACTOR, createTestContext, DB_KIND, type TestContext } from '../helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe(`workspaces (${DB_KIND})`, () => {
  it('derives a slug from the name and takes the first free suffix when it is taken', async () => {
    const a = await ctx.services.workspaces.create(ACTOR, { name: 'Survival Realm' });
    const b = await ctx.services.workspaces.create(ACTOR, { name: 'Survival  Realm!' });
    expect([a.slug, b.slug]).toEqual(['survival-realm', 'survival-realm-2']);
    expect((await ctx.services.workspaces.resolve(b.id)).slug).toBe('survival-realm-2');
    expect((await ctx.services.workspaces.resolve('survival-realm')).id).toBe(a.id);
  });

  it('refuses an explicit slug that is taken with CONFLICT, and an unknown reference with NOT_FOUND', async () => {
    await ctx.services.workspaces.create(ACTOR, { name: 'X', slug: 'taken' });
    const err = await ctx.services.workspaces.create(ACTOR, { name: 'Y', slug: 'taken' }).catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CONFLICT');
    const missing = await ctx.services.workspaces.resolve('nope').catch((e: AppError) => e);
    expect((missing as AppError).code).toBe('NOT_FOUND');
  });
});
