import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, createTestContext, type Fixture, modBatch, seedWorkspace, type TestContext } from '../helpers.ts';
import { runSecurityMatrix } from '../security-matrix.ts';
import {
  at,
  countRows,
  expectError,
  expectInvalid,
  getJson,
  ingestOk,
  postBatch,
  snapshotDb,
  sql,
  uuid,
} from './support.ts';

let ctx: TestContext;
let fx: Fixture;
let client: string;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
  client = fx.keys.client!;
});
afterAll(async () => {
  await ctx?.close();
});

const INGEST_URL = '/api/v1/ingest/batch';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Sends and expects a refusal that leaves every table exactly as it was. */
async function refusedWithoutWrites(
  token: string,
  body: unknown,
  status: number,
  code: string,
  headers: Record<string, string> = {},
) {
  const before = await snapshotDb(ctx.db);
  const res = await postBatch(ctx, token, body, headers);
  const err = expectError(res, status, code);
  expect(await snapshotDb(ctx.db)).toEqual(before);
  return err;
}

async function storedValue(playerUuid: string, key: string): Promise<number | undefined> {
  const rows = await sql(
    ctx,
    `SELECT s.value FROM player_stats s JOIN players p ON p.id = s.player_id JOIN stat_definitions d ON d.id = s.stat_id
     WHERE p.uuid = $1 AND d.key = $2 AND p.workspace_id = $3`,
    [playerUuid, key, fx.workspaceId],
  );
  return rows[0]?.value as number | undefined;
}

async function onlineUuids(): Promise<string[]> {
  const res = await getJson(ctx, fx.keys.website!, '/api/v1/online');
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { player: { uuid: string } }[] }).data.map((e) => e.player.uuid);
}

runSecurityMatrix('POST /api/v1/ingest/batch', () => ctx, {
  method: 'POST',
  scope: 'ingest:write',
  url: () => INGEST_URL,
  body: (w) => modBatch({ uuid: w.playerUuid, username: 'MatrixPlayer', stats: [{ key: w.statKey, value: 8 }] }),
});

