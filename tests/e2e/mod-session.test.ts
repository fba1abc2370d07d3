import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, type Env, makeEnv, type Service, startService, TEST_DATABASE_URL } from './process.ts';

/** POSTs like the mod's Java HttpClient: HTTP/1.1 with an h2c upgrade offer, no X-Request-ID. */
function modPost(
  url: string,
  token: string,
  body: unknown,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/v1/ingest/batch`,
      {
        method: 'POST',
        headers: {
          Connection: 'Upgrade, HTTP2-Settings',
          Upgrade: 'h2c',
          'HTTP2-Settings': 'AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA',
          'User-Agent': 'Java-http-client/21.0.5',
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Content-Length': payload.length,
        },
      },
      (res) => {
        let data = '';
        res.on('data', (d) => {
          data += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function getJson(url: string, token: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const PLAYER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const SESSION = randomUUID();
/** Java's Instant.toString(): microsecond fractions and Z. */
const instant = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace('Z', '456Z');
/** A first session sends the game's own statistics, hundreds of them: blocks mined and the general ones. */
const GAME = JSON.parse(
  readFileSync(new URL('../../apps/statboard/src/modules/stats/game-catalog.json', import.meta.url), 'utf8'),
) as { custom: Record<string, string>; blocks: Record<string, string> };
const GAME_KEYS = [
  ...Object.keys(GAME.custom).map((id) => `minecraft.custom:minecraft.${id}`),
  ...Object.keys(GAME.blocks).map((id) => `minecraft.mined:minecraft.${id}`),
];
const ALL_STATS = GAME_KEYS.slice(0, 250).map((key, i) => ({ key, value: i === 0 ? 0 : i * 3 }));

function batch(stats: { key: string; value: number }[], events: object[] = [], observedAt = instant()) {
  return {
    protocol_version: 1,
    client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
    player: { uuid: PLAYER, username: 'Alex' },
    server: { hostname: 'MC.Example.com', port: 25565 },
    session_id: SESSION,
    observed_at: observedAt,
    stats,
    events,
  };
}

describe(`a real mod session against \`npm start\` (${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let env: Env;
  let service: Service;
  let clientKey: string;
  let websiteKey: string;

  beforeAll(async () => {
    env = await makeEnv();
    const run = async (args: string[]) => {
      const r = await cli([...args, '--json'], env.vars);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { data: { id: string }; secret?: string };
    };
    await run(['workspace', 'create', '--name', 'Survival', '--slug', 'survival']);
    await run(['server', 'create', '--workspace', 'survival', '--hostname', 'mc.example.com', '--port', '25565']);
    await run(['season', 'create', '--workspace', 'survival', '--name', 'Season 1', '--slug', 's1', '--activate']);
    clientKey = (
      await run([
        'key',
        'create',
        '--workspace',
        'survival',
        '--name',
        'mod',
        '--type',
        'client',
        '--scopes',
        'ingest:write',
      ])
    ).secret!;
    websiteKey = (
      await run([
        'key',
        'create',
        '--workspace',
        'survival',
        '--name',
        'site',
        '--type',
        'website',
        '--scopes',
        'players:read,stats:read,leaderboards:read,presence:read',
      ])
    ).secret!;
    service = await startService(env.vars);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  it('accepts the first batch of every stat in 100-stat chunks with SESSION_STARTED in the first', async () => {
    const started = { id: randomUUID(), type: 'SESSION_STARTED', occurred_at: instant(), payload: {} };
    const chunks = [ALL_STATS.slice(0, 100), ALL_STATS.slice(100, 200), ALL_STATS.slice(200)];
    for (const [i, chunk] of chunks.entries()) {
      const res = await modPost(service.url, clientKey, batch(chunk, i === 0 ? [started] : []));
      expect(res.status, res.body).toBe(200);
      const body = JSON.parse(res.body);
      expect(body).toMatchObject({ accepted: true, next_upload_after: 60 });
      expect(res.headers['x-request-id']).toBe(body.request_id);
    }
    const stats = await getJson(`${service.url}/api/v1/players/${PLAYER}/stats`, websiteKey);
    expect(stats.status).toBe(200);
    expect((stats.json.stats as unknown[]).length).toBe(250);
    const online = await getJson(`${service.url}/api/v1/online`, websiteKey);
    expect((online.json.data as { player: { uuid: string } }[]).map((e) => e.player.uuid)).toEqual([PLAYER]);
  });

  it('applies changed stats from interval batches, keeps heartbeats without stats, and ignores a late retry', async () => {
    const late = batch([{ key: 'minecraft.custom:minecraft.stat_1', value: 1 }], [], instant(-60_000));
    const res1 = await modPost(
      service.url,
      clientKey,
      batch([{ key: 'minecraft.custom:minecraft.stat_1', value: 500 }]),
    );
    expect(res1.status).toBe(200);
    expect((await modPost(service.url, clientKey, batch([]))).status).toBe(200);
    expect((await modPost(service.url, clientKey, late)).status).toBe(200);
    const lb = await getJson(
      `${service.url}/api/v1/leaderboards?season=s1&stat=minecraft.custom:minecraft.stat_1`,
      websiteKey,
    );
    expect(lb.status).toBe(200);
    expect(lb.json.entries).toMatchObject([{ rank: 1, value: 500, player: { uuid: PLAYER, username: 'Alex' } }]);
  });

  it('refuses a batch for an unregistered server with 404 and keeps the error shape', async () => {
    const res = await modPost(service.url, clientKey, {
      ...batch([]),
      server: { hostname: 'other.example.com', port: 25565 },
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('closes the session on SESSION_ENDED in an empty batch', async () => {
    const ended = { id: randomUUID(), type: 'SESSION_ENDED', occurred_at: instant(), payload: {} };
    expect((await modPost(service.url, clientKey, batch([], [ended]))).status).toBe(200);
    // The mod retries on a lost answer: the same batch again is a no-op.
    expect((await modPost(service.url, clientKey, batch([], [ended]))).status).toBe(200);
    const online = await getJson(`${service.url}/api/v1/online`, websiteKey);
    expect(online.json.data).toEqual([]);
  });

  it.skipIf(TEST_DATABASE_URL !== null)(
    'the CLI refuses clearly while the service holds the embedded database',
    async () => {
      const r = await cli(['workspace', 'list', '--json'], env.vars);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout).error.code).toBe('DATABASE_BUSY');
      expect(r.stderr).toMatch(/in use by process \d+/);
    },
  );

  it.skipIf(TEST_DATABASE_URL === null)('the CLI works beside the running service on PostgreSQL', async () => {
    const r = await cli(['workspace', 'list', '--json'], env.vars);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toHaveLength(1);
  });

  it('stops with exit code 0 on SIGTERM and keeps every acknowledged batch across a restart', async () => {
    expect(await service.stop()).toBe(0);
    service = await startService(env.vars);
    const stats = await getJson(`${service.url}/api/v1/players/${PLAYER}/stats?season=s1`, websiteKey);
    expect(stats.status).toBe(200);
    expect((stats.json.stats as unknown[]).length).toBe(ALL_STATS.length + 1); // and the interval test's statistic
  }, 90_000);
});
