import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startService, TEST_DATABASE_URL } from './process.ts';

/** `npx statboard backup|restore` on the embedded database, as an operator runs them. */
describe.skipIf(TEST_DATABASE_URL !== null)('backup and restore of the embedded database', () => {
  let dir: string;
  let vars: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'statboard-backup-'));
    vars = { DATA_DIR: join(dir, 'data') };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const names = async () =>
    (JSON.parse((await cli(['workspace', 'list', '--json'], vars)).stdout) as { data: { slug: string }[] }).data.map(
      (w) => w.slug,
    );

  it('backs up, refuses to restore over a database with workspaces without --force, and restores with it', async () => {
    expect((await cli(['workspace', 'create', '--name', 'Before'], vars)).code).toBe(0);
    const file = join(dir, 'backups', 'statboard.tar.gz');
    const backup = await cli(['backup', '--out', file, '--json'], vars);
    expect(backup.code, backup.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect((await cli(['workspace', 'create', '--name', 'After'], vars)).code).toBe(0);
    expect(await names()).toEqual(['before', 'after']);

    const refused = await cli(['restore', '--from', file], vars);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/--force/);
    const restored = await cli(['restore', '--from', file, '--force', '--json'], vars);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await names()).toEqual(['before']);
    // The replaced database is kept beside the restored one.
    expect((await readdir(vars.DATA_DIR!)).some((f) => f.startsWith('pglite.replaced-'))).toBe(true);
  }, 120_000);

  it('refuses a file that is not a backup, and leaves the database as it was', async () => {
    const bad = await cli(['restore', '--from', join(dir, 'nope.tar.gz'), '--force'], vars);
    expect(bad.code).toBe(4);
    expect(await names()).toEqual(['before']);
  }, 60_000);

  it('refuses while the service holds the database (exit 3), and with DATABASE_URL (exit 2)', async () => {
    const service = await startService(vars);
    try {
      expect((await cli(['backup', '--out', join(dir, 'busy.tar.gz')], vars)).code).toBe(3);
    } finally {
      await service.stop();
    }
    const pg = await cli(['backup', '--out', join(dir, 'x.tar.gz')], {
      ...vars,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    expect(pg.code).toBe(2);
    expect(pg.stderr).toMatch(/pg_dump/);
  }, 120_000);
});
