import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, DB_KIND, type TestContext } from '../helpers.ts';
import {
  checkParameters,
  checkRequest,
  checkResponse,
  collectRefs,
  deref,
  findNullableKeyword,
  isObject,
  type Json,
  operationsOf,
  resolvePointer,
} from './compat.ts';
import { REFERENCE_OPERATIONS, type RefOperation, type RefSchema } from './reference-v1.ts';

const PUBLIC_URL = 'https://stats.example.org';

// Built at collection time, so `skipIf` knows which reference paths the served document has.
const ctx: TestContext = await createTestContext({ PUBLIC_URL });
const openapiResponse = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
const doc = JSON.parse(openapiResponse.body) as Json;
const served = doc;

function servedOperation(path: string, method: string): Json | undefined {
  const item = isObject(served.paths) ? served.paths[path] : undefined;
  const op = isObject(item) ? item[method] : undefined;
  return isObject(op) ? op : undefined;
}

function responsesOf(op: Json): Json {
  return isObject(op.responses) ? op.responses : {};
}

function jsonBody(doc: Json, container: unknown): unknown {
  if (!isObject(container)) return undefined;
  const c = deref(doc, container).content;
  return isObject(c) && isObject(c['application/json']) ? c['application/json'].schema : undefined;
}

/**
 * Whether a query or path parameter can fail validation: a required query parameter, or any schema that says
 * more than "a string".
 */
function canFailValidation(param: Json): boolean {
  if (param.in !== 'query' && param.in !== 'path') return false;
  if (param.in === 'query' && param.required === true) return true;
  const schema = isObject(param.schema) ? deref(doc, param.schema) : {};
  const said = Object.keys(schema).filter((k) => !['description', 'default', 'examples', 'title'].includes(k));
  return said.some((k) => k !== 'type') || (schema.type !== undefined && schema.type !== 'string');
}

function securityNames(op: Json): string[] {
  const sec = Array.isArray(op.security) ? op.security : [];
  return sec.flatMap((s) => (isObject(s) ? Object.keys(s) : []));
}

it('serves the document as JSON', () => {
  expect(openapiResponse.statusCode).toBe(200);
  expect(openapiResponse.headers['content-type']).toMatch(/^application\/json/);
});

afterAll(async () => {
  await ctx?.close();
});

