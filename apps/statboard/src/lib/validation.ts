import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type ErrorDetails } from '#src/errors.ts';
import { isRfc3339 } from '#src/lib/rfc3339.ts';
import { PLAYER_NAME_PATTERN, PLAYER_NAME_RULE } from '#src/lib/upload-rules.ts';
import { isUuid } from '#src/lib/uuid.ts';

// ajv-formats is CommonJS with a default export: under NodeNext the callable sits on `.default`.
const addFormats = formatsModule as unknown as typeof formatsModule.default;

function build(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: !coerce,
    strict: false,
  });
  addFormats(ajv);
  // Our own RFC 3339 check, the same one the services parse with.
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339 });
  // ajv-formats' uuid also takes a `urn:uuid:` prefix, which PostgreSQL's uuid type refuses (a 500 on insert).
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  return ajv;
}

/** Bodies are validated strictly (no type coercion, every error reported); query and path values are coerced. */
const strict = build(false);
const coercing = build(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === 'body'
    ? strict.compile(schema as object)
    : withinBounds(coercing.compile(schema as object), boundedProperties(schema));

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Names of the properties of an object schema that declare a `minimum` or `maximum`. */
function boundedProperties(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, { minimum?: unknown; maximum?: unknown }> }).properties;
  if (!props) return [];
  return Object.entries(props)
    .filter(([, p]) => typeof p.minimum === 'number' || typeof p.maximum === 'number')
    .map(([name]) => name);
}

/**
 * Ajv coerces the text `Infinity` (and `1e400`) to a number that passes `integer`, `minimum` and `maximum`
 * (the bounds are checked against the text): a coerced query or path value with declared bounds must also be
 * finite, else it fails like any other type error. (A value without bounds, like the leaderboard's clamped
 * `limit`, is left to its route.)
 */
function withinBounds(validate: Validate, bounded: readonly string[]): Validate {
  if (bounded.length === 0) return validate;
  const checked: Validate = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    if (data !== null && typeof data === 'object') {
      for (const name of bounded) {
        const value = (data as Record<string, unknown>)[name];
        if (typeof value === 'number' && !Number.isFinite(value)) {
          checked.errors = [
            {
              instancePath: `/${name}`,
              schemaPath: '#/type',
              keyword: 'type',
              params: { type: 'number' },
              message: 'must be a finite number',
            },
          ];
          return false;
        }
      }
    }
    checked.errors = null;
    return true;
  };
  return checked;
}

const FRIENDLY: Record<string, string> = {
  uuid: 'must be a UUID',
  'date-time': 'must be an RFC 3339 date-time',
};

function fieldOf(err: ErrorObject): string {
  const parts = err.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (err.keyword === 'required') parts.push(String((err.params as { missingProperty: string }).missingProperty));
  return parts.join('.') || '(body)';
}

/** Patterns too long to be a useful message by themselves, by pattern. */
const FRIENDLY_PATTERNS: Record<string, string> = {
  [PLAYER_NAME_PATTERN]: `must be a player name: ${PLAYER_NAME_RULE}`,
};

function messageOf(err: ErrorObject): string {
  if (err.keyword === 'format') return FRIENDLY[String(err.params.format)] ?? err.message ?? 'is invalid';
  if (err.keyword === 'pattern') return FRIENDLY_PATTERNS[String(err.params.pattern)] ?? err.message ?? 'is invalid';
  if (err.keyword === 'required') return 'is required';
  return err.message ?? 'is invalid';
}

/** Turns Ajv errors into the `details` map of the error shape: field path → messages. */
export function detailsFromAjv(errors: readonly ErrorObject[]): ErrorDetails {
  const details: ErrorDetails = {};
  for (const e of errors) {
    // anyOf/oneOf wrappers repeat what their branches said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const field = fieldOf(e);
    const msg = messageOf(e);
    const list = details[field] ?? [];
    if (!list.includes(msg)) list.push(msg);
    details[field] = list;
  }
  return details;
}

/** Compiled body validators by schema object: each schema is compiled once, by the same Ajv as Fastify's bodies. */
const compiled = new WeakMap<TSchema, ReturnType<Ajv['compile']>>();

/**
 * Checks `value` against a request-body schema with the validator Fastify uses for bodies, so that a rule holds
 * the same through every door (HTTP, CLI, tests): returns it typed (defaults filled in), or throws the same 422
 * `INVALID_PAYLOAD` with field details that the HTTP route answers.
 */
export function checkBody<T extends TSchema>(
  schema: T,
  value: unknown,
  message = 'The request is invalid.',
): Static<T> {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = strict.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(value)) throw new AppError('INVALID_PAYLOAD', message, detailsFromAjv(validate.errors ?? []));
  return value as Static<T>;
}

/** Collects field messages of rules a schema cannot state (cross-field, against the database) into one 422. */
export class Problems {
  readonly details: ErrorDetails = {};
  add(field: string, message: string): void {
    this.details[field] = [...(this.details[field] ?? []), message];
  }
  throwIfAny(message = 'The request is invalid.'): void {
    if (Object.keys(this.details).length > 0) throw new AppError('INVALID_PAYLOAD', message, this.details);
  }
}
