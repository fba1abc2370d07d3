import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { isObject, type Json, operationsOf } from './compat.ts';

// ajv-formats is CommonJS with a default export: under NodeNext the callable sits on `.default`.
const addFormats = formatsModule as unknown as typeof formatsModule.default;

function pointerOf(path: string, method: string, status: number): string {
  const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1');
  return `openapi.json#/paths/${escaped}/${method}/responses/${status}/content/application~1json/schema`;
}

/**
 * Checks real responses against the served OpenAPI document: the status must be declared for (path, method), a
 * JSON body must match the declared schema (Ajv, JSON Schema 2020-12 with formats), and a status declared without
 * a body must come without one. Remembers what it saw, for coverage assertions.
 */
export class Conformance {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  /** `METHOD path status` of every response checked. */
  readonly exercised = new Set<string>();

  constructor(readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
  }

  check(
    method: string,
    template: string,
    res: { statusCode: number; headers: Record<string, unknown>; body: string },
    url = template,
  ): void {
    const m = method.toLowerCase();
    const where = `${method.toUpperCase()} ${template} → ${res.statusCode} (${url})`;
    const item = (this.doc.paths as Json)[template];
    const op = isObject(item) ? item[m] : undefined;
    expect(isObject(op), `${where}: not in the document`).toBe(true);
    const declared = (op as Json).responses as Json;
    expect(Object.keys(declared), `${where}: status not declared`).toContain(String(res.statusCode));
    this.exercised.add(`${method.toUpperCase()} ${template} ${res.statusCode}`);

    const response = declared[String(res.statusCode)] as Json;
    if (!isObject(response.content)) {
      expect(res.body, `${where}: a body where none is declared`).toBe('');
      return;
    }
    const types = Object.keys(response.content as Json);
    if (!types.includes('application/json')) {
      // A declared non-JSON answer (the audit log's CSV): its content type must be one of those declared.
      const actual = String(res.headers['content-type']);
      expect(
        types.some((t) => actual.startsWith(t)),
        `${where}: ${actual} is not one of ${types.join(', ')}`,
      ).toBe(true);
      return;
    }
    expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
    const key = `${template} ${m} ${res.statusCode}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointerOf(template, m, res.statusCode) });
      this.validators.set(key, validate);
    }
    const ok = validate(JSON.parse(res.body));
    expect(ok ? [] : validate.errors, `${where}: body does not match its schema: ${res.body.slice(0, 500)}`).toEqual(
      [],
    );
  }

  /** `METHOD path status` combinations of the operations `select` picks that no check has seen. */
  missing(select: (path: string, op: Json) => boolean, statuses: readonly string[]): string[] {
    const out: string[] = [];
    for (const { path, method, op } of operationsOf(this.doc)) {
      if (!select(path, op)) continue;
      const declared = Object.keys(isObject(op.responses) ? op.responses : {});
      for (const status of statuses) {
        const k = `${method.toUpperCase()} ${path} ${status}`;
        if (declared.includes(status) && !this.exercised.has(k)) out.push(k);
      }
    }
    return out;
  }
}