describe('POST /api/v1/ingest/batch: happy path', () => {
  it('accepts a batch exactly as the real mod sends it and answers {accepted, request_id, server_time, next_upload_after}', async () => {
    const before = Date.now();
    const res = await postBatch(ctx, client, modBatch({ uuid: uuid() }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accepted', 'next_upload_after', 'request_id', 'server_time']);
    expect(body.accepted).toBe(true);
    expect(body.next_upload_after).toBe(60);
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.request_id).toMatch(UUID_RE);
    const serverTime = Date.parse(body.server_time);
    expect(body.server_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(serverTime).toBeGreaterThanOrEqual(before - 1000);
    expect(serverTime).toBeLessThanOrEqual(Date.now() + 1000);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });

  it("accepts the mod's client.minecraft_version / fabric_loader_version and stores them on the session", async () => {
    const player = uuid();
    const session = uuid();
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: session }));
    const rows = await sql(
      ctx,
      'SELECT game_version, loader_version, mod_version FROM game_sessions WHERE session_id = $1',
      [session],
    );
    expect(rows).toEqual([{ game_version: '1.21.4', loader_version: '0.16.9', mod_version: '1.2.0' }]);
  });

  it("accepts the spec's client.game_version / loader_version", async () => {
    const session = uuid();
    const body = {
      ...modBatch({ uuid: uuid(), sessionId: session }),
      client: { mod_version: '2.0.0', game_version: '1.21.5', loader_version: '0.17.0' },
    };
    await ingestOk(ctx, client, body);
    const rows = await sql(ctx, 'SELECT game_version, loader_version FROM game_sessions WHERE session_id = $1', [
      session,
    ]);
    expect(rows).toEqual([{ game_version: '1.21.5', loader_version: '0.17.0' }]);
  });

  it('accepts a null or missing loader version', async () => {
    for (const c of [
      { mod_version: '1', minecraft_version: '1.21', fabric_loader_version: null },
      { mod_version: '1', game_version: '1.21', loader_version: null },
      { mod_version: '1', game_version: '1.21' },
    ]) {
      await ingestOk(ctx, client, { ...modBatch({ uuid: uuid() }), client: c });
    }
  });

  it('requires a game version under either name (422 client.game_version)', async () => {
    await refusedWithoutWrites(
      client,
      { ...modBatch({ uuid: uuid() }), client: { mod_version: '1.2.0' } },
      422,
      'INVALID_PAYLOAD',
    );
    const res = await postBatch(ctx, client, { ...modBatch({ uuid: uuid() }), client: { mod_version: '1.2.0' } });
    expectInvalid(res, 'client.game_version');
  });

  it('accepts RFC 3339 timestamps with Z or an offset, with or without fractions', async () => {
    for (const ts of [
      '2026-10-06T12:00:00.123456Z',
      '2026-10-06T12:00:00Z',
      '2026-10-06T12:00:00.5Z',
      '2026-10-06T12:00:00.123456789Z',
      '2026-10-06T14:00:00+02:00',
      '2026-10-06T14:00:00.250+02:00',
      '2026-10-06T08:30:00-03:30',
      '2026-10-06T12:00:00+00:00',
    ]) {
      const res = await postBatch(
        ctx,
        client,
        modBatch({
          uuid: uuid(),
          observedAt: ts,
          events: [{ id: uuid(), type: 'SESSION_STARTED', occurred_at: ts, payload: {} }],
        }),
      );
      expect(res.statusCode, `${ts}: ${res.body}`).toBe(200);
    }
  });

  it('compares observed_at as instants, so offsets order correctly', async () => {
    const player = uuid();
    const key = 'minecraft:custom:minecraft:play_time';
    await ingestOk(
      ctx,
      client,
      modBatch({ uuid: player, observedAt: '2026-10-06T12:00:00.5Z', stats: [{ key, value: 2 }] }),
    );
    // 13:00+02:00 is 11:00Z: earlier, although its text sorts later.
    await ingestOk(
      ctx,
      client,
      modBatch({ uuid: player, observedAt: '2026-10-06T13:00:00+02:00', stats: [{ key, value: 1 }] }),
    );
    expect(await storedValue(player, key)).toBe(2);
    // 09:00-03:30 is 12:30Z: later.
    await ingestOk(
      ctx,
      client,
      modBatch({ uuid: player, observedAt: '2026-10-06T09:00:00-03:30', stats: [{ key, value: 3 }] }),
    );
    expect(await storedValue(player, key)).toBe(3);
  });

  it('refuses usernames with control, format, private-use or surrogate characters (422 player.username)', async () => {
    for (const name of ['Ste\u0007ve', 'a\tb', 'line\nbreak', 'evil\u202eevil', 'zero\u200bwidth', 'pua\ue000']) {
      expectInvalid(await postBatch(ctx, client, modBatch({ uuid: uuid(), username: name })), 'player.username');
    }
    for (const name of ['Steve_123', '.BedrockName', 'Stève', '*Floodgate']) {
      expect((await postBatch(ctx, client, modBatch({ uuid: uuid(), username: name }))).statusCode).toBe(200);
    }
  });

  it('refuses usernames that break lines or look blank, saying what a name may be (422 player.username)', async () => {
    const names = [
      'a\u2028b',
      'a\u2029b',
      '\u3164',
      '\u2800\u2800',
      '   ',
      ' Steve',
      'a\u00a0b',
      `a${'\u0301'.repeat(15)}`,
      'ESC\u001b[2J',
    ];
    for (const name of names) {
      const details = expectInvalid(
        await postBatch(ctx, client, modBatch({ uuid: uuid(), username: name })),
        'player.username',
      );
      expect(details['player.username'], JSON.stringify(name)).toEqual([
        expect.stringMatching(/^must be a player name: .*printable/),
      ]);
    }
    const player = uuid();
    for (const name of ['Notch', '_jeb_', 'ab', 'Élodie', '小明', 'e\u0301\u0301x']) {
      expect((await postBatch(ctx, client, modBatch({ uuid: player, username: name }))).statusCode, name).toBe(200);
    }
  });

  it('refuses timestamps that are not RFC 3339 date-times (422 observed_at / events.0.occurred_at)', async () => {
    for (const ts of [
      '2026-10-06',
      '2026-10-06T12:00:00',
      '2026-13-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-10-06T25:00:00Z',
      '1760000000',
      'yesterday',
      '',
      // Outside years 0001–9999 in UTC.
      '9999-12-31T23:59:59-23:59',
      '0001-01-01T00:00:00+00:01',
    ]) {
      expectInvalid(await postBatch(ctx, client, modBatch({ uuid: uuid(), observedAt: ts })), 'observed_at');
      const ev = modBatch({ uuid: uuid(), events: [{ id: uuid(), type: 'X', occurred_at: ts, payload: {} }] });
      expectInvalid(await postBatch(ctx, client, ev), 'events.0.occurred_at');
    }
    const numeric = { ...modBatch({ uuid: uuid() }), observed_at: 1760000000 };
    expectInvalid(await postBatch(ctx, client, numeric), 'observed_at');
  });

  it('accepts dotted, colon-separated stat keys and stores them as sent', async () => {
    const player = uuid();
    const keys = [
      'minecraft.mined:minecraft.stone',
      'minecraft:custom:minecraft:play_time',
      'minecraft.used:minecraft.diamond_pickaxe',
      `a:${'b'.repeat(253)}`,
    ];
    await ingestOk(ctx, client, modBatch({ uuid: player, stats: keys.map((key, i) => ({ key, value: i + 1 })) }));
    for (const [i, key] of keys.entries()) expect(await storedValue(player, key)).toBe(i + 1);
  });

  it('refuses stat keys that are empty, longer than 255 characters or have empty segments', async () => {
    for (const key of ['', `a:${'b'.repeat(254)}`, 'a::b', ':a', 'a:']) {
      const res = await postBatch(ctx, client, modBatch({ uuid: uuid(), stats: [{ key, value: 1 }] }));
      expectInvalid(res, 'stats.0.key');
    }
  });

  it('accepts finite values: zero, negative, fractional, large', async () => {
    const player = uuid();
    const stats = [
      { key: 'v:zero', value: 0 },
      { key: 'v:neg', value: -5 },
      { key: 'v:frac', value: 1.5 },
      { key: 'v:big', value: 9_007_199_254_740_991 },
    ];
    await ingestOk(ctx, client, modBatch({ uuid: player, stats }));
    for (const s of stats) expect(await storedValue(player, s.key)).toBe(s.value);
  });

  it('refuses non-numbers and non-finite numbers as values (422 stats.0.value)', async () => {
    for (const raw of ['"5"', 'null', 'true', '1e400', '-1e400', '[1]', '{}']) {
      const text = JSON.stringify(modBatch({ uuid: uuid(), stats: [{ key: 'v:x', value: 0 }] })).replace(
        '"value":0',
        `"value":${raw}`,
      );
      const before = await snapshotDb(ctx.db);
      expectInvalid(await postBatch(ctx, client, text), 'stats.0.value');
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
  });

  it('returns 422 with details when a stat key appears twice in one batch, and writes nothing', async () => {
    const body = modBatch({
      uuid: uuid(),
      stats: [
        { key: 'minecraft.mined:minecraft.stone', value: 1 },
        { key: 'minecraft.mined:minecraft.dirt', value: 2 },
        { key: 'minecraft.mined:minecraft.stone', value: 3 },
      ],
    });
    const err = await refusedWithoutWrites(client, body, 422, 'INVALID_PAYLOAD');
    const fields = Object.keys(err.error.details ?? {});
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.some((f) => f.startsWith('stats'))).toBe(true);
  });

  it('accepts 500 stats and refuses 501 (422 stats)', async () => {
    const stats = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `bulk:k${i}`, value: i }));
    await ingestOk(ctx, client, modBatch({ uuid: uuid(), stats: stats(500) }));
    const before = await snapshotDb(ctx.db);
    expectInvalid(await postBatch(ctx, client, modBatch({ uuid: uuid(), stats: stats(501) })), 'stats');
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });

  it('accepts 100 events and refuses 101 (422 events)', async () => {
    const events = (n: number) =>
      Array.from({ length: n }, () => ({ id: uuid(), type: 'BLOCK_MINED', occurred_at: at(0), payload: { n: 1 } }));
    await ingestOk(ctx, client, modBatch({ uuid: uuid(), events: events(100) }));
    const before = await snapshotDb(ctx.db);
    const details = expectInvalid(
      await postBatch(ctx, client, modBatch({ uuid: uuid(), events: events(101) })),
      'events',
    );
    // The message names the limit.
    expect(details.events!.join(' ')).toMatch(/\b100\b/);
    expect(await snapshotDb(ctx.db)).toEqual(before);
  });

  it('accepts an event payload of 4096 bytes as JSON and refuses 4097 (422 events.N.payload naming the limit)', async () => {
    /** A payload `{"text":"…"}` whose JSON is `bytes` long in UTF-8, written with `char` (1 or 2 bytes). */
    const payloadOf = (bytes: number, char = 'x') => {
      const room = bytes - '{"text":""}'.length;
      const width = Buffer.byteLength(char, 'utf8');
      return { text: char.repeat(Math.floor(room / width)) + 'x'.repeat(room % width) };
    };
    const event = (payload: object) => ({ id: uuid(), type: 'CHAT', occurred_at: at(0), payload });
    const fits = event(payloadOf(4096));
    expect(Buffer.byteLength(JSON.stringify(fits.payload))).toBe(4096);
    await ingestOk(ctx, client, modBatch({ uuid: uuid(), events: [fits] }));
    expect(await sql(ctx, 'SELECT count(*)::int AS n FROM events WHERE id = $1', [fits.id])).toEqual([{ n: 1 }]);

    for (const payload of [payloadOf(4097), payloadOf(4097, 'é'), payloadOf(100_000)]) {
      const before = await snapshotDb(ctx.db);
      const body = modBatch({ uuid: uuid(), events: [event({ n: 1 }), event(payload)] });
      const details = expectInvalid(await postBatch(ctx, client, body), 'events.1.payload');
      expect(details['events.1.payload']).toEqual(['must be at most 4 KB (4096 bytes) as JSON']);
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
    // Bytes, not characters: 2,100 two-byte characters are 4,211 bytes.
    const wide = { text: 'é'.repeat(2_100) };
    expect(JSON.stringify(wide).length).toBeLessThan(4096);
    expectInvalid(await postBatch(ctx, client, modBatch({ uuid: uuid(), events: [event(wide)] })), 'events.0.payload');
  });

  it('accepts a batch without stats and events (defaults to empty lists)', async () => {
    const body = modBatch({ uuid: uuid() });
    delete body.stats;
    delete body.events;
    await ingestOk(ctx, client, body);
  });

  it('accepts an event without payload (defaults to {})', async () => {
    const id = uuid();
    const body = modBatch({ uuid: uuid() });
    body.events = [{ id, type: 'SESSION_STARTED', occurred_at: at(0) }];
    await ingestOk(ctx, client, body);
    const rows = await sql(ctx, 'SELECT payload FROM events WHERE id = $1', [id]);
    expect(rows).toEqual([{ payload: {} }]);
  });

  it('refuses malformed fields with a details map naming each field', async () => {
    const cases: [string, (b: Record<string, unknown>) => void][] = [
      ['protocol_version', (b) => (b.protocol_version = 2)],
      ['protocol_version', (b) => (b.protocol_version = '1')],
      ['protocol_version', (b) => delete b.protocol_version],
      ['client', (b) => delete b.client],
      ['client.mod_version', (b) => (b.client = { minecraft_version: '1.21' })],
      ['player.uuid', (b) => (b.player = { uuid: 'not-a-uuid', username: 'Steve' })],
      ['player.uuid', (b) => (b.player = { uuid: '3f2b6c1e8a4d4e2f9b1a2c3d4e5f6a7b', username: 'Steve' })],
      ['player.uuid', (b) => (b.player = { uuid: `urn:uuid:${uuid()}`, username: 'Steve' })],
      ['player.uuid', (b) => (b.player = { uuid: `{${uuid()}}`, username: 'Steve' })],
      ['session_id', (b) => (b.session_id = `urn:uuid:${uuid()}`)],
      ['events.0.id', (b) => (b.events = [{ id: `urn:uuid:${uuid()}`, type: 'A', occurred_at: at(0), payload: {} }])],
      ['player.username', (b) => (b.player = { uuid: uuid(), username: '' })],
      ['player.username', (b) => (b.player = { uuid: uuid(), username: 'x'.repeat(17) })],
      ['server.hostname', (b) => (b.server = { hostname: '', port: 25565 })],
      ['server.hostname', (b) => (b.server = { hostname: 'h'.repeat(254), port: 25565 })],
      ['server.port', (b) => (b.server = { hostname: 'mc.example.com', port: 0 })],
      ['server.port', (b) => (b.server = { hostname: 'mc.example.com', port: 65536 })],
      ['server.port', (b) => (b.server = { hostname: 'mc.example.com', port: 25565.5 })],
      ['server.port', (b) => (b.server = { hostname: 'mc.example.com', port: '25565' })],
      ['session_id', (b) => (b.session_id = 'abc')],
      ['session_id', (b) => delete b.session_id],
      ['observed_at', (b) => delete b.observed_at],
      ['stats', (b) => (b.stats = {})],
      ['events', (b) => (b.events = 'none')],
      ['events.0.id', (b) => (b.events = [{ id: 'x', type: 'A', occurred_at: at(0), payload: {} }])],
      ['events.0.type', (b) => (b.events = [{ id: uuid(), type: '', occurred_at: at(0), payload: {} }])],
      ['events.0.type', (b) => (b.events = [{ id: uuid(), type: 'T'.repeat(65), occurred_at: at(0), payload: {} }])],
      ['events.0.payload', (b) => (b.events = [{ id: uuid(), type: 'A', occurred_at: at(0), payload: [1] }])],
    ];
    for (const [field, mutate] of cases) {
      const body = modBatch({ uuid: uuid() });
      mutate(body);
      const before = await snapshotDb(ctx.db);
      expectInvalid(await postBatch(ctx, client, body), field);
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
  });

  it('stores nested event payloads, and refuses payloads nested deeper than 32 levels with 422 (never a 500)', async () => {
    const withPayload = (raw: string) =>
      JSON.stringify(
        modBatch({ uuid: uuid(), events: [{ id: uuid(), type: 'X', occurred_at: at(0), payload: {} }] }),
      ).replace('"payload":{}', `"payload":${raw}`);
    const nested = (n: number, inner = '1') => `${'{"a":'.repeat(n)}${inner}${'}'.repeat(n)}`;
    const res = await postBatch(ctx, client, withPayload(nested(20)));
    expect(res.statusCode, res.body).toBe(200);
    for (const raw of [
      nested(40),
      `{"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
      `{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
      nested(80, '"\\u0000"'),
    ]) {
      const before = await snapshotDb(ctx.db);
      expectInvalid(await postBatch(ctx, client, withPayload(raw)), 'events.0.payload');
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
  });

  it('refuses a body that is JSON but not an object with 422', async () => {
    for (const raw of ['[]', '1', '"batch"', 'null', 'true']) {
      const before = await snapshotDb(ctx.db);
      const res = await postBatch(ctx, client, raw);
      expectError(res, 422, 'INVALID_PAYLOAD');
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
  });

  it('ignores unknown extra fields everywhere', async () => {
    const player = uuid();
    const body = {
      ...modBatch({ uuid: player }),
      extra: { nested: [1, 2, 3] },
      client: { mod_version: '1', minecraft_version: '1.21', os: 'linux' },
      player: { uuid: player, username: 'Extra', skin: 'x' },
      server: { hostname: 'mc.example.com', port: 25565, motd: 'hi' },
      stats: [{ key: 'extra:k', value: 4, unit: 'cm' }],
      events: [{ id: uuid(), type: 'SESSION_STARTED', occurred_at: at(0), payload: {}, source: 'mod' }],
    };
    await ingestOk(ctx, client, body);
    expect(await storedValue(player, 'extra:k')).toBe(4);
  });

  it('serves the Java client\'s "Connection: Upgrade, HTTP2-Settings" + "Upgrade: h2c" request as plain HTTP/1.1', async () => {
    const res = await postBatch(ctx, client, modBatch({ uuid: uuid() }), {
      connection: 'Upgrade, HTTP2-Settings',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA',
      accept: 'application/json',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().accepted).toBe(true);
  });

  it("serves an h2c upgrade request over a real socket as HTTP/1.1 (what Java's HttpClient sends)", async () => {
    {
      const { port } = new URL(ctx.url);
      const body = JSON.stringify(modBatch({ uuid: uuid() }));
      const request = [
        'POST /api/v1/ingest/batch HTTP/1.1',
        'Connection: Upgrade, HTTP2-Settings',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `Host: 127.0.0.1:${port}`,
        'HTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA',
        'Upgrade: h2c',
        'User-Agent: Java-http-client/21.0.5',
        `Authorization: Bearer ${client}`,
        'Content-Type: application/json',
        'Accept: application/json',
        '',
        body,
      ].join('\r\n');
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let data = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => {
          data += chunk;
          if (/\r\n\r\n[\s\S]*\}$/.test(data)) socket.end();
        });
        socket.on('end', () => resolve(data));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
        socket.setTimeout(5_000, () => socket.destroy(new Error('timeout')));
      });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer).not.toMatch(/^HTTP\/1\.1 101/);
      expect(answer).toContain('"accepted":true');
    }
  });

  it('accepts any string season hint (up to 255) or null, and writes into the active season regardless', async () => {
    for (const hint of ['s1', 'does-not-exist', 'Season 1', '', 'x'.repeat(255), null]) {
      const player = uuid();
      await ingestOk(ctx, client, {
        ...modBatch({ uuid: player, stats: [{ key: 'hint:k', value: 1 }] }),
        season: hint,
      });
      const rows = await sql(
        ctx,
        'SELECT s.season_id FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $1',
        [player],
      );
      expect(rows).toEqual([{ season_id: fx.seasonId }]);
    }
  });

  it('validates the season hint: longer than 255 or not a string is 422 season', async () => {
    for (const hint of ['x'.repeat(256), 5, true, { slug: 's1' }, ['s1']]) {
      const before = await snapshotDb(ctx.db);
      expectInvalid(await postBatch(ctx, client, { ...modBatch({ uuid: uuid() }), season: hint }), 'season');
      expect(await snapshotDb(ctx.db)).toEqual(before);
    }
  });

  it('lower-cases an upper-case player UUID', async () => {
    const player = uuid();
    await ingestOk(ctx, client, modBatch({ uuid: player.toUpperCase() }));
    expect(await countRows(ctx.db, 'players', 'uuid = $1', [player])).toBe(1);
    const res = await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}`);
    expect(res.json().uuid).toBe(player);
  });

  it('matches the server hostname case-insensitively and ignores a trailing dot', async () => {
    for (const hostname of ['MC.EXAMPLE.COM', 'Mc.Example.Com.', 'mc.example.com.']) {
      const res = await postBatch(ctx, client, modBatch({ uuid: uuid(), hostname }));
      expect(res.statusCode, `${hostname}: ${res.body}`).toBe(200);
    }
  });
});

describe('POST /api/v1/ingest/batch: stored state', () => {
  it('keeps the value with the latest observed_at: a late batch never overwrites', async () => {
    const player = uuid();
    const key = 'minecraft.mined:minecraft.stone';
    await ingestOk(ctx, client, modBatch({ uuid: player, observedAt: at(20), stats: [{ key, value: 20 }] }));
    await ingestOk(ctx, client, modBatch({ uuid: player, observedAt: at(10), stats: [{ key, value: 10 }] }));
    expect(await storedValue(player, key)).toBe(20);
    await ingestOk(ctx, client, modBatch({ uuid: player, observedAt: at(30), stats: [{ key, value: 30 }] }));
    expect(await storedValue(player, key)).toBe(30);
  });

  it('treats a retried batch as a no-op (same values, events stored once, updated_at unchanged)', async () => {
    const player = uuid();
    const eventId = uuid();
    const body = modBatch({
      uuid: player,
      observedAt: at(40),
      stats: [{ key: 'retry:k', value: 5 }],
      events: [{ id: eventId, type: 'BLOCK_MINED', occurred_at: at(40), payload: { block: 'stone' } }],
    });
    await ingestOk(ctx, client, body);
    const q = `SELECT s.value, s.updated_at, s.observed_at FROM player_stats s JOIN players p ON p.id = s.player_id WHERE p.uuid = $1`;
    const first = await sql(ctx, q, [player]);
    await ingestOk(ctx, client, body);
    await ingestOk(ctx, client, body);
    expect(await sql(ctx, q, [player])).toEqual(first);
    expect(await countRows(ctx.db, 'events', 'id = $1', [eventId])).toBe(1);
  });

  it('keeps the latest observation when batches of one player arrive concurrently and out of order', async () => {
    const player = uuid();
    const key = 'race:k';
    const eventId = uuid();
    const order = Array.from({ length: 24 }, (_, i) => i).sort(() => Math.random() - 0.5);
    const results = await Promise.all(
      order.map((i) =>
        postBatch(
          ctx,
          // An integration key: a client key's second new name within 30 days would wait for review (`rename`).
          fx.keys.integration!,
          modBatch({
            uuid: player,
            username: `Racer${i}`,
            observedAt: at(i),
            stats: [{ key, value: i }],
            events: [{ id: eventId, type: 'X', occurred_at: at(i), payload: { i } }],
          }),
        ),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(await storedValue(player, key)).toBe(23);
    expect(await countRows(ctx.db, 'events', 'id = $1', [eventId])).toBe(1);
    expect((await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}`)).json().username).toBe('Racer23');
  });

  it('stores an event once per (workspace, event id): the first write wins', async () => {
    const eventId = uuid();
    const player = uuid();
    const ev = (payload: object) => [{ id: eventId, type: 'ADVANCEMENT', occurred_at: at(0), payload }];
    await ingestOk(ctx, client, modBatch({ uuid: player, events: ev({ n: 1 }) }));
    await ingestOk(ctx, client, modBatch({ uuid: player, observedAt: at(60), events: ev({ n: 2 }) }));
    await ingestOk(ctx, client, modBatch({ uuid: uuid(), events: ev({ n: 3 }) }));
    expect(await sql(ctx, 'SELECT payload FROM events WHERE id = $1', [eventId])).toEqual([{ payload: { n: 1 } }]);
    // The same id upper-cased is the same event.
    await ingestOk(
      ctx,
      client,
      modBatch({ uuid: player, events: [{ ...ev({ n: 4 })[0]!, id: eventId.toUpperCase() }] }),
    );
    expect(await countRows(ctx.db, 'events', 'id = $1', [eventId])).toBe(1);
  });

  it('keeps the same event id apart in two workspaces', async () => {
    const other = await seedWorkspace(ctx.services, 'Events other');
    const eventId = uuid();
    const events = [{ id: eventId, type: 'X', occurred_at: at(0), payload: {} }];
    await ingestOk(ctx, client, modBatch({ uuid: uuid(), events }));
    await ingestOk(ctx, other.keys.client!, modBatch({ uuid: uuid(), events }));
    expect(await countRows(ctx.db, 'events', 'id = $1', [eventId])).toBe(2);
  });

  it('opens a session on SESSION_STARTED, keeps it on heartbeats without stats, closes it on SESSION_ENDED', async () => {
    const player = uuid();
    const session = uuid();
    const ev = (type: string) => [{ id: uuid(), type, occurred_at: at(0), payload: {} }];
    await ingestOk(
      ctx,
      client,
      modBatch({ uuid: player, sessionId: session, stats: [], events: ev('SESSION_STARTED') }),
    );
    expect(await onlineUuids()).toContain(player);
    const seen = async () =>
      (await sql(ctx, 'SELECT last_seen_at FROM game_sessions WHERE session_id = $1', [session]))[0]!
        .last_seen_at as Date;
    const first = await seen();
    await new Promise((r) => setTimeout(r, 15));
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: session, stats: [], events: [] }));
    expect(await onlineUuids()).toContain(player);
    expect((await seen()).getTime()).toBeGreaterThan(first.getTime());
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: session, stats: [], events: ev('SESSION_ENDED') }));
    expect(await onlineUuids()).not.toContain(player);
    // A later heartbeat for the ended session does not reopen it.
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: session, stats: [] }));
    expect(await onlineUuids()).not.toContain(player);
    // A new session does.
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: uuid(), stats: [] }));
    expect(await onlineUuids()).toContain(player);
  });

  it('opens a session on its first batch even without SESSION_STARTED', async () => {
    const player = uuid();
    await ingestOk(ctx, client, modBatch({ uuid: player, sessionId: uuid(), events: [] }));
    expect(await onlineUuids()).toContain(player);
  });

  it('creates players and statistic definitions on first sight, public and sorted descending', async () => {
    const player = uuid();
    const key = `first:${uuid()}`;
    const players = await countRows(ctx.db, 'players');
    const defs = await countRows(ctx.db, 'stat_definitions');
    await ingestOk(ctx, client, modBatch({ uuid: player, username: 'Newcomer', stats: [{ key, value: 1 }] }));
    expect(await countRows(ctx.db, 'players')).toBe(players + 1);
    expect(await countRows(ctx.db, 'stat_definitions')).toBe(defs + 1);
    expect(await sql(ctx, 'SELECT public, sort_order FROM stat_definitions WHERE key = $1', [key])).toEqual([
      { public: true, sort_order: 'desc' },
    ]);
    const res = await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uuid: player, username: 'Newcomer', public: true });
    // Seeing them again creates nothing.
    await ingestOk(ctx, client, modBatch({ uuid: player, username: 'Newcomer', stats: [{ key, value: 2 }] }));
    expect(await countRows(ctx.db, 'players')).toBe(players + 1);
    expect(await countRows(ctx.db, 'stat_definitions')).toBe(defs + 1);
  });

  it('renames a player to the username of the latest batch; a late batch does not rename back', async () => {
    const player = uuid();
    const name = async () => (await getJson(ctx, fx.keys.website!, `/api/v1/players/${player}`)).json().username;
    await ingestOk(ctx, client, modBatch({ uuid: player, username: 'Alex', observedAt: at(20) }));
    expect(await name()).toBe('Alex');
    await ingestOk(ctx, client, modBatch({ uuid: player, username: 'OldName', observedAt: at(10) }));
    expect(await name()).toBe('Alex');
    await ingestOk(ctx, client, modBatch({ uuid: player, username: 'Bob', observedAt: at(30) }));
    expect(await name()).toBe('Bob');
  });
});

