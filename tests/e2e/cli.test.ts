import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../apps/statboard/src/db/open.ts';
import { cli, type Env, makeEnv, TEST_DATABASE_URL } from './process.ts';

/** Runs a CLI command with --json; stdout must be exactly one JSON document. */
async function json(
  env: Env,
  args: string[],
): Promise<{ code: number; body: Record<string, unknown>; stderr: string }> {
  const r = await cli([...args, '--json'], env.vars);
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
  return { code: r.code, body: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

// Each command is a process of its own that opens the database (2 s of CPU on the embedded one): a test of seven
// commands takes 15 s on an idle 2-core machine, and more beside the other test files.
describe(`npx statboard (${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, { timeout: 120_000 }, () => {
  let env: Env;
  beforeAll(async () => {
    env = await makeEnv();
  });
  afterAll(() => env?.cleanup());

  let serverId = '';
  let keyId = '';
  let secret = '';

  it('migrates, then has nothing left to migrate', async () => {
    const first = await json(env, ['migrate']);
    expect(first.code).toBe(0);
    expect((first.body.data as { applied: string[] }).applied.length).toBeGreaterThan(0);
    const again = await json(env, ['migrate']);
    expect(again.body).toEqual({ data: { applied: [] } });
  });

  it('creates a workspace, a server, a season and keys with the documented JSON', async () => {
    const ws = await json(env, ['workspace', 'create', '--name', 'Creative Realm']);
    expect(ws.code).toBe(0);
    expect(ws.body.data).toEqual({ id: expect.any(String), name: 'Creative Realm', slug: 'creative-realm' });

    const server = await json(env, [
      'server',
      'create',
      '--workspace',
      'creative-realm',
      '--hostname',
      'Play.Example.org.',
      '--port',
      '25565',
      '--disabled',
    ]);
    expect(server.code).toBe(0);
    expect(server.body.data).toMatchObject({ hostname: 'play.example.org', port: 25565, enabled: false });
    serverId = (server.body.data as { id: string }).id;

    const season = await json(env, [
      'season',
      'create',
      '--workspace',
      'creative-realm',
      '--name',
      'Spring',
      '--slug',
      'spring',
    ]);
    expect(season.body.data).toMatchObject({ slug: 'spring', active: false });
    const activated = await json(env, ['season', 'activate', '--workspace', 'creative-realm', '--season', 'spring']);
    expect(activated.body.data).toMatchObject({ slug: 'spring', active: true, started_at: expect.any(String) });

    const key = await json(env, [
      'key',
      'create',
      '--workspace',
      'creative-realm',
      '--name',
      'mod',
      '--type',
      'client',
      '--scopes',
      'ingest:write',
      '--servers',
      serverId,
      '--players',
      '7C9E6679-7425-40DE-944B-E07FC1F90AE7',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    ]);
    expect(key.code, key.stderr).toBe(0);
    const data = key.body.data as Record<string, unknown>;
    keyId = data.id as string;
    secret = key.body.secret as string;
    expect(secret).toMatch(new RegExp(`^stb_client_${keyId}_[A-Za-z0-9_-]{43}$`));
    expect(data).toMatchObject({
      type: 'client',
      status: 'active',
      prefix: `stb_client_${keyId.slice(0, 8)}`,
      scopes: ['ingest:write'],
      server_restrictions: [serverId],
      player_restrictions: ['7c9e6679-7425-40de-944b-e07fc1f90ae7'],
      expires_at: '2099-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(data)).not.toContain(secret.split('_').slice(3).join('_'));
  });

  it('revokes a key and never prints a secret in listings', async () => {
    const revoked = await json(env, ['key', 'revoke', '--workspace', 'creative-realm', '--key', keyId]);
    expect(revoked.code).toBe(0);
    expect(revoked.body.data).toMatchObject({ id: keyId, status: 'revoked', revoked_at: expect.any(String) });
    const r = await cli(['key', 'list', '--workspace', 'creative-realm', '--json'], env.vars);
    expect(r.stdout).not.toContain(secret.slice(-20));
  });

  it('prints a single-use bootstrap token with an expiry (default 60 minutes)', async () => {
    const t = await json(env, ['bootstrap-token', '--ttl-minutes', '5']);
    expect(t.body.token).toMatch(/^stb_bootstrap_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
    const minutes = (Date.parse(t.body.expires_at as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    const d = await json(env, ['bootstrap-token']);
    expect((Date.parse(d.body.expires_at as string) - Date.now()) / 60_000).toBeGreaterThan(59);
  });

  it.each([
    [
      ['key', 'create', '--workspace', 'creative-realm', '--name', 'x', '--type', 'client', '--scopes', 'stats:read'],
      2,
      'INVALID_PAYLOAD',
    ],
    [['server', 'list', '--workspace', 'nope'], 4, 'NOT_FOUND'],
    [['season', 'create', '--workspace', 'creative-realm', '--name', 'Again', '--slug', 'spring'], 5, 'CONFLICT'],
    [
      ['season', 'create', '--workspace', 'creative-realm', '--name', 'Bad', '--slug', 'Bad Slug'],
      2,
      'INVALID_PAYLOAD',
    ],
    [['server', 'create', '--workspace', 'creative-realm', '--hostname', 'x'], 2, 'USAGE'],
    [['key', 'explode'], 2, 'USAGE'],
    [['workspace', 'create', '--name', 'x', '--bogus'], 2, 'USAGE'],
  ])('fails %j with exit %i and {error: {code: %s}} on stdout', async (args, exit, code) => {
    const r = await json(env, args);
    expect(r.code).toBe(exit);
    expect((r.body.error as { code: string }).code).toBe(code);
    expect(r.stderr).toMatch(/^error: .+\n$/);
  });

  it('prints an error as one line on stderr, naming the option of a 422, and nothing on stdout', async () => {
    const cases: [string[], number, string][] = [
      [
        ['season', 'create', '--workspace', 'creative-realm', '--name', 'Bad', '--slug', 'Bad Slug'],
        2,
        'error: --slug: must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$"',
      ],
      [
        ['server', 'create', '--workspace', 'creative-realm', '--hostname', 'x', '--port', '70000'],
        2,
        'error: --port: must be <= 65535',
      ],
      [
        ['import', '--workspace', 'creative-realm', '--season', 'spring', '--world', '/nonexistent/world'],
        2,
        'error: --world: cannot read /nonexistent/world/stats: no such folder (must be a world folder with a stats/ folder)',
      ],
      [['server', 'list', '--workspace', 'nope'], 4, "error: Workspace 'nope' not found."],
      [
        ['server', 'create', '--workspace', 'creative-realm', '--hostname', 'x'],
        2,
        'error: --port is required (see `statboard server create --help`)',
      ],
    ];
    for (const [args, exit, line] of cases) {
      const r = await cli(args, env.vars);
      expect(r.code, args.join(' ')).toBe(exit);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${line}\n`);
    }
    const config = await cli(['workspace', 'list'], { ...env.vars, PORT: 'abc' });
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/^error: invalid configuration: PORT must be an integer[^\n]*\n$/);
  });

  it('bootstrap-token --workspace says where to paste the token, and what it gives', async () => {
    const r = await cli(['bootstrap-token', '--workspace', 'creative-realm'], env.vars);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Bootstrap token for Creative Realm \(creative-realm\), single use, expires /);
    expect(lines[1]).toMatch(/^stb_bootstrap_\S+$/);
    expect(lines[2]).toBe(
      'Open http://127.0.0.1:8080/setup in a browser, sign in, and paste it to become owner of Creative Realm.',
    );
  });

  it('audits every change it made, with the CLI as actor and no secret', async () => {
    const db = await openDatabase({
      databaseUrl: env.vars.DATABASE_URL ?? null,
      dataDir: env.dataDir,
      databasePoolSize: 1,
    });
    try {
      const rows = await db.query<{ action: string; actor_label: string; before: unknown; after: unknown }>(
        'SELECT action, actor_label, before, after FROM audit_log ORDER BY created_at, id',
      );
      expect(rows.map((r) => r.action)).toEqual([
        'WORKSPACE_CREATED',
        'SERVER_CREATED',
        'SEASON_CREATED',
        'SEASON_ACTIVATED',
        'API_KEY_CREATED',
        'API_KEY_REVOKED',
        'BOOTSTRAP_TOKEN_CREATED',
        'BOOTSTRAP_TOKEN_CREATED',
        'BOOTSTRAP_TOKEN_CREATED',
      ]);
      expect(rows.every((r) => r.actor_label === 'cli')).toBe(true);
      const text = JSON.stringify(rows);
      expect(text).not.toContain(secret.split('_').slice(3).join('_'));
      expect(text).not.toMatch(/stb_bootstrap_/);
    } finally {
      await db.close();
    }
  });
});
