import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestDiagnostics, REJECTION_GROUPS_PER_KEY_DAY } from '#src/modules/ingest/diagnostics.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { buildTeam, PLAYER_UUID, type Team } from './support/team.ts';
import { type AppInstance, createWorld, type World } from './support/world.ts';

// A client key lives on players' machines: whoever holds one can send rejected uploads as fast as they like, each
// naming another server. What that leaves behind is bounded: at most 100 rejection groups of the key a day (the
// rest counted in one overflow group), and at most one warning line a second per key.

interface LogLine {
  msg: string;
  key?: string | null;
  suppressed?: number;
}

interface RejectionGroup {
  code: string;
  message: string;
  count: number;
  key: { id: string; name: string } | null;
  server: { hostname: string; port: number } | null;
  player_uuid: string | null;
}

const lines: LogLine[] = [];
const sink = new Writable({
  write(chunk: Buffer, _e, cb) {
    for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as LogLine);
    cb();
  },
});

let w: World;
let t: Team;
const keys = { flooder: { id: '', token: '' }, steady: { id: '', token: '' } };

beforeAll(async () => {
  // Warnings only: the access log would be a line per request.
  w = await createWorld({ logger: pino({ level: 'warn' }, sink) });
  t = await buildTeam(w);
  for (const name of ['flooder', 'steady'] as const) {
    const k = await w.services.keys.create(ACTOR, t.workspaceId, { name, type: 'client', scopes: ['ingest:write'] });
    keys[name] = { id: k.data.id, token: k.secret };
  }
});
afterAll(async () => {
  await w?.close();
});

/** An upload naming `hostname` (no such server is registered: 404). */
const upload = (on: AppInstance, token: string, hostname: string) =>
  on.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(token),
    payload: modBatch({ uuid: PLAYER_UUID, hostname }),
  });

/** Sends `n` uploads, 20 at a time; `hostname(i)` names the server of the i-th. Returns the statuses seen. */
async function flood(n: number, send: (i: number) => Promise<{ statusCode: number }>): Promise<Set<number>> {
  const statuses = new Set<number>();
  for (let i = 0; i < n; i += 20) {
    const batch = Array.from({ length: Math.min(20, n - i) }, (_, j) => send(i + j));
    for (const res of await Promise.all(batch)) statuses.add(res.statusCode);
  }
  return statuses;
}

async function rejections(): Promise<RejectionGroup[]> {
  const all: RejectionGroup[] = [];
  for (let page = 1; ; page++) {
    const res = await t.browsers.readonly.app('GET', `/api/v1/admin/ingest/rejections?page=${page}&per_page=100`);
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: RejectionGroup[] }).data;
    all.push(...data);
    if (data.length < 100) return all;
  }
}
const ofKey = (groups: RejectionGroup[], id: string) => groups.filter((g) => g.key?.id === id);
const total = (groups: RejectionGroup[]) => groups.reduce((n, g) => n + g.count, 0);

describe('rejected uploads of one key', () => {
  it('keep at most 100 groups a day; the rest are counted in one overflow group; other keys are unaffected', async () => {
    expect((await upload(w, keys.steady.token, 'steady-1.example')).statusCode).toBe(404);
    // 1,000 uploads naming 1,000 servers, written in several flushes.
    let sent = 0;
    for (const part of [50, 450, 500]) {
      const from = sent;
      const statuses = await flood(part, (i) => upload(w, keys.flooder.token, `host-${from + i}.flood.example`));
      expect([...statuses]).toEqual([404]);
      sent += part;
      await w.services.flush();
    }
    // A group admitted earlier keeps counting; another key still gets groups of its own.
    for (let i = 0; i < 5; i++)
      expect((await upload(w, keys.flooder.token, 'host-3.flood.example')).statusCode).toBe(404);
    expect((await upload(w, keys.steady.token, 'steady-2.example')).statusCode).toBe(404);

    const groups = await rejections();
    const flooder = ofKey(groups, keys.flooder.id);
    const overflow = flooder.filter((g) => g.code === 'OVERFLOW');
    const regular = flooder.filter((g) => g.code !== 'OVERFLOW');
    expect(regular).toHaveLength(REJECTION_GROUPS_PER_KEY_DAY);
    expect(regular.every((g) => g.code === 'NOT_FOUND' && g.server !== null)).toBe(true);
    expect(regular.find((g) => g.server?.hostname === 'host-3.flood.example')?.count).toBe(6);
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({ count: 900, server: null, player_uuid: null, key: { name: 'flooder' } });
    const day = new Date().toISOString().slice(0, 10);
    expect(overflow[0]!.message).toBe(
      `900 more rejections in groups past the first 100 of this key on ${day} (UTC); their servers and players are not recorded`,
    );
    expect(total(flooder)).toBe(1_005);

    const steady = ofKey(groups, keys.steady.id);
    expect(steady.map((g) => [g.code, g.server?.hostname, g.count]).sort()).toEqual([
      ['NOT_FOUND', 'steady-1.example', 1],
      ['NOT_FOUND', 'steady-2.example', 1],
    ]);
    // What the table holds: the 100 groups and the overflow group (a row per hour each).
    const [{ n }] = (await w.db.db.query(
      `SELECT count(DISTINCT (code, hostname, port, player_uuid))::int AS n FROM ingest_rejections WHERE key_id = $1`,
      [keys.flooder.id],
    )) as [{ n: number }];
    expect(n).toBe(REJECTION_GROUPS_PER_KEY_DAY + 1);
  });

  it('keeps the bound after a restart: a new process counts in the groups the table holds', async () => {
    const restarted = await w.instance();
    try {
      for (let i = 0; i < 10; i++) {
        expect((await upload(restarted, keys.flooder.token, `after-restart-${i}.example`)).statusCode).toBe(404);
      }
      expect((await upload(restarted, keys.flooder.token, 'host-3.flood.example')).statusCode).toBe(404);
      await restarted.services.flush();
    } finally {
      await restarted.app.close();
    }
    const flooder = ofKey(await rejections(), keys.flooder.id);
    expect(flooder.filter((g) => g.code !== 'OVERFLOW')).toHaveLength(REJECTION_GROUPS_PER_KEY_DAY);
    expect(flooder.find((g) => g.server?.hostname === 'host-3.flood.example')?.count).toBe(7);
    expect(flooder.find((g) => g.code === 'OVERFLOW')?.count).toBe(910);
    expect(total(flooder)).toBe(1_016);
  });
});

