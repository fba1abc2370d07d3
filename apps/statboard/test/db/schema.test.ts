import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSchema } from '#src/db/describe-schema.ts';
import { migrate } from '#src/db/migrate.ts';
import { createTestDb, DB_KIND, type TestDb } from '../helpers.ts';

const SCHEMA_FILE = fileURLToPath(new URL('../../src/db/schema.sql', import.meta.url));
const REGENERATE =
  'The migrated schema differs from src/db/schema.sql. If the change is intended (a new migration), regenerate ' +
  'the file with `npm run schema:dump -w statboard` and commit it with the migration.';

describe(`migrated schema (${DB_KIND})`, () => {
  let tdb: TestDb;
  beforeAll(async () => {
    tdb = await createTestDb();
  }, 60_000);
  afterAll(async () => {
    await tdb?.drop();
  });

  it('equals the committed schema.sql dump', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    expect(await describeSchema(tdb.db), REGENERATE).toBe(committed);
  });

  it('is unchanged when the migrations run a second time', async () => {
    const before = await describeSchema(tdb.db);
    expect((await migrate(tdb.db)).applied).toEqual([]);
    expect(await describeSchema(tdb.db)).toBe(before);
  });

  it('renders the same text for the same schema (deterministic)', async () => {
    expect(await describeSchema(tdb.db)).toBe(await describeSchema(tdb.db));
  });
});
