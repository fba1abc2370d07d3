import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR } from '../helpers.ts';
import { countRows, expectError } from '../http/support.ts';
import { Browser, createWorld, signIn, type World } from './support/world.ts';

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('POST /api/v1/setup/bootstrap', () => {
  it('needs a session: 401 UNAUTHENTICATED without one', async () => {
    const { token } = await w.services.setup.createToken(ACTOR);
    const res = await w.app.inject({ method: 'POST', url: '/api/v1/setup/bootstrap', payload: { token } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it('refuses an unknown token with 422 INVALID_BOOTSTRAP_TOKEN', async () => {
    const b = await signIn(w, 'unknown-token@example.com');
    const res = await b.app('POST', '/api/v1/setup/bootstrap', {
      body: { token: 'stb_bootstrap_00000000-0000-4000-8000-000000000000_nope' },
    });
    expectError(res, 422, 'INVALID_BOOTSTRAP_TOKEN');
  });

  it('refuses an expired token with 422 INVALID_BOOTSTRAP_TOKEN', async () => {
    const b = await signIn(w, 'expired-token@example.com');
    const { token } = await w.services.setup.createToken(ACTOR, { ttl_minutes: 1 });
    await w.db.db.query(`UPDATE bootstrap_tokens SET expires_at = now() - interval '1 minute'`);
    const res = await b.app('POST', '/api/v1/setup/bootstrap', { body: { token } });
    expectError(res, 422, 'INVALID_BOOTSTRAP_TOKEN');
  });

  it('refuses a cross-origin bootstrap with 403', async () => {
    const b = await signIn(w, 'cross@example.com');
    const { token } = await w.services.setup.createToken(ACTOR);
    const res = await b.app('POST', '/api/v1/setup/bootstrap', {
      body: { token },
      headers: { origin: 'https://evil.example' },
    });
    expectError(res, 403, 'FORBIDDEN');
    expect(await w.services.setup.needsBootstrap()).toBe(true);
  });

  it('creates the workspace once when two requests race with the same token; the winner is owner', async () => {
    const a = await signIn(w, 'owner@example.com');
    const c = await signIn(w, 'racer@example.com');
    const { token } = await w.services.setup.createToken(ACTOR);
    const [r1, r2] = await Promise.all([
      a.app('POST', '/api/v1/setup/bootstrap', { body: { token, workspace_name: 'Craft Club' } }),
      c.app('POST', '/api/v1/setup/bootstrap', { body: { token, workspace_name: 'Other' } }),
    ]);
    const statuses = [r1.statusCode, r2.statusCode].sort();
    expect(statuses).toEqual([201, 409]);
    const winner = r1.statusCode === 201 ? r1 : r2;
    const loser = r1.statusCode === 201 ? r2 : r1;
    expectError(loser, 409, 'CONFLICT');
    const body = winner.json() as { data: { workspace_id: string; role: string } };
    expect(body).toEqual({ data: { workspace_id: expect.any(String), role: 'owner' } });
    expect(await countRows(w.db.db, 'workspaces')).toBe(1);
    const winnerBrowser = winner === r1 ? a : c;
    const me = (await winnerBrowser.app('GET', '/api/v1/admin/me')).json();
    expect(me).toMatchObject({ workspace_id: body.data.workspace_id, role: 'owner', needs_bootstrap: false });
    const loserBrowser = winner === r1 ? c : a;
    const other = (await loserBrowser.app('GET', '/api/v1/admin/me')).json();
    expect(other).toMatchObject({ workspace_id: null, role: null, needs_bootstrap: false });
  });

  it('answers 409 once a workspace exists, even with a fresh token', async () => {
    const b = await signIn(w, 'late@example.com');
    const { token } = await w.services.setup.createToken(ACTOR);
    expectError(await b.app('POST', '/api/v1/setup/bootstrap', { body: { token } }), 409, 'CONFLICT');
  });

  it('writes one WORKSPACE_BOOTSTRAPPED audit record without the token', async () => {
    const rows = await w.db.db.query<{ action: string; actor_user_id: string; after: unknown; request_id: string }>(
      `SELECT action, actor_user_id, after, request_id FROM audit_log WHERE workspace_id IS NOT NULL`,
    );
    expect(rows.map((r) => r.action)).toEqual(['WORKSPACE_BOOTSTRAPPED']);
    // The tokens' own records (made by the fixtures) never hold the token either.
    const text = JSON.stringify(await w.db.db.query('SELECT * FROM audit_log'));
    expect(text).not.toContain('stb_bootstrap_');
    expect(rows[0]!.after).toMatchObject({ name: expect.any(String), slug: expect.any(String) });
  });

  it('validates the body: a missing token is 422 INVALID_PAYLOAD', async () => {
    const b = new Browser(w);
    await b.login('body@example.com');
    const res = await b.app('POST', '/api/v1/setup/bootstrap', { body: {} });
    expectError(res, 422, 'INVALID_PAYLOAD');
  });
});
