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

const NullableDateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const Season = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    active: Type.Boolean(),
    started_at: NullableDateTime,
    ended_at: NullableDateTime,
  },
  { $id: 'Season' },
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

/** Every key route answers these besides its own. */
export const KEY_ROUTE_ERRORS = [401, 403, 429] as const;
