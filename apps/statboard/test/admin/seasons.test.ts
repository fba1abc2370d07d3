import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Season } from '#src/modules/seasons/service.ts';
import { ACTOR, bearer } from '../helpers.ts';
import { expectError, expectInvalid } from '../http/support.ts';
import { buildTeam, STAT_KEY, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

// Seasons through the admin API: `scoring` on create, change and every season object (admin and key routes),
// `PUT /admin/seasons/{season}`, its audit record, and what activating by hand does to a season's times.

let w: World;
let t: Team;
let readToken: string;
beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  readToken = (
    await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'reader',
      type: 'website',
      scopes: ['stats:read', 'leaderboards:read'],
    })
  ).secret;
});
afterAll(async () => {
  await w?.close();
});

const LIST = '/api/v1/admin/seasons';

async function create(body: object): Promise<Season> {
  const res = await t.browsers.admin.app('POST', LIST, { body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: Season }).data;
}

async function put(ref: string, body: object, who = t.browsers.admin) {
  return who.app('PUT', `${LIST}/${ref}`, { body });
}

async function adminList(): Promise<Season[]> {
  const res = await t.browsers.readonly.app('GET', LIST);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Season[] }).data;
}

interface AuditRecord {
  action: string;
  target_id: string | null;
  actor: { user_id: string | null; label: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function audit(action: string): Promise<AuditRecord[]> {
  const res = await t.browsers.owner.app('GET', `/api/v1/admin/audit-log?per_page=100&action=${action}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: AuditRecord[] }).data;
}

function key(url: string) {
  return w.app.inject({ url, headers: bearer(readToken) });
}

describe('scoring on create', () => {
  it('defaults to absolute, takes gains, and shows it in the answer and the list', async () => {
    const plain = await create({ name: 'Plain', slug: 'plain' });
    expect(plain.scoring).toBe('absolute');
    const gains = await create({ name: 'Gains', slug: 'gains', scoring: 'gains' });
    expect(gains).toMatchObject({ slug: 'gains', scoring: 'gains', active: false });
    const listed = await adminList();
    expect(listed.find((s) => s.id === gains.id)?.scoring).toBe('gains');
    expect(listed.find((s) => s.id === t.seasonId)?.scoring).toBe('absolute');
  });

  it('refuses an unknown scoring and an end before the start (422, naming the field)', async () => {
    expectInvalid(
      await t.browsers.admin.app('POST', LIST, { body: { name: 'X', slug: 'x', scoring: 'best' } }),
      'scoring',
    );
    expectInvalid(
      await t.browsers.admin.app('POST', LIST, {
        body: { name: 'X', slug: 'x', started_at: '2026-02-01T00:00:00Z', ended_at: '2026-01-01T00:00:00Z' },
      }),
      'ended_at',
    );
    expect((await adminList()).some((s) => s.slug === 'x')).toBe(false);
  });
});

describe('PUT /admin/seasons/{season}', () => {
  it('changes the fields given (by id or slug) and keeps the others', async () => {
    const s = await create({ name: 'Autumn', slug: 'autumn', started_at: '2025-09-01T00:00:00Z' });
    const res = await put(s.id, { scoring: 'gains' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { ...s, scoring: 'gains' } });
    const renamed = await put('autumn', { name: '  Fall  ', slug: 'fall', ended_at: '2025-12-01T00:00:00Z' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toEqual({
      ...s,
      name: 'Fall',
      slug: 'fall',
      scoring: 'gains',
      ended_at: '2025-12-01T00:00:00.000Z',
    });
    // A null time clears it.
    const cleared = await put('fall', { ended_at: null, scoring: 'absolute' });
    expect(cleared.json().data).toMatchObject({ ended_at: null, scoring: 'absolute', started_at: s.started_at });
    expect((await adminList()).find((x) => x.id === s.id)).toEqual(cleared.json().data);
  });

  it('refuses a bad scoring, slug or time, and an end before the start, stored or given (422)', async () => {
    const s = await create({ name: 'Checked', slug: 'checked', started_at: '2025-09-01T00:00:00Z' });
    expectInvalid(await put(s.id, { scoring: 'sum' }), 'scoring');
    expectInvalid(await put(s.id, { slug: 'Not A Slug' }), 'slug');
    expectInvalid(await put(s.id, { name: '   ' }), 'name');
    expectInvalid(await put(s.id, { started_at: 'yesterday' }), 'started_at');
    // Against the stored start, and against a start given with it.
    expectInvalid(await put(s.id, { ended_at: '2025-08-01T00:00:00Z' }), 'ended_at');
    expectInvalid(
      await put(s.id, { started_at: '2025-10-02T00:00:00Z', ended_at: '2025-10-01T00:00:00Z' }),
      'ended_at',
    );
    expect((await adminList()).find((x) => x.id === s.id)).toEqual(s);
  });

  it("refuses to move the active season's start ahead or clear it (422): it has started", async () => {
    const ahead = new Date(Date.now() + 86_400_000).toISOString();
    expectInvalid(await put('s1', { started_at: ahead }), 'started_at');
    expectInvalid(await put('s1', { started_at: null }), 'started_at');
    expect((await put('s1', { started_at: '2025-01-01T00:00:00Z' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown season, 409 for a slug taken, 403 below admin, 401 without a session', async () => {
    expectError(await put('nope', { scoring: 'gains' }), 404, 'NOT_FOUND');
    expectError(await put('00000000-0000-4000-8000-000000000000', { scoring: 'gains' }), 404, 'NOT_FOUND');
    await create({ name: 'Taken', slug: 'taken' });
    expectError(await put('plain', { slug: 'taken' }), 409, 'CONFLICT');
    expectError(await put('plain', { scoring: 'gains' }, t.browsers.analyst), 403);
    expectError(await put('plain', { scoring: 'gains' }, t.browsers.readonly), 403);
    const anonymous = await w.app.inject({ method: 'PUT', url: `${LIST}/plain`, payload: { scoring: 'gains' } });
    expectError(anonymous, 401);
    expect((await adminList()).find((s) => s.slug === 'plain')?.scoring).toBe('absolute');
  });

  it('writes SEASON_UPDATED with the user, before and after; a change that changes nothing writes none', async () => {
    const s = await create({ name: 'Audited', slug: 'audited' });
    expect((await put(s.id, { scoring: 'gains' })).statusCode).toBe(200);
    const records = (await audit('SEASON_UPDATED')).filter((r) => r.target_id === s.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: { user_id: t.userIds.admin, label: null },
      before: { ...s, scoring: 'absolute' },
      after: { ...s, scoring: 'gains' },
    });
    expect((await put(s.id, { scoring: 'gains', name: 'Audited' })).statusCode).toBe(200);
    expect((await audit('SEASON_UPDATED')).filter((r) => r.target_id === s.id)).toHaveLength(1);
  });

  it('is followed at once by the key routes, though they had the season cached', async () => {
    const board = `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(STAT_KEY)}`;
    const seasonOf = async (url: string) => {
      const res = await key(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { season: Season; data: Season[] };
    };
    expect((await seasonOf(board)).season.scoring).toBe('absolute');
    expect((await seasonOf('/api/v1/seasons')).data.find((s) => s.id === t.seasonId)?.scoring).toBe('absolute');
    expect((await put('s1', { scoring: 'gains' })).statusCode).toBe(200);
    expect((await seasonOf(board)).season).toMatchObject({ id: t.seasonId, scoring: 'gains' });
    expect((await seasonOf('/api/v1/seasons')).data.find((s) => s.id === t.seasonId)?.scoring).toBe('gains');
    expect((await put('s1', { scoring: 'absolute' })).statusCode).toBe(200);
    expect((await seasonOf(board)).season.scoring).toBe('absolute');
  });
});

describe('activating by hand', () => {
  it('runs a season again: an end already past is cleared, its start kept; the replaced one ends now', async () => {
    const before = Date.now();
    const old = await create({
      name: 'Old',
      slug: 'old-run',
      started_at: '2025-01-01T00:00:00Z',
      ended_at: '2025-06-01T00:00:00Z',
    });
    const res = await t.browsers.admin.app('POST', `${LIST}/old-run/activate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ...old, active: true, ended_at: null });
    const s1 = (await adminList()).find((s) => s.id === t.seasonId)!;
    expect(s1.active).toBe(false);
    expect(Date.parse(s1.ended_at!)).toBeGreaterThanOrEqual(before - 1_000);
    expect((await t.browsers.admin.app('POST', `${LIST}/s1/activate`)).json().data).toMatchObject({
      active: true,
      ended_at: null,
    });
  });

  it('starts a season scheduled for later now, and keeps an end still ahead', async () => {
    const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const end = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const s = await create({ name: 'Early', slug: 'early', started_at: later, ended_at: end });
    const before = Date.now();
    const res = await t.browsers.admin.app('POST', `${LIST}/early/activate`);
    const data = res.json().data as Season;
    expect(data).toMatchObject({ id: s.id, active: true, ended_at: new Date(end).toISOString() });
    expect(Date.parse(data.started_at!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(data.started_at!)).toBeLessThan(Date.parse(later));
    expect((await t.browsers.admin.app('POST', `${LIST}/s1/activate`)).statusCode).toBe(200);
    // It ran and ended: its end is now, not the one it was planned with.
    const ended = (await adminList()).find((x) => x.id === s.id)!;
    expect(Date.parse(ended.ended_at!)).toBeLessThan(Date.parse(end));
  });
});

describe('OpenAPI', () => {
  it('documents PUT /admin/seasons/{season} and scoring in the Season component', async () => {
    const doc = (await w.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }>; required: string[] }> };
    };
    const op = doc.paths['/api/v1/admin/seasons/{season}']?.put;
    expect(Object.keys(op?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '409', '422']),
    );
    expect(doc.components.schemas.Season?.required).toContain('scoring');
  });
});