describe('POST /api/v1/ingest/batch: HTTP layer', () => {
  it('refuses unparseable JSON with 400 BAD_REQUEST', async () => {
    for (const raw of ['{', '{"protocol_version":1,}', 'nope', "{'a':1}", '{"a":1}garbage']) {
      await refusedWithoutWrites(client, raw, 400, 'BAD_REQUEST');
    }
  });

  it('refuses an empty body with 400 BAD_REQUEST', async () => {
    await refusedWithoutWrites(client, '', 400, 'BAD_REQUEST');
  });

  it('refuses a wrong content type with 400 BAD_REQUEST', async () => {
    const body = JSON.stringify(modBatch({ uuid: uuid() }));
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      await refusedWithoutWrites(client, body, 400, 'BAD_REQUEST', { 'content-type': type });
    }
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await postBatch(ctx, client, modBatch({ uuid: uuid() }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const body = { ...modBatch({ uuid: uuid() }), padding: 'p'.repeat(1024 * 1024) };
    await refusedWithoutWrites(client, body, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a valid body just under 1 MiB', async () => {
    const base = JSON.stringify({ ...modBatch({ uuid: uuid() }), padding: '' });
    const body = { ...modBatch({ uuid: uuid() }), padding: 'p'.repeat(1024 * 1024 - base.length - 64) };
    const res = await postBatch(ctx, client, body);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  });

  it('echoes a client X-Request-ID of 1–128 printable ASCII characters, in the header and the body', async () => {
    for (const id of ['a', 'req-123', 'A b~!', 'x'.repeat(128), '7f3c2a10-0000-4000-8000-000000000000']) {
      const res = await postBatch(ctx, client, modBatch({ uuid: uuid() }), { 'x-request-id': id });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.json().request_id).toBe(id);
    }
  });

  it('replaces an X-Request-ID that is too long, not printable ASCII, or holds quotes, angle brackets, a backslash or a backtick with a new UUID', async () => {
    for (const id of ['x'.repeat(129), 'h\u00e9llo', '\u00ff', '<script>', '"x"', "a'b", 'a\\b', 'a`b']) {
      const res = await postBatch(ctx, client, modBatch({ uuid: uuid() }), { 'x-request-id': id });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toMatch(UUID_RE);
      expect(res.json().request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('gives each request its own new id when none is sent', async () => {
    const a = await postBatch(ctx, client, modBatch({ uuid: uuid() }));
    const b = await postBatch(ctx, client, modBatch({ uuid: uuid() }));
    expect(a.headers['x-request-id']).toMatch(UUID_RE);
    expect(b.headers['x-request-id']).toMatch(UUID_RE);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('puts the echoed X-Request-ID into error bodies too', async () => {
    const res = await postBatch(ctx, 'nope', modBatch(), { 'x-request-id': 'trace-401' });
    expect(expectError(res, 401, 'INVALID_API_KEY').error.request_id).toBe('trace-401');
    const bad = await postBatch(ctx, client, '{', { 'x-request-id': 'trace-400' });
    expect(expectError(bad, 400, 'BAD_REQUEST').error.request_id).toBe('trace-400');
  });
});

describe('POST /api/v1/ingest/batch: order of checks', () => {
  // key 401 → scope 403 → JSON 400 → size 413 → schema 422 → player 403 → server 404 → server 403
  // → season 404 → season 403 → 200. Each case breaks two adjacent rules at once: the earlier one must win.
  const big = () => ({ ...modBatch({ uuid: uuid() }), padding: 'p'.repeat(1024 * 1024 + 10) });

  it('401 before 403: a revoked key without ingest:write is 401', async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'r',
      type: 'website',
      scopes: ['players:read'],
    });
    await ctx.services.keys.revoke(ACTOR, fx.workspaceId, k.data.id);
    await refusedWithoutWrites(k.secret, modBatch(), 401, 'INVALID_API_KEY');
  });

  it('401 before everything the body could fail', async () => {
    await refusedWithoutWrites('stb_client_bad', '{', 401, 'INVALID_API_KEY');
    await refusedWithoutWrites('stb_client_bad', big(), 401, 'INVALID_API_KEY');
    await refusedWithoutWrites('stb_client_bad', modBatch(), 401, 'INVALID_API_KEY', { 'content-type': 'text/plain' });
  });

  it('403 INSUFFICIENT_SCOPE before 400: a read-only key with unparseable JSON', async () => {
    await refusedWithoutWrites(fx.keys.website!, '{', 403, 'INSUFFICIENT_SCOPE');
    await refusedWithoutWrites(fx.keys.website!, modBatch(), 403, 'INSUFFICIENT_SCOPE', {
      'content-type': 'text/plain',
    });
    await refusedWithoutWrites(fx.keys.website!, big(), 403, 'INSUFFICIENT_SCOPE');
  });

  it('400 before 413: a wrong content type with a body over 1 MiB', async () => {
    await refusedWithoutWrites(client, JSON.stringify(big()), 400, 'BAD_REQUEST', { 'content-type': 'text/plain' });
  });

  it('413 before 422: a schema-invalid body over 1 MiB', async () => {
    await refusedWithoutWrites(client, { ...big(), protocol_version: 99, player: null }, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('422 before the player restriction 403', async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'p',
      type: 'client',
      scopes: ['ingest:write'],
      player_restrictions: [uuid()],
    });
    await refusedWithoutWrites(
      k.secret,
      { ...modBatch({ uuid: uuid() }), season: 'x'.repeat(256) },
      422,
      'INVALID_PAYLOAD',
    );
    await refusedWithoutWrites(k.secret, modBatch({ uuid: uuid(), observedAt: 'now' }), 422, 'INVALID_PAYLOAD');
  });

  it('player restriction 403 before the unknown server 404', async () => {
    const allowed = uuid();
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'p',
      type: 'client',
      scopes: ['ingest:write'],
      player_restrictions: [allowed],
    });
    await refusedWithoutWrites(k.secret, modBatch({ uuid: uuid(), hostname: 'unknown.example.com' }), 403, 'FORBIDDEN');
    // The allowed player (in any case) passes.
    await ingestOk(ctx, k.secret, modBatch({ uuid: allowed.toUpperCase() }));
  });

  it('unknown, disabled or wrong-port server is 404, and 404 wins over the server restriction 403', async () => {
    const k = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 's',
      type: 'client',
      scopes: ['ingest:write'],
      server_restrictions: [fx.serverId],
    });
    await ctx.services.servers.create(ACTOR, fx.workspaceId, {
      name: 'Off',
      hostname: 'off.example.com',
      port: 25565,
      enabled: false,
    });
    for (const [hostname, port] of [
      ['unknown.example.com', 25565],
      ['off.example.com', 25565],
      ['mc.example.com', 25566],
      ['example.com', 25565],
    ] as const) {
      await refusedWithoutWrites(k.secret, modBatch({ uuid: uuid(), hostname, port }), 404, 'NOT_FOUND');
      await refusedWithoutWrites(client, modBatch({ uuid: uuid(), hostname, port }), 404, 'NOT_FOUND');
    }
  });

  it('server restriction 403 before the missing active season 404', async () => {
    const s = ctx.services;
    const ws = await s.workspaces.create(ACTOR, { name: 'No season' });
    const a = await s.servers.create(ACTOR, ws.id, { name: 'A', hostname: 'a.example.com', port: 25565 });
    await s.servers.create(ACTOR, ws.id, { name: 'B', hostname: 'b.example.com', port: 25565 });
    const restricted = await s.seasons.create(ACTOR, ws.id, { name: 'R', slug: 'r' });
    const open = await s.seasons.create(ACTOR, ws.id, { name: 'O', slug: 'o' });
    const k = await s.keys.create(ACTOR, ws.id, {
      name: 'c',
      type: 'client',
      scopes: ['ingest:write'],
      server_restrictions: [a.id],
      season_restrictions: [restricted.id],
    });
    const batch = (hostname: string) => modBatch({ uuid: uuid(), hostname });
    // Server outside the restriction, and no active season: 403.
    await refusedWithoutWrites(k.secret, batch('b.example.com'), 403, 'FORBIDDEN');
    // Allowed server, no active season: 404 (before the season restriction 403).
    await refusedWithoutWrites(k.secret, batch('a.example.com'), 404, 'NOT_FOUND');
    // Active season outside the restriction: 403.
    await s.seasons.activate(ACTOR, ws.id, open.id);
    await refusedWithoutWrites(k.secret, batch('a.example.com'), 403, 'FORBIDDEN');
    // Everything allowed: 200.
    await s.seasons.activate(ACTOR, ws.id, restricted.slug);
    await ingestOk(ctx, k.secret, batch('A.Example.Com.'));
  });
});
