import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describeSchema } from './describe-schema.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';

/**
 * `npm run schema:dump -w statboard`: migrates a fresh in-memory database and writes its description to
 * `src/db/schema.sql`, the file test/db/schema.test.ts compares the migrated schema with.
 */
const target = fileURLToPath(new URL('./schema.sql', import.meta.url));
const db = await openPglite(null);
try {
  await migrate(db);
  await writeFile(target, await describeSchema(db));
  process.stdout.write(`Wrote ${target}\n`);
} finally {
  await db.close();
}
