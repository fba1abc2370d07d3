import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../../apps/statboard/src/app.ts';
import { loadConfig } from '../../../apps/statboard/src/config.ts';
import { openPglite } from '../../../apps/statboard/src/db/pglite.ts';
import { buildServices } from '../../../apps/statboard/src/services.ts';

/** The committed files the generator writes. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));
export const SCHEMA_FILE = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

const HEADER = `/**
 * The Statboard API's types, generated from its OpenAPI document (packages/sdk/openapi.json, as the service serves
 * it at /api/v1/openapi.json) by \`npm run generate -w @statboard/sdk\`. Do not edit: a test fails when this file
 * is not what the generator writes for the current service.
 */

`;

/**
 * The OpenAPI document exactly as the service serves it, from the app built in this process (an empty in-memory
 * database: building the routes reads nothing). Its server URL is the default one, so the file is the same on
 * every machine.
 */
export async function servedDocument(): Promise<string> {
  const db = await openPglite(null);
  try {
    const config = loadConfig({});
    const app = await buildApp({ config, services: buildServices(db, config) });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
      return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

/** The TypeScript types of `document` (openapi-typescript), with the header. */
export async function schemaSource(document: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(document), { alphabetize: true, exportType: true });
  return HEADER + astToString(ast);
}

/** Both files as the generator writes them now. */
export async function generated(): Promise<{ document: string; schema: string }> {
  const document = await servedDocument();
  return { document, schema: await schemaSource(document) };
}

/** Both files as committed. */
export async function committed(): Promise<{ document: string; schema: string }> {
  const read = (f: string) => readFile(f, 'utf8').catch(() => '');
  return { document: await read(DOCUMENT_FILE), schema: await read(SCHEMA_FILE) };
}
