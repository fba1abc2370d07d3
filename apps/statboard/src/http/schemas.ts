import { type TSchema, Type } from '@sinclair/typebox';

/** Shapes shared by several routes; registered once as OpenAPI components. */
export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      request_id: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    }),
  },
  { $id: 'ErrorResponse' },
);

export const Player = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    uuid: Type.String({ format: 'uuid' }),
    username: Type.String(),
    public: Type.Boolean(),
  },
  { $id: 'Player' },
);

/** How a season's values are read: as the game reports them, or what each player gained since the season began. */
export const SeasonScoring = Type.Union([Type.Literal('absolute'), Type.Literal('gains')], {
  description:
    'absolute: values as the game reports them (a season on a fresh world); gains: what each player gained since the season began',
});

export const Season = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    active: Type.Boolean(),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    scoring: SeasonScoring,
  },
  { $id: 'Season' },
);

/** `server=` of the value reads: one server's values alone instead of the network totals. */
export const ServerScope = Type.Optional(
  Type.String({
    format: 'uuid',
    description:
      "A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers)",
  }),
);

export const Pagination = Type.Object(
  { current_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() },
  { $id: 'Pagination' },
);

export const SHARED_SCHEMAS: TSchema[] = [ErrorResponse, Player, Season, Pagination];

export const PlayerRef = Type.Ref(Player);
export const SeasonRef = Type.Ref(Season);
export const PaginationRef = Type.Ref(Pagination);
const ErrorRef = Type.Ref(ErrorResponse);

/** Error responses a key route can give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of statuses) out[s] = { ...ErrorRef, description: describe(s) } as TSchema;
  return out;
}

function describe(status: number): string {
  switch (status) {
    case 400:
      return 'Unparseable JSON or a wrong content type (BAD_REQUEST)';
    case 401:
      return 'API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY)';
    case 403:
      return 'Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN)';
    case 404:
      return 'Not found (NOT_FOUND)';
    case 409:
      return 'Conflict (CONFLICT)';
    case 413:
      return 'Body larger than 1 MiB (PAYLOAD_TOO_LARGE)';
    case 422:
      return 'Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages';
    case 429:
      return 'Rate limited (RATE_LIMITED), with Retry-After';
    default:
      return 'Error';
  }
}

/** Error responses of admin routes, described for the session cookie rather than an API key. */
export function adminErrors(...statuses: number[]): Record<number, TSchema> {
  const out = errorResponses(...statuses);
  const describe: Record<number, string> = {
    401: 'No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY)',
    403: 'An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN)',
    409: 'Conflict (CONFLICT)',
  };
  for (const s of statuses) {
    const d = describe[s];
    if (d !== undefined && out[s]) out[s] = { ...out[s], description: d } as TSchema;
  }
  return out;
}

/** The OpenAPI security of admin routes: the session cookie. */
export const SESSION_SECURITY = [{ sessionCookie: [] }];

/** What the admin routes share in their OpenAPI description. */
export const ADMIN_DOC = { tags: ['Admin'], security: SESSION_SECURITY };

/** Shapes admin records share. */
export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
export const NullableDateTime = Type.Union([DateTime, Type.Null()]);
export const NullableString = (opts: object = {}) => Type.Union([Type.String(opts), Type.Null()]);

/** A `{data: …}` envelope. */
export function data<T extends TSchema>(schema: T) {
  return Type.Object({ data: schema });
}

/** The query of paged lists: `page` from 1, `per_page` 1–100 (default 50). */
export const PageQuery = Type.Object({
  // Ajv's integer check lets `Infinity` through (a 500 when the page is echoed): bound it.
  page: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
});