describe(`served OpenAPI document (${DB_KIND})`, () => {
  it('is OpenAPI 3.1.0 with info, paths and components', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(isObject(doc.info) && typeof doc.info.title === 'string' && typeof doc.info.version === 'string').toBe(true);
    expect(Object.keys(isObject(doc.paths) ? doc.paths : {}).length).toBeGreaterThan(0);
    expect(isObject(doc.components) && isObject(doc.components.schemas)).toBe(true);
  });

  it('is the same document on every request', async () => {
    const again = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(JSON.parse(again.body)).toEqual(doc);
  });

  it('names the server by PUBLIC_URL', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
  });

  it('declares the bearerAuth and sessionCookie security schemes', () => {
    const schemes = deref(doc, (doc.components as Json).securitySchemes ?? {});
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(typeof (schemes.sessionCookie as Json).name).toBe('string');
  });

  it('never uses the OpenAPI 3.0 keyword `nullable`', () => {
    expect(findNullableKeyword(doc)).toEqual([]);
  });

  it('resolves every $ref inside the document', () => {
    const broken = collectRefs(doc).filter(({ ref }) => resolvePointer(doc, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('keeps shared schemas as named components that the routes reference', () => {
    const schemas = (doc.components as Json).schemas as Json;
    for (const name of ['ErrorResponse', 'Player', 'Season', 'Pagination']) expect(schemas).toHaveProperty(name);
    const refs = new Set(collectRefs(doc.paths).map((r) => r.ref));
    expect(refs).toContain('#/components/schemas/ErrorResponse');
    expect(refs).toContain('#/components/schemas/Player');
    for (const ref of refs) expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z][A-Za-z0-9_]*$/);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operationsOf(doc).map(({ path, method, op }) => op.operationId ?? `(none: ${method} ${path})`);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
    expect(ids.length).toBe(new Set(ids).size);
  });

  it('declares at least one success (or redirect) status and a description for every response', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      const responses = responsesOf(op);
      if (!Object.keys(responses).some((s) => /^[23]\d\d$/.test(s))) problems.push(`${method} ${path}: no 2xx/3xx`);
      for (const [status, r] of Object.entries(responses)) {
        if (!isObject(r) || typeof deref(doc, r).description !== 'string') {
          problems.push(`${method} ${path} ${status}: no description`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares 401, 403 and 429 and the required scopes on every API-key route', () => {
    const problems: string[] = [];
    // The API's key routes; `/api/health` (the mod's connection test) takes a key optionally and needs no scope.
    const keyRoutes = operationsOf(doc).filter(
      ({ path, op }) => path.startsWith('/api/v1/') && securityNames(op).includes('bearerAuth'),
    );
    expect(keyRoutes.length).toBeGreaterThanOrEqual(7);
    for (const { path, method, op } of keyRoutes) {
      for (const status of ['401', '403', '429']) {
        if (!(status in responsesOf(op))) problems.push(`${method} ${path}: ${status} not declared`);
      }
      const scopes = op['x-required-scopes'];
      if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => /^[a-z]+:[a-z]+$/.test(String(s)))) {
        problems.push(`${method} ${path}: x-required-scopes missing`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares 401 and 403 on every admin API route', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      if (!path.startsWith('/api/v1/admin/') || !securityNames(op).includes('sessionCookie')) continue;
      for (const status of ['401', '403']) {
        if (!(status in responsesOf(op))) problems.push(`${method} ${path}: ${status} not declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares 422 wherever an API route validates a body or query, 404 for a checked path parameter, 400 for JSON', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      if (!path.startsWith('/api/v1/')) continue;
      const params = Array.isArray(op.parameters) ? op.parameters.map((p) => deref(doc, p)) : [];
      const declared = responsesOf(op);
      const validated = op.requestBody !== undefined || params.some((p) => p.in === 'query' && canFailValidation(p));
      if (validated && !('422' in declared)) problems.push(`${method} ${path}: 422 not declared`);
      // A path parameter that fails its schema names a resource that cannot exist: 404, not 422.
      if (params.some((p) => p.in === 'path' && canFailValidation(p)) && !('404' in declared)) {
        problems.push(`${method} ${path}: 404 not declared`);
      }
      if (jsonBody(doc, op.requestBody) !== undefined && !('400' in declared)) {
        problems.push(`${method} ${path}: 400 not declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, validateSchema: false });
    ajv.addSchema(doc, 'openapi.json');
    const problems: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
      for (const status of Object.keys(responsesOf(op))) {
        if (jsonBody(doc, responsesOf(op)[status]) === undefined) continue;
        try {
          ajv.compile({ $ref: `openapi.json${pointer}/responses/${status}/content/application~1json/schema` });
        } catch (err) {
          problems.push(`${method} ${path} ${status}: ${(err as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the compatibility checker', () => {
  const local: Json = {
    components: { schemas: { P: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
  };
  const ref: RefSchema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

  it('accepts a $ref to a matching component', () => {
    expect(checkResponse(local, ref, { $ref: '#/components/schemas/P' }, 'x')).toEqual([]);
  });

  it('reports a missing field, an optional required field and a nullable one', () => {
    expect(checkResponse(local, ref, { type: 'object', properties: {} }, 'x')).toEqual(['x.a: missing here']);
    expect(checkResponse(local, ref, { type: 'object', properties: { a: { type: 'string' } } }, 'x')).toEqual([
      'x.a: required in the reference, optional here',
    ]);
    const nullable = {
      type: 'object',
      required: ['a'],
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    expect(checkResponse(local, ref, nullable, 'x')).toEqual(['x.a: may be null here, never in the reference']);
  });

  it('allows a number for an integer only where the reference says values are numbers', () => {
    expect(checkResponse(local, { type: 'integer' }, { type: 'number' }, 'v')).toHaveLength(1);
    expect(checkResponse(local, { type: 'integer', numberAllowed: true }, { type: 'number' }, 'v')).toEqual([]);
  });

  it('reports a request field the reference allows but we refuse', () => {
    const body: RefSchema = { type: 'object', properties: { s: { type: 'string', nullable: true } }, required: [] };
    expect(checkRequest(local, body, { type: 'object', properties: {} }, 'b')).toEqual(['b.s: not accepted here']);
    expect(checkRequest(local, body, { type: 'object', properties: { s: { type: 'string' } } }, 'b')).toEqual([
      'b.s: null is allowed by the reference, refused here',
    ]);
    expect(
      checkRequest(
        local,
        body,
        { type: 'object', required: ['s'], properties: { s: { type: ['string', 'null'] } } },
        'b',
      ),
    ).toEqual(['b.s: required here, optional in the reference']);
  });
});

/** The reference operation at one of our paths (its own path or an alias). */
const cases = REFERENCE_OPERATIONS.flatMap((ref) =>
  [ref.path, ...(ref.aliases ?? [])].map((path) => ({ ref, path, served: servedOperation(path, ref.method) })),
);

function caseName(ref: RefOperation, path: string): string {
  return `${ref.method.toUpperCase()} ${path}${ref.admin ? ' (admin, issue 3)' : ''}`;
}

describe('superset of the reference OpenAPI v1', () => {
  it('serves every non-admin path of the reference (and the health aliases)', () => {
    const missing = cases.filter((c) => !c.ref.admin && c.served === undefined).map((c) => `${c.ref.method} ${c.path}`);
    expect(missing).toEqual([]);
  });

  for (const { ref, path, served: isServed } of cases) {
    describe(caseName(ref, path), () => {
      const op = () => servedOperation(path, ref.method) as Json;

      it.skipIf(!isServed)('exists with the reference operationId and security', () => {
        expect(op()).toBeDefined();
        if (path === ref.path) expect(op().operationId).toBe(ref.operationId);
        if (ref.security === 'none') expect(securityNames(op())).toEqual([]);
        else expect(securityNames(op())).toContain(ref.security);
        if (ref.requiredScopes) expect(op()['x-required-scopes']).toEqual(ref.requiredScopes);
      });

      it.skipIf(!isServed)('declares every reference status', () => {
        const ours = Object.keys(responsesOf(op()));
        const missing = Object.keys(ref.responses).filter((s) => !ours.includes(s));
        expect(missing).toEqual([]);
      });

      it.skipIf(!isServed)('returns every reference response field with a compatible schema', () => {
        const problems: string[] = [];
        for (const [status, r] of Object.entries(ref.responses)) {
          if (!r.body) continue;
          const mine = jsonBody(doc, responsesOf(op())[status]);
          if (mine === undefined) problems.push(`${status}: no JSON body declared`);
          else problems.push(...checkResponse(doc, r.body, mine, `${status} body`));
        }
        expect(problems).toEqual([]);
      });

      if (ref.parameters || ref.requestBody)
        it.skipIf(!isServed)('accepts every reference parameter and request field', () => {
          const problems = checkParameters(doc, ref.parameters ?? [], op().parameters, 'request');
          if (ref.requestBody) {
            const body = jsonBody(doc, op().requestBody);
            if (body === undefined) problems.push('request body: not declared');
            else problems.push(...checkRequest(doc, ref.requestBody, body, 'body'));
            if (isObject(op().requestBody) && deref(doc, op().requestBody).required !== true) {
              problems.push('request body: not marked required');
            }
          }
          expect(problems).toEqual([]);
        });
    });
  }

  it('declares 422 besides the reference 400 on ingest (validation failures are 422 here)', () => {
    const ingest = servedOperation('/api/v1/ingest/batch', 'post') as Json;
    expect(Object.keys(responsesOf(ingest))).toEqual(expect.arrayContaining(['400', '404', '413', '422']));
  });

  it('accepts the ingest client fields under both names (game_version / minecraft_version, …)', () => {
    const body = deref(doc, jsonBody(doc, (servedOperation('/api/v1/ingest/batch', 'post') as Json).requestBody));
    const client = deref(doc, (body.properties as Json).client);
    expect(Object.keys(client.properties as Json)).toEqual(
      expect.arrayContaining([
        'mod_version',
        'game_version',
        'minecraft_version',
        'loader_version',
        'fabric_loader_version',
      ]),
    );
  });
});

describe('browsable docs', () => {
  it('serves an HTML page at /api/v1/docs', async () => {
    let url = '/api/v1/docs';
    let res = await ctx.app.inject({ method: 'GET', url });
    for (let hops = 0; hops < 5 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      const location = String(res.headers.location);
      url = new URL(location, `http://localhost${url}`).pathname;
      res = await ctx.app.inject({ method: 'GET', url });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});
