import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '#src/db/migrate.ts';
import { openPg } from '#src/db/pg.ts';
import { buildServices } from '#src/services.ts';
import { ACTOR, createTestDb, TEST_DATABASE_URL, testConfig } from '../helpers.ts';

const hasTools =
  spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

/** The backup recipe of docs/production.md for a PostgreSQL server, run as it stands. */
describe.skipIf(TEST_DATABASE_URL === null || !hasTools)('pg_dump and pg_restore (docs/production.md)', () => {
  it('restores a dump into an empty database that the service then reads and migrates', async () => {
    const source = await createTestDb();
    const dir = mkdtempSync(join(tmpdir(), 'statboard-pgdump-'));
    const target = `statboard_restored_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL! });
    await admin.connect();
    try {
      const services = buildServices(source.db, testConfig());
      const ws = await services.workspaces.create(ACTOR, { name: 'Dumped' });
      await services.seasons.create(ACTOR, ws.id, { name: 'S', slug: 's1', active: true });
      const file = join(dir, 'statboard.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${file}`, source.url!]);
      await admin.query(`CREATE DATABASE ${target}`);
      const url = new URL(TEST_DATABASE_URL!);
      url.pathname = `/${target}`;
      execFileSync('pg_restore', ['--no-owner', `--dbname=${url.toString()}`, file]);
      const restored = openPg(url.toString(), { poolSize: 2 });
      try {
        expect((await migrate(restored)).applied).toEqual([]);
        const again = buildServices(restored, testConfig());
        expect((await again.workspaces.list()).map((w) => w.slug)).toEqual(['dumped']);
        expect((await again.seasons.list(ws.id)).map((s) => s.slug)).toEqual(['s1']);
        // The audit log came along, and stays append-only.
        await expect(restored.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      } finally {
        await restored.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
      await admin.end();
      await source.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
