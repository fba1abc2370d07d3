// Writes packages/sdk/openapi.json and src/schema.ts from the service's routes; `--check` only compares and exits
// 1 when they are stale. Run: npm run generate -w @statboard/sdk
import { writeFile } from 'node:fs/promises';
import { committed, DOCUMENT_FILE, generated, SCHEMA_FILE } from './openapi.ts';

const now = await generated();
if (process.argv.includes('--check')) {
  const then = await committed();
  const stale = [
    ...(then.document === now.document ? [] : [DOCUMENT_FILE]),
    ...(then.schema === now.schema ? [] : [SCHEMA_FILE]),
  ];
  if (stale.length > 0) {
    process.stderr.write(`stale: ${stale.join(', ')}\nrun: npm run generate -w @statboard/sdk\n`);
    process.exit(1);
  }
  process.stdout.write('the SDK matches the service\n');
} else {
  await writeFile(DOCUMENT_FILE, now.document);
  await writeFile(SCHEMA_FILE, now.schema);
  process.stdout.write(`wrote ${DOCUMENT_FILE} and ${SCHEMA_FILE}\n`);
}
