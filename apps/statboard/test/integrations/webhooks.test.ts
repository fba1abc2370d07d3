import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup } from '#src/modules/webhooks/address-guard.ts';
import { WebhookDispatcher } from '#src/modules/webhooks/dispatcher.ts';
import { buildTeam, PLAYER_UUID, STAT_KEY, type Team } from '../admin/support/team.ts';
import type { AppInstance } from '../admin/support/world.ts';
import { createWorld, type World } from '../admin/support/world.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { countRows, expectError, expectInvalid } from '../http/support.ts';
import { Receiver } from './support/receiver.ts';

const SILENT = { info: () => undefined, warn: () => undefined };

let w: World;
let t: Team;
/** A second instance on the same database that may reach 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=1), as tests must. */
let open: AppInstance;
let clientToken: string;
const dispatchers: WebhookDispatcher[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  open = await w.instance({ WEBHOOK_ALLOW_PRIVATE: '1' });
  clientToken = (
    await w.services.keys.create(ACTOR, t.workspaceId, { name: 'mod2', type: 'client', scopes: ['ingest:write'] })
  ).secret;
});
afterEach(async () => {
  for (const d of dispatchers.splice(0)) await d.stop();
  for (const r of receivers.splice(0)) await r.stop();
  await w.db.db.query('DELETE FROM webhooks');
});
afterAll(async () => {
  await w?.close();
});

async function receiver(): Promise<Receiver> {
  const r = new Receiver();
  await r.start();
  receivers.push(r);
  return r;
}

function dispatcher(opts: { timeoutMs?: number; retryForMs?: number; allowPrivate?: boolean } = {}) {
  const d = new WebhookDispatcher(w.db.db, open.services.outbox, {
    timeoutMs: opts.timeoutMs ?? 1_000,
    allowPrivate: opts.allowPrivate ?? true,
    retryDelaysMs: [50, 100, 150],
    pollMs: 25,
    ...(opts.retryForMs === undefined ? {} : { retryForMs: opts.retryForMs }),
    log: SILENT,
  });
  dispatchers.push(d);
  d.start();
  return d;
}

async function hook(url: string, events: string[], extra: object = {}) {
  return open.services.webhooks.create(ACTOR, t.workspaceId, { url, events, ...extra });
}

function verify(secret: string, r: { headers: Record<string, string>; body: string }) {
  // biome-ignore lint/suspicious/noExplicitAny: event bodies are checked field by field in the tests
  return new StandardWebhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: any };
}

