import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as cli } from '#src/cli.ts';
import { buildTeam, PLAYER_UUID, STAT_KEY, type Team } from './support/team.ts';
import { createWorld, type World } from './support/world.ts';

// Every change is one service operation that writes its own audit record. The same change made through the
// CLI and through the admin API must leave the same record (action, target, before, after; the actor and the
// request id aside). Each door works on a world of its own, built the same way; generated ids and times are
// compared by their shape.

interface Change {
  name: string;
  cli(t: Team): string[];
  http(t: Team): { method: 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown };
}

const keyIdOf = (token: string) => token.split('_')[2]!;

const CHANGES: Change[] = [
  {
    name: 'server create',
    cli: (t) => [
      'server',
      'create',
      '--workspace',
      t.workspaceId,
      '--hostname',
      'Lobby.Example.com.',
      '--port',
      '25566',
      '--name',
      'Lobby',
      '--display-name',
      'The lobby',
    ],
    http: () => ({
      method: 'POST',
      url: '/api/v1/admin/servers',
      body: { hostname: 'Lobby.Example.com.', port: 25566, name: 'Lobby', display_name: 'The lobby' },
    }),
  },
  {
    name: 'server update',
    cli: (t) => [
      'server',
      'update',
      '--workspace',
      t.workspaceId,
      '--server',
      t.serverId,
      '--hostname',
      'mc.example.com',
      '--port',
      '25565',
      '--name',
      'Main 2',
      '--disabled',
    ],
    http: (t) => ({
      method: 'PUT',
      url: `/api/v1/admin/servers/${t.serverId}`,
      body: { hostname: 'mc.example.com', port: 25565, name: 'Main 2', enabled: false },
    }),
  },
  {
    name: 'season create (activating it)',
    cli: (t) => [
      'season',
      'create',
      '--workspace',
      t.workspaceId,
      '--name',
      'Season 2',
      '--slug',
      's2',
      '--activate',
      '--started-at',
      '2026-01-01T00:00:00Z',
    ],
    http: () => ({
      method: 'POST',
      url: '/api/v1/admin/seasons',
      body: { name: 'Season 2', slug: 's2', active: true, started_at: '2026-01-01T00:00:00Z' },
    }),
  },
  {
    name: 'season update',
    cli: (t) => [
      'season',
      'update',
      '--workspace',
      t.workspaceId,
      '--season',
      's1',
      '--scoring',
      'gains',
      '--ended-at',
      '2099-01-01T00:00:00Z',
    ],
    http: () => ({
      method: 'PUT',
      url: '/api/v1/admin/seasons/s1',
      body: { scoring: 'gains', ended_at: '2099-01-01T00:00:00Z' },
    }),
  },
  {
    name: 'season activate',
    cli: (t) => ['season', 'activate', '--workspace', t.workspaceId, '--season', 's1'],
    http: () => ({ method: 'POST', url: '/api/v1/admin/seasons/s1/activate' }),
  },
  {
    name: 'key create',
    cli: (t) => [
      'key',
      'create',
      '--workspace',
      t.workspaceId,
      '--name',
      'Site',
      '--type',
      'website',
      '--scopes',
      'players:read,stats:read',
      '--players',
      PLAYER_UUID,
      '--seasons',
      t.seasonId,
      '--expires-at',
      '2030-01-01T00:00:00Z',
      '--description',
      'for the site',
    ],
    http: (t) => ({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      body: {
        name: 'Site',
        type: 'website',
        scopes: ['players:read', 'stats:read'],
        player_restrictions: [PLAYER_UUID],
        season_restrictions: [t.seasonId],
        expires_at: '2030-01-01T00:00:00Z',
        description: 'for the site',
      },
    }),
  },
  {
    name: 'key update',
    cli: (t) => [
      'key',
      'update',
      '--workspace',
      t.workspaceId,
      '--key',
      keyIdOf(t.websiteToken),
      '--name',
      'Site 2',
      '--scopes',
      'players:read,leaderboards:read',
    ],
    http: (t) => ({
      method: 'PUT',
      url: `/api/v1/admin/api-keys/${keyIdOf(t.websiteToken)}`,
      body: { name: 'Site 2', scopes: ['players:read', 'leaderboards:read'] },
    }),
  },
  {
    name: 'key rotate',
    cli: (t) => ['key', 'rotate', '--workspace', t.workspaceId, '--key', t.clientKeyId, '--grace-seconds', '60'],
    http: (t) => ({
      method: 'POST',
      url: `/api/v1/admin/api-keys/${t.clientKeyId}/rotate`,
      body: { grace_seconds: 60 },
    }),
  },
  {
    name: 'key revoke',
    cli: (t) => ['key', 'revoke', '--workspace', t.workspaceId, '--key', keyIdOf(t.websiteToken)],
    http: (t) => ({ method: 'POST', url: `/api/v1/admin/api-keys/${keyIdOf(t.websiteToken)}/revoke` }),
  },
  {
    name: 'player update',
    cli: (t) => ['player', 'update', '--workspace', t.workspaceId, '--player', PLAYER_UUID, '--public', 'false'],
    http: () => ({ method: 'PUT', url: `/api/v1/admin/players/${PLAYER_UUID}`, body: { public: false } }),
  },
  {
    name: 'stat update',
    cli: (t) => [
      'stat',
      'update',
      '--workspace',
      t.workspaceId,
      '--stat',
      STAT_KEY,
      '--display-name',
      'Stone',
      '--sort-order',
      'asc',
      '--unit',
      'cm',
    ],
    http: () => ({
      method: 'PUT',
      url: `/api/v1/admin/stats/${encodeURIComponent(STAT_KEY)}`,
      body: { display_name: 'Stone', sort_order: 'asc', unit: 'cm' },
    }),
  },
  {
    name: 'stat set',
    cli: (t) => ['stat', 'set', '--workspace', t.workspaceId, '--stat', STAT_KEY, '--max-per-hour', '1000'],
    http: () => ({
      method: 'PUT',
      url: `/api/v1/admin/stats/${encodeURIComponent(STAT_KEY)}`,
      body: { max_per_hour: 1000 },
    }),
  },
  {
    name: 'stat set (no limit)',
    cli: (t) => ['stat', 'set', '--workspace', t.workspaceId, '--stat', STAT_KEY, '--max-per-hour', 'none'],
    http: () => ({
      method: 'PUT',
      url: `/api/v1/admin/stats/${encodeURIComponent(STAT_KEY)}`,
      body: { max_per_hour: null },
    }),
  },
  // Last: the player is gone afterwards.
  {
    name: 'player erase --block',
    cli: (t) => ['player', 'erase', '--workspace', t.workspaceId, '--player', PLAYER_UUID, '--block'],
    http: () => ({ method: 'DELETE', url: `/api/v1/admin/players/${PLAYER_UUID}?block=true` }),
  },
  {
    name: 'player unblock',
    cli: (t) => ['player', 'unblock', '--workspace', t.workspaceId, '--player', PLAYER_UUID],
    http: () => ({ method: 'DELETE', url: `/api/v1/admin/players/${PLAYER_UUID}/block` }),
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const FIXED_TIMES = new Set(['2026-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z']);

/** Ids and times generated while the test ran, by their shape; the rest as it is. */
function shape(value: unknown): unknown {
  if (typeof value === 'string') {
    if (UUID.test(value)) return '<uuid>';
    if (TIME.test(value) && !FIXED_TIMES.has(value)) return '<time>';
    if (value.startsWith('stb_')) return '<prefix>';
    return value;
  }
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  }
  return value;
}

interface Door {
  world: World;
  team: Team;
}

async function auditSince(d: Door, count: number) {
  const rows = await d.world.db.db.query<Record<string, unknown>>(
    `SELECT action, target_type, target_id, before, after, actor_user_id, actor_label, request_id
     FROM audit_log WHERE workspace_id = $1 ORDER BY created_at, id OFFSET $2`,
    [d.team.workspaceId, count],
  );
  return rows;
}

describe('one door: a change leaves the same audit record through the CLI and through HTTP', () => {
  let viaCli: Door;
  let viaHttp: Door;

  beforeAll(async () => {
    const a = await createWorld();
    const b = await createWorld();
    viaCli = { world: a, team: await buildTeam(a) };
    viaHttp = { world: b, team: await buildTeam(b) };
  });
  afterAll(async () => {
    await viaCli?.world.close();
    await viaHttp?.world.close();
  });

  for (const change of CHANGES) {
    it(change.name, async () => {
      const [cliBefore] = await viaCli.world.db.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = $1',
        [viaCli.team.workspaceId],
      );
      const [httpBefore] = await viaHttp.world.db.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = $1',
        [viaHttp.team.workspaceId],
      );
      expect(await cli([...change.cli(viaCli.team), '--json'], viaCli.world.services)).toBe(0);
      const req = change.http(viaHttp.team);
      const res = await viaHttp.team.browsers.owner.app(
        req.method,
        req.url,
        req.body === undefined ? {} : { body: req.body },
      );
      expect(res.statusCode, res.body).toBeLessThan(300);

      const fromCli = await auditSince(viaCli, cliBefore!.n);
      const fromHttp = await auditSince(viaHttp, httpBefore!.n);
      expect(fromCli).toHaveLength(1);
      expect(fromHttp).toHaveLength(1);
      // The actors differ: the CLI's label, the signed-in owner with the request's id.
      expect(fromCli[0]).toMatchObject({ actor_user_id: null, actor_label: 'cli', request_id: null });
      expect(fromHttp[0]).toMatchObject({ actor_user_id: viaHttp.team.userIds.owner, actor_label: null });
      expect(fromHttp[0]!.request_id).toEqual(res.headers['x-request-id']);
      const facts = (r: Record<string, unknown>) =>
        shape({
          action: r.action,
          target_type: r.target_type,
          target_id: r.target_id,
          before: r.before,
          after: r.after,
        });
      expect(facts(fromCli[0]!)).toEqual(facts(fromHttp[0]!));
    });
  }
});
