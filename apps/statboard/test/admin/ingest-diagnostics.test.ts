import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RejectionLog } from '#src/modules/ingest/rejection-log.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { buildTeam, PLAYER_UUID, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

let w: World;
let t: Team;
let clientKey = '';
beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  clientKey = (
    await w.services.keys.create(ACTOR, t.workspaceId, { name: 'diagnosed', type: 'client', scopes: ['ingest:write'] })
  ).secret;
});
afterAll(async () => {
  await w?.close();
});

const upload = (body: unknown, query = '') =>
  w.app.inject({
    method: 'POST',
    url: `/api/v1/ingest/batch${query}`,
    headers: bearer(clientKey),
    payload: body as object,
  });

interface RejectionGroup {
  code: string;
  message: string;
  count: number;
  first_at: string;
  last_at: string;
  key: { id: string; name: string } | null;
  server: { hostname: string; port: number } | null;
  player_uuid: string | null;
}

describe('ingest diagnostics', () => {
  it('counts rejected uploads by reason, key, server address and player (dry runs not counted)', async () => {
    const unknownServer = modBatch({ uuid: PLAYER_UUID });
    (unknownServer as { server: { hostname: string; port: number } }).server = {
      hostname: 'Play.Other.example',
      port: 25570,
    };
    for (let i = 0; i < 3; i++) expect((await upload(unknownServer)).statusCode).toBe(404);
    expect((await upload(unknownServer, '?dry_run=true')).statusCode).toBe(404);
    const bad = { ...modBatch({ uuid: PLAYER_UUID }), protocol_version: 9 };
    expect((await upload(bad)).statusCode).toBe(422);

    const res = await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: RejectionGroup[]; meta: { total: number } };
    expect(body.meta.total).toBe(2);
    const notFound = body.data.find((r) => r.code === 'NOT_FOUND')!;
    expect(notFound).toMatchObject({
      count: 3,
      key: { name: 'diagnosed' },
      server: { hostname: 'play.other.example', port: 25570 },
      player_uuid: PLAYER_UUID,
    });
    expect(notFound.message).toMatch(/No enabled server/);
    expect(body.data.find((r) => r.code === 'INVALID_PAYLOAD')?.count).toBe(1);
    // Newest last rejection first.
    expect(body.data[0]!.code).toBe('INVALID_PAYLOAD');
  });

  it('names the first wrong field in the message of a 422, in the answer and in the list of rejections', async () => {
    const player = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
    const bad = modBatch({ uuid: player, username: 'Ste\u0007ve' });
    const res = await upload(bad);
    expect(res.statusCode).toBe(422);
    const error = res.json().error as { code: string; message: string; details: Record<string, string[]> };
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toMatch(/^The request is invalid: player\.username must be a player name: /);
    expect(Object.keys(error.details)).toEqual(['player.username']);
    expect(error.message).toContain(error.details['player.username']![0]);

    const list = (await t.browsers.readonly.app('GET', '/api/v1/admin/ingest/rejections')).json() as {
      data: RejectionGroup[];
    };
    expect(list.data.find((r) => r.player_uuid === player)?.message).toBe(error.message);
  });

  it('gives servers the time of their last accepted upload', async () => {
    const before = (await t.browsers.readonly.app('GET', '/api/v1/admin/servers')).json() as {
      data: { id: string; last_ingest_at: string | null }[];
    };
    const t0 = Date.now();
    expect((await upload(modBatch({ uuid: PLAYER_UUID }))).statusCode).toBe(200);
    await w.services.flush();
    const after = (await t.browsers.readonly.app('GET', '/api/v1/admin/servers')).json() as {
      data: { id: string; last_ingest_at: string | null }[];
    };
    const main = after.data.find((s) => s.id === t.serverId)!;
    expect(Date.parse(main.last_ingest_at!)).toBeGreaterThanOrEqual(t0 - 1000);
    expect(before.data.find((s) => s.id === t.serverId)).toBeDefined();
  });

  it('is admin-only: no session 401, an API key 403', async () => {
    expect((await w.app.inject({ url: '/api/v1/admin/ingest/rejections' })).statusCode).toBe(401);
    expect(
      (await w.app.inject({ url: '/api/v1/admin/ingest/rejections', headers: bearer(t.websiteToken) })).statusCode,
    ).toBe(403);
  });
});