/** Uploads through the instance whose webhook changes the writer hears of at once (instances here share no bus). */
async function ingest(uuid: string, username: string, stats: { key: string; value: number }[], at?: string) {
  const res = await open.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(clientToken),
    payload: modBatch({ uuid, username, stats, ...(at ? { observedAt: at } : {}) }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('admin routes', () => {
  it('creates a webhook with a secret shown once, lists, replaces and deletes it, audited without secrets', async () => {
    const owner = t.browsers.owner;
    const created = await owner.app('POST', '/api/v1/admin/webhooks', {
      body: {
        url: 'https://93.184.216.34/hooks/statboard',
        events: ['season.activated'],
        description: 'Discord relay',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as { data: { id: string; enabled: boolean; events: string[] }; secret: string };
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(body.data).toMatchObject({ enabled: true, events: ['season.activated'], pending_deliveries: 0 });
    const list = await owner.app('GET', '/api/v1/admin/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.secret.slice(6));
    expect(list.json().data).toHaveLength(1);
    const put = await owner.app('PUT', `/api/v1/admin/webhooks/${body.data.id}`, {
      body: { url: 'https://93.184.216.34/other', events: ['api_key.revoked', 'player.first_seen'], enabled: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ enabled: false, url: 'https://93.184.216.34/other', description: null });
    const rotated = await owner.app('POST', `/api/v1/admin/webhooks/${body.data.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(body.secret);
    const del = await owner.app('DELETE', `/api/v1/admin/webhooks/${body.data.id}`);
    expect(del.statusCode).toBe(204);
    expectError(await owner.app('DELETE', `/api/v1/admin/webhooks/${body.data.id}`), 404, 'NOT_FOUND');
    const audit = await owner.app('GET', '/api/v1/admin/audit-log?per_page=10');
    const actions = (audit.json().data as { action: string }[]).map((a) => a.action);
    expect(actions.slice(0, 4)).toEqual([
      'WEBHOOK_DELETED',
      'WEBHOOK_SECRET_ROTATED',
      'WEBHOOK_UPDATED',
      'WEBHOOK_CREATED',
    ]);
    expect(audit.body).not.toContain(body.secret.slice(6));
    expect(audit.body).not.toContain(rotated.json().secret.slice(6));
  });

  it('refuses bad bodies with field details', async () => {
    const owner = t.browsers.owner;
    const post = (body: unknown) => owner.app('POST', '/api/v1/admin/webhooks', { body });
    expectInvalid(await post({ url: 'ftp://93.184.216.34/x', events: ['webhook.test'] }), 'url');
    expectInvalid(await post({ url: 'not a url', events: ['webhook.test'] }), 'url');
    expectInvalid(await post({ url: 'https://93.184.216.34/x', events: [] }), 'events');
    expectInvalid(await post({ url: 'https://93.184.216.34/x', events: ['player.joined'] }), 'events.0');
    expectError(await owner.app('GET', '/api/v1/admin/webhooks/not-a-uuid/deliveries'), 404, 'NOT_FOUND');
  });

  it('refuses loopback, private, link-local and metadata addresses unless WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const owner = t.browsers.owner;
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://api.localhost/hook',
      'http://10.1.2.3/hook',
      'http://172.20.0.5/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[fe80::1]/hook',
      'http://2130706433/hook',
    ]) {
      const res = await owner.app('POST', '/api/v1/admin/webhooks', { body: { url, events: ['webhook.test'] } });
      const details = expectInvalid(res, 'url');
      expect(details.url?.[0], url).toMatch(/WEBHOOK_ALLOW_PRIVATE=1/);
    }
    const allowed = await open.services.webhooks.create(ACTOR, t.workspaceId, {
      url: 'http://127.0.0.1:9/hook',
      events: ['webhook.test'],
    });
    expect(allowed.data.url).toBe('http://127.0.0.1:9/hook');
  });

  it('refuses IPv6 addresses that embed a refused IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo)', async () => {
    const owner = t.browsers.owner;
    for (const url of [
      'http://[::127.0.0.1]/hook',
      'http://[::ffff:0:7f00:1]/hook',
      'http://[64:ff9b::7f00:1]/hook',
      'http://[64:ff9b:1::7f00:1]/hook',
      'http://[2002:7f00:1::]/hook',
      'http://[2002:a9fe:a9fe::]/hook',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook',
    ]) {
      const res = await owner.app('POST', '/api/v1/admin/webhooks', { body: { url, events: ['webhook.test'] } });
      const details = expectInvalid(res, 'url');
      expect(details.url?.[0], url).toMatch(/embeds .* set WEBHOOK_ALLOW_PRIVATE=1/);
    }
    const allowed = await owner.app('POST', '/api/v1/admin/webhooks', {
      body: { url: 'http://[64:ff9b::5db8:d822]/hook', events: ['webhook.test'] },
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('checks the resolved address again when connecting (a name that now points inside is refused)', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EBLOCKED');
    // A webhook saved while private addresses were allowed is not sent once they are not.
    const r = await receiver();
    const { data } = await hook(r.url, ['webhook.test']);
    dispatcher({ allowPrivate: false });
    await t.browsers.owner.app('POST', `/api/v1/admin/webhooks/${data.id}/test`);
    const res = await waitFor(async () => {
      const d = (await t.browsers.owner.app('GET', `/api/v1/admin/webhooks/${data.id}/deliveries`)).json().data[0];
      return d.attempts.length > 0 ? d : null;
    });
    expect(res.attempts[0].error).toMatch(/^refused: 127\.0\.0\.1 is a loopback/);
    expect(r.received).toHaveLength(0);
  });

  it('is for admins and owners only, reads included', async () => {
    for (const who of ['analyst', 'readonly', 'none'] as const) {
      expectError(await t.browsers[who].app('GET', '/api/v1/admin/webhooks'), 403, 'FORBIDDEN');
    }
    expect((await t.browsers.admin.app('GET', '/api/v1/admin/webhooks')).statusCode).toBe(200);
  });
});

async function waitFor<T>(fn: () => Promise<T | null>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('events and signatures', () => {
  it('signs every delivery as Standard Webhooks does (checked with the standardwebhooks package)', async () => {
    const r = await receiver();
    const { data, secret } = await hook(r.url, ['webhook.test']);
    dispatcher();
    const res = await t.browsers.owner.app('POST', `/api/v1/admin/webhooks/${data.id}/test`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: [] });
    await r.until(() => r.accepted.length === 1);
    const got = r.accepted[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(res.json().data.message_id);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    const payload = verify(secret, got);
    expect(payload.type).toBe('webhook.test');
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    expect(payload.data.webhook).toEqual({ id: data.id, url: r.url });
    // A wrong secret or a changed body fails verification.
    expect(() =>
      new StandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers),
    ).toThrow();
    expect(() => new StandardWebhook(secret).verify(`${got.body} `, got.headers)).toThrow();
    // Deliveries show the attempt.
    const deliveries = await t.browsers.owner.app('GET', `/api/v1/admin/webhooks/${data.id}/deliveries`);
    await waitFor(async () => {
      const d = (await t.browsers.owner.app('GET', `/api/v1/admin/webhooks/${data.id}/deliveries`)).json().data[0];
      return d.status === 'delivered' ? d : null;
    });
    expect(deliveries.json().meta.total).toBe(1);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const r = await receiver();
    const { data, secret } = await hook(r.url, ['webhook.test']);
    const rotated = await open.services.webhooks.rotateSecret(ACTOR, t.workspaceId, data.id);
    dispatcher();
    await open.services.webhooks.test(ACTOR, t.workspaceId, data.id);
    await r.until(() => r.accepted.length === 1);
    expect(r.accepted[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(secret, r.accepted[0]!).type).toBe('webhook.test');
    expect(verify(rotated.secret, r.accepted[0]!).type).toBe('webhook.test');
  });

  it('announces season activation, key revocation and rotation, each from the change itself', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['season.activated', 'api_key.revoked', 'api_key.rotated']);
    dispatcher();
    const owner = t.browsers.owner;
    const s2 = await owner.app('POST', '/api/v1/admin/seasons', { body: { name: 'Season 2', slug: 's2' } });
    const act = await owner.app('POST', `/api/v1/admin/seasons/${s2.json().data.id}/activate`);
    expect(act.statusCode, act.body).toBe(200);
    // Activating the active season again changes nothing and announces nothing.
    await owner.app('POST', `/api/v1/admin/seasons/${s2.json().data.id}/activate`);
    const k1 = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'gone',
      type: 'website',
      scopes: ['players:read'],
    });
    expect((await owner.app('POST', `/api/v1/admin/api-keys/${k1.data.id}/revoke`)).statusCode).toBe(204);
    const k2 = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'turn',
      type: 'website',
      scopes: ['players:read'],
    });
    const rot = await owner.app('POST', `/api/v1/admin/api-keys/${k2.data.id}/rotate`, { body: { grace_seconds: 60 } });
    expect(rot.statusCode).toBe(200);
    await r
      .until(() => r.accepted.length === 3)
      .catch(async (e) => {
        console.log(
          r.received.map((x) => x.body),
          await w.db.db.query('SELECT type FROM webhook_messages'),
        );
        throw e;
      });
    const events = r.accepted.map((x) => verify(secret, x));
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
    expect(Object.keys(byType).sort()).toEqual(['api_key.revoked', 'api_key.rotated', 'season.activated']);
    expect(byType['season.activated'].season).toMatchObject({ id: s2.json().data.id, slug: 's2', active: true });
    expect(byType['season.activated'].previous).toMatchObject({ id: t.seasonId, active: false });
    expect(byType['api_key.revoked'].api_key).toMatchObject({ id: k1.data.id, name: 'gone' });
    expect(byType['api_key.rotated']).toMatchObject({ api_key: { id: k2.data.id }, grace_seconds: 60 });
    expect(byType['api_key.rotated'].replacement.id).toBe(rot.json().data.id);
    expect(JSON.stringify(events)).not.toContain(rot.json().secret);
    // Back to the first season for the other tests.
    await owner.app('POST', `/api/v1/admin/seasons/${t.seasonId}/activate`);
  });

  it('announces a season starting and ending by its schedule: season.activated and season.ended', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['season.activated', 'season.ended']);
    dispatcher();
    const seasons = open.services.seasons;
    const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
    const next = await seasons.create(ACTOR, t.workspaceId, {
      name: 'Scheduled',
      slug: 'scheduled',
      started_at: new Date(Date.now() + 1_000).toISOString(),
    });
    await sleep(1_050);
    expect((await seasons.runSchedules(new Date())).map((x) => x.type)).toEqual(['activated']);
    await r.until(() => r.accepted.length === 2);
    await seasons.update(ACTOR, t.workspaceId, next.id, { ended_at: new Date().toISOString() });
    expect((await seasons.runSchedules(new Date())).map((x) => x.type)).toEqual(['ended']);
    await r.until(() => r.accepted.length === 3);
    const events = r.accepted.map((x) => verify(secret, x));
    const started = { ...next, active: true };
    const s1 = events.find((e) => e.type === 'season.activated')!.data.previous;
    expect(s1).toMatchObject({ id: t.seasonId, active: false, ended_at: next.started_at });
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    expect(of('season.activated')).toEqual([{ season: started, previous: s1 }]);
    expect(of('season.ended')).toEqual([
      { season: s1, next: started },
      { season: { ...next, ended_at: expect.any(String) }, next: null },
    ]);
    // Back to the first season for the other tests.
    await t.browsers.owner.app('POST', `/api/v1/admin/seasons/${t.seasonId}/activate`);
  });

  it('writes nothing when the change does not happen (the outbox shares its transaction)', async () => {
    await hook('http://127.0.0.1:9/hook', ['api_key.revoked', 'season.activated']);
    const before = await countRows(w.db.db, 'webhook_messages');
    const k = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'kept',
      type: 'website',
      scopes: ['players:read'],
    });
    await expect(
      w.services.transaction(async (tx) => {
        await tx.keys.revoke(ACTOR, t.workspaceId, k.data.id);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expectError(await t.browsers.owner.app('POST', '/api/v1/admin/seasons/no-such-season/activate'), 404);
    expect(await countRows(w.db.db, 'webhook_messages')).toBe(before);
    expect((await w.services.keys.get(t.workspaceId, k.data.id)).status).toBe('active');
  });

  it('announces a player seen for the first time, once', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['player.first_seen']);
    dispatcher();
    const uuid = '11111111-2222-4333-8444-555555555555';
    await ingest(uuid, 'Newcomer', [{ key: STAT_KEY, value: 1 }]);
    await ingest(uuid, 'Newcomer', [{ key: STAT_KEY, value: 2 }], '2026-10-06T12:05:00Z');
    await ingest(PLAYER_UUID, 'Steve', [{ key: STAT_KEY, value: 8 }], '2026-10-06T12:06:00Z');
    await r.until(() => r.accepted.length >= 1);
    await new Promise((done) => setTimeout(done, 300));
    expect(r.accepted.map((x) => verify(secret, x))).toEqual([
      {
        type: 'player.first_seen',
        timestamp: expect.any(String),
        data: { player: { uuid, username: 'Newcomer' }, first_seen_at: expect.any(String) },
      },
    ]);
  });

  it('announces a new rank 1 of a public statistic in the active season, and nothing else', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.jump';
    const [a, b, c] = [
      'aaaaaaaa-0000-4000-8000-000000000001',
      'aaaaaaaa-0000-4000-8000-000000000002',
      'aaaaaaaa-0000-4000-8000-000000000003',
    ];
    let minute = 10;
    const at = () => `2026-10-06T13:${String(minute++).padStart(2, '0')}:00Z`;
    await ingest(a, 'Alpha', [{ key, value: 10 }], at()); // the board's first value: Alpha leads, from no one
    await ingest(b, 'Bravo', [{ key, value: 10 }], at()); // a tie does not take rank 1
    await ingest(b, 'Bravo', [{ key, value: 20 }], at()); // Bravo leads: event
    await ingest(b, 'Bravo', [{ key, value: 30 }], at()); // the leader grows: no event
    await ingest(a, 'Alpha', [{ key, value: 25 }], at()); // behind: no event
    // A hidden player never leads.
    await ingest(c, 'Charlie', [{ key, value: 5 }], at());
    await w.services.playerAdmin.update(ACTOR, t.workspaceId, c, { public: false });
    await ingest(c, 'Charlie', [{ key, value: 100 }], at());
    await ingest(a, 'Alpha', [{ key, value: 31 }], at()); // Alpha takes it back: event
    await r.until(() => r.accepted.length >= 3);
    await new Promise((done) => setTimeout(done, 300));
    const events = r.accepted.map((x) => verify(secret, x));
    expect(events.map((e) => e.type)).toEqual(Array(3).fill('leaderboard.leader_changed'));
    expect(events[0]!.data).toMatchObject({
      player: { uuid: a, username: 'Alpha' },
      value: 10,
      previous: { player: null, value: null },
    });
    expect(events[1]!.data).toMatchObject({
      season: { id: t.seasonId },
      stat: { key },
      player: { uuid: b, username: 'Bravo' },
      value: 20,
      previous: { player: { uuid: a, username: 'Alpha' }, value: 10 },
    });
    expect(events[2]!.data).toMatchObject({
      player: { uuid: a },
      value: 31,
      previous: { player: { uuid: b }, value: 30 },
    });
  });

  it('follows the statistic order: for an ascending statistic the lowest value leads', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.fastest_lap';
    const [a, b] = ['bbbbbbbb-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'];
    await ingest(a, 'Ann', [{ key, value: 90 }], '2026-10-06T14:00:00Z');
    const put = await t.browsers.owner.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(key)}`, {
      body: { sort_order: 'asc' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await ingest(b, 'Ben', [{ key, value: 95 }], '2026-10-06T14:01:00Z'); // slower: no event
    await ingest(b, 'Ben', [{ key, value: 80 }], '2026-10-06T14:02:00Z'); // faster: event
    await r.until(() => r.accepted.length >= 2);
    await new Promise((done) => setTimeout(done, 300));
    expect(r.accepted.map((x) => verify(secret, x).data)).toEqual([
      expect.objectContaining({ player: { uuid: a, username: 'Ann' }, value: 90 }),
      expect.objectContaining({
        player: { uuid: b, username: 'Ben' },
        value: 80,
        previous: expect.objectContaining({ value: 90 }),
      }),
    ]);
  });
});

describe('leader changes from a first value', () => {
  const settle = () => new Promise((done) => setTimeout(done, 300));

  /**
   * The leader changes stored for a statistic, oldest first. The upload's own statement stores them, so once it is
   * answered none can come later: what is absent here is never sent.
   */
  async function storedLeaders(key: string) {
    const rows = await w.db.db.query<{ data: { player: { uuid: string }; value: number } }>(
      `SELECT data FROM webhook_messages
       WHERE type = 'leaderboard.leader_changed' AND data->'stat'->>'key' = $1 ORDER BY created_at`,
      [key],
    );
    return rows.map((r) => r.data);
  }

  async function activate(seasonId: string) {
    const res = await t.browsers.owner.app('POST', `/api/v1/admin/seasons/${seasonId}/activate`);
    expect(res.statusCode, res.body).toBe(200);
  }

  async function hide(uuid: string) {
    await w.services.playerAdmin.update(ACTOR, t.workspaceId, uuid, { public: false });
  }

  it('announces a newcomer whose first upload takes rank 1, beside its first sighting', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed', 'player.first_seen']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.swim_one_cm';
    const [leader, newcomer] = ['cccccccc-0000-4000-8000-000000000001', 'cccccccc-0000-4000-8000-000000000002'];
    await ingest(leader, 'Leader', [{ key, value: 100 }], '2026-10-06T15:00:00Z');
    await r.until(() => r.accepted.length >= 2);
    await new Promise((done) => setTimeout(done, 500));
    await ingest(newcomer, 'Newcomer', [{ key, value: 200 }], '2026-10-06T15:00:30Z');
    await r.until(() => r.accepted.length >= 4);
    await settle();
    const events = r.accepted.map((x) => verify(secret, x));
    expect(events).toHaveLength(4);
    const of = (type: string, uuid: string) => events.filter((e) => e.type === type && e.data.player.uuid === uuid);
    expect(of('player.first_seen', newcomer)).toHaveLength(1);
    expect(of('leaderboard.leader_changed', newcomer).map((e) => e.data)).toEqual([
      {
        season: { id: t.seasonId, name: expect.any(String), slug: expect.any(String) },
        stat: expect.objectContaining({ key }),
        player: { uuid: newcomer, username: 'Newcomer' },
        value: 200,
        previous: { player: { uuid: leader, username: 'Leader' }, value: 100 },
      },
    ]);
  });

  it("announces a new statistic's first value as a rank 1 taken from no one", async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.fly_one_cm';
    await ingest(PLAYER_UUID, 'Steve', [{ key, value: 7 }], '2026-10-06T15:10:00Z');
    await r.until(() => r.accepted.length >= 1);
    await settle();
    expect(r.accepted.map((x) => verify(secret, x).data)).toEqual([
      expect.objectContaining({
        season: expect.objectContaining({ id: t.seasonId }),
        stat: expect.objectContaining({ key }),
        player: { uuid: PLAYER_UUID, username: 'Steve' },
        value: 7,
        previous: { player: null, value: null },
      }),
    ]);
  });

  it("announces the first upload into a newly activated season as each of its boards' rank 1", async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const created = await t.browsers.owner.app('POST', '/api/v1/admin/seasons', {
      body: { name: 'Season 3', slug: 'leaders-s3' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const s3 = created.json().data.id as string;
    try {
      await activate(s3);
      await ingest(PLAYER_UUID, 'Steve', [{ key: STAT_KEY, value: 3 }], '2026-10-06T15:20:00Z');
    } finally {
      await activate(t.seasonId);
    }
    await r.until(() => r.accepted.length >= 1);
    await settle();
    expect(r.accepted.map((x) => verify(secret, x).data)).toEqual([
      expect.objectContaining({
        season: { id: s3, name: 'Season 3', slug: 'leaders-s3' },
        stat: expect.objectContaining({ key: STAT_KEY }),
        player: { uuid: PLAYER_UUID, username: 'Steve' },
        value: 3,
        previous: { player: null, value: null },
      }),
    ]);
  });

  it("never announces a hidden player, nor a board whose only values are hidden players'", async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.climb_one_cm';
    const lonely = 'minecraft.custom:minecraft.crouch_one_cm';
    const [leader, ghost, late] = [
      'dddddddd-0000-4000-8000-000000000001',
      'dddddddd-0000-4000-8000-000000000002',
      'dddddddd-0000-4000-8000-000000000003',
    ];
    let minute = 30;
    const at = () => `2026-10-06T15:${String(minute++).padStart(2, '0')}:00Z`;
    await ingest(leader, 'Leader', [{ key, value: 100 }], at()); // rank 1 from no one
    await ingest(ghost, 'Ghost', [{ key: STAT_KEY, value: 1 }], at()); // a newcomer: public until hidden
    await hide(ghost);
    await ingest(ghost, 'Ghost', [{ key, value: 500 }], at()); // beats the leader, hidden: nothing
    await ingest(ghost, 'Ghost', [{ key: lonely, value: 9 }], at()); // a new board with hidden values only: nothing
    await ingest(ghost, 'Ghost', [{ key: lonely, value: 12 }], at());
    expect(await storedLeaders(key)).toHaveLength(1);
    expect(await storedLeaders(lonely)).toEqual([]);
    // The first public player on that board leads it (behind the hidden value), from no one.
    await ingest(late, 'Late', [{ key: lonely, value: 4 }], at());
    await r.until(() => r.accepted.length >= 2);
    await settle();
    expect(r.accepted.map((x) => verify(secret, x).data)).toEqual([
      expect.objectContaining({ player: { uuid: leader, username: 'Leader' }, value: 100 }),
      expect.objectContaining({
        stat: expect.objectContaining({ key: lonely }),
        player: { uuid: late, username: 'Late' },
        value: 4,
        previous: { player: null, value: null },
      }),
    ]);
  });

  it('announces nothing when a newcomer does not beat the leader, nor on a statistic made private', async () => {
    const r = await receiver();
    const { secret } = await hook(r.url, ['leaderboard.leader_changed']);
    dispatcher();
    const key = 'minecraft.custom:minecraft.sprint_one_cm';
    const hidden = 'minecraft.custom:minecraft.sneak_time';
    const [leader, second, third] = [
      'eeeeeeee-0000-4000-8000-000000000001',
      'eeeeeeee-0000-4000-8000-000000000002',
      'eeeeeeee-0000-4000-8000-000000000003',
    ];
    await ingest(leader, 'Leader', [{ key, value: 100 }], '2026-10-06T16:00:00Z');
    await ingest(second, 'Second', [{ key, value: 50 }], '2026-10-06T16:01:00Z'); // behind
    await ingest(third, 'Third', [{ key, value: 100 }], '2026-10-06T16:02:00Z'); // a tie keeps the earlier first
    expect(await storedLeaders(key)).toHaveLength(1);
    // A private statistic has no leader to announce, whoever comes first or beats whom.
    await ingest(leader, 'Leader', [{ key: hidden, value: 1 }], '2026-10-06T16:03:00Z');
    const put = await t.browsers.owner.app('PUT', `/api/v1/admin/stats/${encodeURIComponent(hidden)}`, {
      body: { public: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    await ingest(second, 'Second', [{ key: hidden, value: 10 }], '2026-10-06T16:04:00Z');
    expect(await storedLeaders(hidden)).toHaveLength(1);
    await r.until(() => r.accepted.length >= 2);
    await settle();
    expect(r.accepted.map((x) => verify(secret, x).data.player.uuid)).toEqual([leader, leader]);
  });
});

describe('delivery', () => {
  it('gets every event to a receiver that answers 500, times out or drops the connection, once it recovers', async () => {
    const r = await receiver();
    r.slowMs = 1_500;
    // Each event meets all three failures before it is accepted.
    const seen = new Map<string, number>();
    r.behave = (_n, req) => {
      const id = req.headers['webhook-id']!;
      const k = (seen.get(id) ?? 0) + 1;
      seen.set(id, k);
      return (['fail', 'slow', 'close', 'ok'] as const)[Math.min(k - 1, 3)]!;
    };
    const { data } = await hook(r.url, ['webhook.test']);
    dispatcher({ timeoutMs: 500 });
    for (let i = 0; i < 5; i++) await open.services.webhooks.test(ACTOR, t.workspaceId, data.id);
    await r.until(() => r.accepted.length === 5, 20_000);
    expect(new Set(r.accepted.map((x) => x.headers['webhook-id'])).size).toBe(5);
    const page = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 10 });
    await waitFor(async () => {
      const p = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 10 });
      return p.data.every((d) => d.status === 'delivered') ? p : null;
    });
    const done = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 10 });
    expect(page.meta.total).toBe(5);
    for (const d of done.data) {
      expect(d.attempts.map((a) => a.status_code ?? a.error)).toEqual([
        500,
        'no answer within 0.5 s',
        'connection closed by the receiver',
        204,
      ]);
    }
  });

  it('gets every event to a receiver that was down, once it is back', async () => {
    const r = await receiver();
    const { data } = await hook(r.url, ['webhook.test']);
    await r.stop();
    dispatcher();
    for (let i = 0; i < 3; i++) await open.services.webhooks.test(ACTOR, t.workspaceId, data.id);
    await waitFor(async () => {
      const p = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 10 });
      return p.data.every((d) => d.attempts.length >= 2) ? p : null;
    });
    const failed = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 10 });
    expect(failed.data[0]!.attempts[0]!.error).toBe('connection refused');
    expect(failed.data[0]!.status).toBe('pending');
    expect((await open.services.webhooks.get(t.workspaceId, data.id)).pending_deliveries).toBe(3);
    await r.start();
    await r.until(() => r.accepted.length === 3);
    expect(new Set(r.accepted.map((x) => x.headers['webhook-id'])).size).toBe(3);
  });

  it('retries with backoff of about 5 s first, and gives up after the retry window as failed', async () => {
    const r = await receiver();
    r.behave = () => 'fail';
    const { data } = await hook(r.url, ['webhook.test']);
    const d = new WebhookDispatcher(w.db.db, open.services.outbox, {
      timeoutMs: 1_000,
      allowPrivate: true,
      pollMs: 25,
      log: SILENT,
    });
    dispatchers.push(d);
    d.start();
    const started = Date.now();
    await open.services.webhooks.test(ACTOR, t.workspaceId, data.id);
    const first = await waitFor(async () => {
      const p = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 1 });
      return p.data[0]!.attempts.length === 1 ? p.data[0]! : null;
    });
    const wait = Date.parse(first.next_attempt_at!) - started;
    expect(wait).toBeGreaterThan(3_500);
    expect(wait).toBeLessThan(7_000);
    await d.stop();
    // With a short retry window the delivery ends as failed.
    const quick = dispatcher({ retryForMs: 200 });
    await waitFor(async () => {
      const p = await open.services.webhooks.deliveries(t.workspaceId, data.id, { page: 1, perPage: 1 });
      return p.data[0]!.status === 'failed' ? p : null;
    }, 15_000);
    await quick.stop();
  });

  it('sends nothing to a disabled webhook and stores no backlog for it', async () => {
    const r = await receiver();
    const { data } = await hook(r.url, ['webhook.test', 'api_key.revoked'], { enabled: false });
    dispatcher();
    const k = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'x',
      type: 'website',
      scopes: ['players:read'],
    });
    await w.services.keys.revoke(ACTOR, t.workspaceId, k.data.id);
    expectError(await t.browsers.owner.app('POST', `/api/v1/admin/webhooks/${data.id}/test`), 409, 'CONFLICT');
    await new Promise((done) => setTimeout(done, 200));
    expect(r.received).toHaveLength(0);
    expect(await countRows(w.db.db, 'webhook_deliveries', 'webhook_id = $1', [data.id])).toBe(0);
    // Pending deliveries wait while it is disabled, and go once it is enabled again.
    await open.services.webhooks.update(ACTOR, t.workspaceId, data.id, { url: r.url, events: ['api_key.revoked'] });
    await w.services.keys.revoke(
      ACTOR,
      t.workspaceId,
      (await w.services.keys.create(ACTOR, t.workspaceId, { name: 'y', type: 'website', scopes: ['players:read'] }))
        .data.id,
    );
    await r.until(() => r.accepted.length === 1);
  });

  it('several senders never send the same delivery at once, and every delivery goes once', async () => {
    const r = await receiver();
    let inFlight = new Set<string>();
    let overlaps = 0;
    r.behave = (_n, req) => {
      const id = req.headers['webhook-id']!;
      if (inFlight.has(id)) overlaps++;
      inFlight.add(id);
      setTimeout(() => inFlight.delete(id), 50);
      return 'slow';
    };
    r.slowMs = 30;
    const { data } = await hook(r.url, ['webhook.test']);
    for (let i = 0; i < 40; i++) await open.services.webhooks.test(ACTOR, t.workspaceId, data.id);
    for (let i = 0; i < 3; i++) dispatcher();
    await waitFor(async () => {
      const n = await countRows(w.db.db, 'webhook_deliveries', "webhook_id = $1 AND status = 'delivered'", [data.id]);
      return n === 40 ? n : null;
    }, 20_000);
    expect(overlaps).toBe(0);
    expect(r.received).toHaveLength(40);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(40);
    inFlight = new Set();
  });
});
