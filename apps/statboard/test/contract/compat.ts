import type { RefParameter, RefSchema } from './reference-v1.ts';

/** A JSON value of the served OpenAPI document. */
export type Json = { [key: string]: unknown };

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON pointer (`#/components/schemas/Player`) in the document, or undefined. */
export function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref` chains to the schema they name. */
export function deref(doc: Json, schema: unknown): Json {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${node.$ref}`);
    node = resolvePointer(doc, node.$ref);
  }
  if (!isObject(node)) throw new Error('unresolvable schema');
  return node;
}

interface Normalized {
  schema: Json;
  nullable: boolean;
  /** Non-null JSON types the schema allows; empty = any. */
  types: string[];
  enum: unknown[] | undefined;
}

/**
 * `$ref` resolved; `anyOf [X, {type: null}]` and `type: [X, 'null']` read as a nullable X; `const` as an enum; a
 * union of literals as one enum.
 */
export function normalize(doc: Json, raw: unknown): Normalized {
  const schema = deref(doc, raw);
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const branches = union.map((b) => deref(doc, b));
    const isNull = (b: Json) => b.type === 'null' || (b.const === null && b.type === undefined);
    const rest = branches.filter((b) => !isNull(b));
    if (rest.length === 1) {
      const inner = normalize(doc, rest[0]);
      return { ...inner, nullable: inner.nullable || rest.length < branches.length };
    }
    const all = rest.map((b) => normalize(doc, b));
    return {
      schema,
      nullable: rest.length < branches.length || all.some((n) => n.nullable),
      types: all.some((n) => n.types.length === 0) ? [] : [...new Set(all.flatMap((n) => n.types))],
      // `Type.Union([Type.Literal('a'), Type.Literal('b')])`: an enum spread over branches.
      enum: all.every((n) => n.enum !== undefined) ? all.flatMap((n) => n.enum ?? []) : undefined,
    };
  }
  const declared = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : [];
  const enumValues = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  return {
    schema,
    nullable: declared.includes('null') || (enumValues?.includes(null) ?? false),
    types: declared.filter((t) => t !== 'null'),
    enum: enumValues?.filter((v) => v !== null),
  };
}

/** Types a response value of ours may have so that a client of the reference schema reads it. */
function responseTypesFor(ref: RefSchema): string[] {
  if (ref.type === 'number') return ['number', 'integer'];
  if (ref.type === 'integer') return ref.numberAllowed ? ['integer', 'number'] : ['integer'];
  return [ref.type];
}

/**
 * Problems that would break a client written against the reference when it reads our response: a reference
 * field missing or optional here, a different type or format, null where the reference never gives null, or
 * an enum value the reference does not know.
 */
export function checkResponse(doc: Json, ref: RefSchema, ours: unknown, at: string): string[] {
  const problems: string[] = [];
  let n: Normalized;
  try {
    n = normalize(doc, ours);
  } catch (err) {
    return [`${at}: ${(err as Error).message}`];
  }
  if (n.nullable && !ref.nullable) problems.push(`${at}: may be null here, never in the reference`);
  const allowed = responseTypesFor(ref);
  if (n.types.length === 0) problems.push(`${at}: has no type here, the reference says ${ref.type}`);
  for (const t of n.types) {
    if (!allowed.includes(t)) problems.push(`${at}: is ${t} here, ${ref.type} in the reference`);
  }
  if (ref.enum) {
    if (!n.enum) problems.push(`${at}: has no enum here, the reference allows only ${JSON.stringify(ref.enum)}`);
    else
      for (const v of n.enum) {
        if (!ref.enum.includes(v)) problems.push(`${at}: may be ${JSON.stringify(v)}, unknown to the reference`);
      }
  }
  if (ref.format && ref.format !== 'int64' && n.schema.format !== ref.format) {
    problems.push(`${at}: format ${String(n.schema.format)} here, ${ref.format} in the reference`);
  }
  if (ref.properties) {
    const props = isObject(n.schema.properties) ? n.schema.properties : {};
    const required = Array.isArray(n.schema.required) ? (n.schema.required as string[]) : [];
    for (const [name, refProp] of Object.entries(ref.properties)) {
      const where = `${at}.${name}`;
      if (!(name in props)) {
        problems.push(`${where}: missing here`);
        continue;
      }
      if (ref.required?.includes(name) && !required.includes(name)) {
        problems.push(`${where}: required in the reference, optional here`);
      }
      problems.push(...checkResponse(doc, refProp, props[name], where));
    }
  }
  if (ref.items) {
    if (n.schema.items === undefined) problems.push(`${at}: array without items here`);
    else problems.push(...checkResponse(doc, ref.items, n.schema.items, `${at}[]`));
  }
  return problems;
}