describe('GET /admin/activity', () => {
  interface Bucket {
    at: string;
    batches_accepted: number;
    batches_rejected: number;
    values_written: number;
    active_players: number;
    new_players: number;
  }
  const get = async (query = '') => {
    const res = await t.browsers.readonly.app('GET', `/api/v1/admin/activity${query}`);
    return res;
  };

  it('gives the last 24 hours by hour by default, every bucket present, this hour counting what happened', async () => {
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: Bucket[] }).data;
    expect(data.length).toBeGreaterThanOrEqual(24);
    expect(data.length).toBeLessThanOrEqual(25);
    for (let i = 1; i < data.length; i++) expect(Date.parse(data[i]!.at) - Date.parse(data[i - 1]!.at)).toBe(3_600_000);
    const now = data.at(-1)!;
    expect(now.batches_accepted).toBeGreaterThanOrEqual(1);
    expect(now.batches_rejected).toBeGreaterThanOrEqual(4);
    expect(now.values_written).toBeGreaterThanOrEqual(1);
    expect(now.active_players).toBeGreaterThanOrEqual(1);
    expect(now.new_players).toBeGreaterThanOrEqual(1);
    expect(data[0]).toMatchObject({ batches_accepted: 0, new_players: 0 });
  });

  it('buckets by day from a start rounded down to its day', async () => {
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const data = ((await get(`?interval=day&from=${from}`)).json() as { data: Bucket[] }).data;
    expect(data).toHaveLength(11);
    expect(data[0]!.at.endsWith('T00:00:00.000Z')).toBe(true);
    expect(data.at(-1)!.batches_accepted).toBeGreaterThanOrEqual(1);
  });

  it('refuses more than 400 buckets, a start after the end, and an unknown interval (422)', async () => {
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
    expect((await get(`?from=${from}`)).statusCode).toBe(422);
    expect((await get(`?interval=day&from=${from}`)).statusCode).toBe(200);
    const to = new Date(Date.now() - 86_400_000).toISOString();
    expect((await get(`?from=${new Date().toISOString()}&to=${to}`)).statusCode).toBe(422);
    expect((await get('?interval=week')).statusCode).toBe(422);
  });
});

describe('the log of rejected uploads', () => {
  const capture = () => {
    const lines: { msg: string; code?: string; key?: string | null; suppressed?: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        cb();
      },
    });
    return { lines, log: new RejectionLog(pino({ level: 'info' }, sink)) };
  };
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 9, 6, 12) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs the first of each (reason, server, player) of a key in a minute, then one line counting the rest', () => {
    const { lines, log } = capture();
    try {
      const line = { code: 'NOT_FOUND', reason: 'No enabled server', key: 'k1', server: 'a:1', player: 'p' };
      for (let i = 0; i < 1_000; i++) log.note(line);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        code: 'NOT_FOUND',
        key: 'k1',
        msg: 'ingest rejected: NOT_FOUND: No enabled server',
      });
      // A new reason a second later is a line of its own; the repeats are summed up when the minute ends.
      vi.advanceTimersByTime(1_000);
      log.note({ ...line, code: 'INVALID_PAYLOAD', reason: 'bad' });
      expect(lines).toHaveLength(2);
      vi.advanceTimersByTime(60_000);
      expect(lines).toHaveLength(3);
      expect(lines[2]).toMatchObject({ key: 'k1', suppressed: 999 });
      expect(lines[2]!.msg).toBe(
        'ingest rejected 999 more upload(s) of key k1 since 2026-10-06T12:00:00.000Z, not logged one by one',
      );
      // Quiet afterwards: nothing more.
      vi.advanceTimersByTime(180_000);
      expect(lines).toHaveLength(3);
    } finally {
      log.close();
    }
  });

  it('writes at most one line a second per key, however many different rejections it has', () => {
    const { lines, log } = capture();
    try {
      // 100 a second for 10 seconds, each naming another server.
      for (let s = 0; s < 10; s++) {
        for (let i = 0; i < 100; i++) {
          log.note({ code: 'NOT_FOUND', reason: 'No enabled server', key: 'k1', server: `h${s}-${i}:1`, player: null });
        }
        vi.advanceTimersByTime(1_000);
      }
      expect(lines).toHaveLength(10);
      vi.advanceTimersByTime(60_000);
      expect(lines).toHaveLength(11);
      expect(lines[10]).toMatchObject({ key: 'k1', suppressed: 990 });
    } finally {
      log.close();
    }
  });

  it('gives each key a budget of its own, and every request without a usable key one budget together', () => {
    const { lines, log } = capture();
    try {
      for (let i = 0; i < 50; i++) {
        log.note({ code: 'INVALID_API_KEY', reason: 'unknown key', key: null, server: `h${i}:1`, player: null });
        log.note({ code: 'NOT_FOUND', reason: 'No enabled server', key: `k${i}`, server: 'a:1', player: null });
      }
      expect(lines.filter((l) => l.key === null)).toHaveLength(1);
      expect(lines.filter((l) => l.key !== null)).toHaveLength(50);
      vi.advanceTimersByTime(61_000);
      const summary = lines.find((l) => l.key === null && l.suppressed !== undefined);
      expect(summary?.suppressed).toBe(49);
      expect(summary?.msg).toMatch(/ without a usable key since /);
    } finally {
      log.close();
    }
  });

  it('sums up what was not logged when it closes, once the last line of the key is a second old', () => {
    const { lines, log } = capture();
    const line = { code: 'NOT_FOUND', reason: 'No enabled server', key: 'k1', server: 'a:1', player: 'p' };
    for (let i = 0; i < 5; i++) log.note(line);
    vi.advanceTimersByTime(1_000);
    log.close();
    expect(lines.map((l) => l.suppressed)).toEqual([undefined, 4]);
  });
});