describe('the daily bound of rejection groups', () => {
  it('starts again at midnight (UTC), and lists each day of overflow as a group of its own', async () => {
    // The coming midnight, so that nothing else (the other tests, their purge of old rows) meets these rows.
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    let now = midnight - 60_000;
    const diagnostics = new IngestDiagnostics(w.db.db, () => now);
    const keyId = randomUUID();
    const reject = (hostname: string) =>
      diagnostics.rejected({
        workspaceId: t.workspaceId,
        code: 'NOT_FOUND',
        message: `No enabled server is registered as ${hostname}:25565.`,
        keyId,
        hostname,
        port: 25565,
        playerUuid: null,
      });
    for (let i = 0; i < 102; i++) reject(`day1-${i}.example`);
    await diagnostics.flush();
    now = midnight + 60_000;
    for (let i = 0; i < 3; i++) reject(`day2-${i}.example`);
    await diagnostics.flush();
    const mine: Awaited<ReturnType<IngestDiagnostics['list']>>['data'] = [];
    for (let page = 1; ; page++) {
      const { data } = await diagnostics.list(t.workspaceId, page, 100);
      mine.push(...data.filter((g) => g.key?.id === keyId));
      if (data.length < 100) break;
    }
    expect(mine.filter((g) => g.code === 'NOT_FOUND')).toHaveLength(103);
    expect(mine.filter((g) => g.code === 'OVERFLOW').map((g) => [g.count, g.message.slice(0, 60)])).toEqual([
      [2, '2 more rejections in groups past the first 100 of this key o'],
    ]);
    const day = new Date(midnight - 60_000).toISOString().slice(0, 10);
    expect(mine.find((g) => g.code === 'OVERFLOW')?.message).toContain(`on ${day} (UTC)`);
  });
});

describe('the warning log of rejected uploads', () => {
  it('writes at most one line a second per key, and one for all requests without a usable key, counting the rest', async () => {
    // A process of its own, so that closing it sums up what it did not log.
    const own = await w.instance();
    lines.length = 0;
    const started = Date.now();
    try {
      const statuses = await flood(1_000, (i) => upload(own, keys.flooder.token, `log-${i}.flood.example`));
      expect([...statuses]).toEqual([404]);
      // Unknown keys, each another token: one budget together.
      const unknown = await flood(300, () =>
        own.app.inject({
          method: 'POST',
          url: '/api/v1/ingest/batch',
          headers: bearer(`stb_client_${randomUUID()}_${'s'.repeat(43)}`),
          payload: modBatch({ uuid: PLAYER_UUID }),
        }),
      );
      expect([...unknown]).toEqual([401]);
      expect((await upload(own, keys.steady.token, 'steady-log.example')).statusCode).toBe(404);
    } finally {
      const seconds = Math.ceil((Date.now() - started) / 1_000);
      const perKey = (key: string | null) => lines.filter((l) => l.key === key && l.msg.startsWith('ingest rejected:'));
      expect(perKey(keys.flooder.id).length).toBeGreaterThanOrEqual(1);
      expect(perKey(keys.flooder.id).length).toBeLessThanOrEqual(seconds + 1);
      expect(perKey(null).length).toBeGreaterThanOrEqual(1);
      expect(perKey(null).length).toBeLessThanOrEqual(seconds + 1);
      // Another key has a budget of its own.
      expect(perKey(keys.steady.id)).toHaveLength(1);
      // Once a second has passed since each key's last line, closing sums up what was not logged.
      await new Promise((r) => setTimeout(r, 1_100));
      await own.app.close();
      await own.services.flush();
    }
    const summed = (key: string | null) =>
      lines.filter((l) => l.key === key && l.msg.startsWith('ingest rejected:')).length +
      lines.filter((l) => l.key === key && typeof l.suppressed === 'number').reduce((n, l) => n + l.suppressed!, 0);
    expect(summed(keys.flooder.id)).toBe(1_000);
    expect(summed(null)).toBe(300);
    const summary = lines.find((l) => l.key === null && typeof l.suppressed === 'number');
    expect(summary?.msg).toMatch(
      /^ingest rejected \d+ more upload\(s\) without a usable key since .+, not logged one by one$/,
    );
  });
});
