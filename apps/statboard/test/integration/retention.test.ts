import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRUNE_BATCH, pruneOnce } from '#src/modules/retention/pruner.ts';
import { bearer, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';

const DAY = 86_400_000;

describe('retention: old events and ended logins are deleted in the background, in small batches', () => {
  let ctx: TestContext;
  let fx: Fixture;
  const count = async (sql: string) => (await ctx.db.query<{ n: number }>(sql))[0]!.n;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await seedWorkspace(ctx.services);
    const res = await ctx.http({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: { ...bearer(fx.keys.client!), 'content-type': 'application/json' },
      payload: JSON.stringify(
        modBatch({
          events: [
            { id: randomUUID(), type: 'SESSION_STARTED', occurred_at: '2026-10-06T12:00:00Z', payload: {} },
            { id: randomUUID(), type: 'SESSION_ENDED', occurred_at: '2026-10-06T13:00:00Z', payload: {} },
          ],
        }),
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('deletes the events stored before the retention, in batches, and keeps the others', async () => {
    // One event of the upload stored 400 days ago, and a backlog of old ones beside it (more than two batches).
    await ctx.db.query(
      `UPDATE events SET received_at = now() - interval '400 days'
       WHERE id = (SELECT id FROM events WHERE type = 'SESSION_STARTED')`,
    );
    await ctx.db.query(
      `INSERT INTO events (workspace_id, id, player_id, session_id, server_id, season_id, type, occurred_at, received_at)
       SELECT e.workspace_id, gen_random_uuid(), e.player_id, e.session_id, e.server_id, e.season_id, 'OLD',
              now() - interval '500 days', now() - interval '500 days' - g * interval '1 second'
       FROM events e, generate_series(1, ${PRUNE_BATCH * 2 + 500}) g WHERE e.type = 'SESSION_ENDED'`,
    );
    const kept = await pruneOnce(ctx.db, ctx.services.sessions, 0, Date.now());
    expect(kept).toEqual({ events: 0, batches: 0 });
    expect(await count('SELECT count(*)::int AS n FROM events')).toBe(PRUNE_BATCH * 2 + 502);

    const result = await pruneOnce(ctx.db, ctx.services.sessions, 365, Date.now());
    expect(result).toEqual({ events: PRUNE_BATCH * 2 + 501, batches: 3 });
    const left = await ctx.db.query<{ type: string }>('SELECT type FROM events');
    expect(left.map((e) => e.type)).toEqual(['SESSION_ENDED']);
    // A later run finds nothing more.
    expect(await pruneOnce(ctx.db, ctx.services.sessions, 365, Date.now() + DAY)).toEqual({ events: 0, batches: 1 });
  });

  it('deletes logins never finished once they expire', async () => {
    await ctx.db.query(
      `INSERT INTO login_states (id_hash, state, nonce, code_verifier, return_to, expires_at)
       VALUES ('old', 's', 'n', 'v', '/', now() - interval '1 hour'), ('new', 's', 'n', 'v', '/', now() + interval '1 hour')`,
    );
    await pruneOnce(ctx.db, ctx.services.sessions, 365, Date.now());
    const rows = await ctx.db.query<{ id_hash: string }>('SELECT id_hash FROM login_states ORDER BY id_hash');
    expect(rows.map((r) => r.id_hash)).toEqual(['new']);
  });
});