/** Whether a value of JSON type `refType` passes a schema of ours that allows `ours` types. */
function accepts(ours: string[], refType: string): boolean {
  if (ours.length === 0) return true;
  if (ours.includes(refType)) return true;
  return refType === 'integer' && ours.includes('number');
}

/**
 * Problems that would make us reject a request the reference accepts: a reference field we do not declare, a
 * field required here but optional there, a narrower type, enum, format or bound, or null refused where the
 * reference allows it.
 */
export function checkRequest(doc: Json, ref: RefSchema, ours: unknown, at: string): string[] {
  const problems: string[] = [];
  let n: Normalized;
  try {
    n = normalize(doc, ours);
  } catch (err) {
    return [`${at}: ${(err as Error).message}`];
  }
  const s = n.schema;
  if (ref.nullable && !n.nullable) problems.push(`${at}: null is allowed by the reference, refused here`);
  if (!accepts(n.types, ref.type)) problems.push(`${at}: accepts ${n.types.join('|')} here, the reference ${ref.type}`);
  if (n.enum) {
    for (const v of ref.enum ?? []) {
      if (!n.enum.includes(v)) problems.push(`${at}: refuses ${JSON.stringify(v)}, which the reference allows`);
    }
    if (!ref.enum) problems.push(`${at}: restricted to ${JSON.stringify(n.enum)} here, open in the reference`);
  }
  if (typeof s.format === 'string' && s.format !== ref.format) {
    problems.push(`${at}: requires format ${s.format}, the reference ${ref.format ?? 'none'}`);
  }
  const tighter = (
    key: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'maxItems',
    isTighter: (ours: number, theirs: number) => boolean,
  ) => {
    const theirs = ref[key];
    const mine = s[key];
    if (theirs !== undefined && typeof mine === 'number' && isTighter(mine, theirs)) {
      problems.push(`${at}: ${key} ${mine} here, ${theirs} in the reference`);
    }
  };
  tighter('minLength', (o, t) => o > t);
  tighter('maxLength', (o, t) => o < t);
  tighter('minimum', (o, t) => o > t);
  tighter('maximum', (o, t) => o < t);
  tighter('maxItems', (o, t) => o < t);
  if (ref.properties) {
    const props = isObject(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    for (const [name, refProp] of Object.entries(ref.properties)) {
      const where = `${at}.${name}`;
      if (!(name in props)) {
        problems.push(`${where}: not accepted here`);
        continue;
      }
      problems.push(...checkRequest(doc, refProp, props[name], where));
    }
    for (const name of required) {
      if (!ref.required?.includes(name)) problems.push(`${at}.${name}: required here, optional in the reference`);
    }
  }
  if (ref.items) {
    if (s.items !== undefined) problems.push(...checkRequest(doc, ref.items, s.items, `${at}[]`));
  }
  return problems;
}

/** Problems with the parameters of one operation of ours against the reference's. */
export function checkParameters(doc: Json, ref: readonly RefParameter[], ours: unknown, at: string): string[] {
  const list = Array.isArray(ours) ? ours.map((p) => deref(doc, p)) : [];
  const problems: string[] = [];
  for (const rp of ref) {
    const same = (p: Json) =>
      p.in === rp.in &&
      (rp.in === 'header' ? String(p.name).toLowerCase() === rp.name.toLowerCase() : p.name === rp.name);
    const mine = list.find(same);
    const where = `${at} ${rp.in} parameter ${rp.name}`;
    if (!mine) {
      problems.push(`${where}: not declared here`);
      continue;
    }
    if (mine.required === true && !rp.required) problems.push(`${where}: required here, optional in the reference`);
    problems.push(...checkRequest(doc, rp.schema, mine.schema ?? {}, where));
  }
  return problems;
}

/** Every value of a `$ref` key anywhere in the document, with where it sits. */
export function collectRefs(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => collectRefs(v, `${at}/${i}`));
  if (!isObject(node)) return [];
  const out: { at: string; ref: string }[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out.push({ at, ref: v });
    else out.push(...collectRefs(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  }
  return out;
}

/**
 * Where the OpenAPI 3.0 keyword `nullable` occurs (invalid in 3.1). A property *named* `nullable` inside a
 * `properties` map is a field, not the keyword, and does not count.
 */
export function findNullableKeyword(node: unknown, at = '#', inProperties = false): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => findNullableKeyword(v, `${at}/${i}`));
  if (!isObject(node)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' && !inProperties) out.push(`${at}/nullable`);
    out.push(...findNullableKeyword(v, `${at}/${k}`, k === 'properties' && !inProperties));
  }
  return out;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

export interface ServedOperation {
  path: string;
  method: string;
  op: Json;
}

/** Every operation of the document. */
export function operationsOf(doc: Json): ServedOperation[] {
  const paths = isObject(doc.paths) ? doc.paths : {};
  const out: ServedOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) out.push({ path, method, op });
    }
  }
  return out;
}
