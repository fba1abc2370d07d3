import { type TSchema, Type } from '@sinclair/typebox';
import { errorResponses } from '#src/http/schemas.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const NullableString = (opts: object = {}) => Type.Union([Type.String(opts), Type.Null()]);
const RoleEnum = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('analyst'),
  Type.Literal('readonly'),
]);

/** Shared component schemas of the admin API (registered with `$id`, referenced by responses). */
export const AdminMe = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString({ format: 'email' }),
    workspace_id: Type.Union([Uuid, Type.Null()]),
    role: Type.Union([RoleEnum, Type.Null()]),
    needs_bootstrap: Type.Boolean(),
  },
  { $id: 'AdminMe' },
);

const UuidList = Type.Array(Uuid);

export const ApiKey = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String(),
    type: Type.Union([Type.Literal('client'), Type.Literal('website'), Type.Literal('integration')]),
    prefix: Type.String(),
    description: NullableString(),
    enabled: Type.Boolean(),
    status: Type.Union([
      Type.Literal('active'),
      Type.Literal('disabled'),
      Type.Literal('revoked'),
      Type.Literal('expired'),
    ]),
    scopes: Type.Array(Type.String()),
    player_restrictions: UuidList,
    uuid_restrictions: Type.Array(Uuid, { description: 'Alias of player_restrictions (the original dashboard)' }),
    server_restrictions: UuidList,
    season_restrictions: UuidList,
    expires_at: NullableDateTime,
    last_used_at: NullableDateTime,
    created_at: DateTime,
    updated_at: DateTime,
    revoked_at: NullableDateTime,
  },
  { $id: 'ApiKey' },
);

export const CreateApiKeyResponse = Type.Object(
  {
    data: Type.Ref(ApiKey),
    secret: Type.String({ description: 'The whole token. Returned only once.' }),
  },
  { $id: 'CreateApiKeyResponse' },
);

const KeyFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(NullableString({ maxLength: 500 })),
  scopes: Type.Array(Type.String(), { minItems: 1, uniqueItems: true }),
  player_restrictions: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 1000 })),
  uuid_restrictions: Type.Optional(
    Type.Array(Uuid, { uniqueItems: true, maxItems: 1000, description: 'Alias of player_restrictions' }),
  ),
  server_restrictions: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 100 })),
  season_restrictions: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 100 })),
  expires_at: Type.Optional(NullableDateTime),
};

/** Request bodies are inline (the body validator compiles each schema on its own). */
export const CreateApiKeyRequest = Type.Object({
  ...KeyFields,
  type: Type.Union([Type.Literal('client'), Type.Literal('website'), Type.Literal('integration')]),
});
export const UpdateApiKeyRequest = Type.Object(KeyFields);
export const RotateApiKeyRequest = Type.Object({
  grace_seconds: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 604_800, description: 'Keep the old key working this long' }),
  ),
});

export const Server = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String(),
    display_name: NullableString(),
    hostname: Type.String(),
    port: Type.Integer(),
    enabled: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Server' },
);

const ServerFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  display_name: Type.Optional(NullableString({ maxLength: 160 })),
  hostname: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
};
export const ServerRequest = Type.Object(ServerFields);

export const CreateSeasonRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  slug: Type.String({ minLength: 1, maxLength: 120, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  started_at: Type.Optional(NullableDateTime),
  ended_at: Type.Optional(NullableDateTime),
  active: Type.Optional(Type.Boolean({ default: false })),
});

export const AdminPlayer = Type.Object(
  {
    id: Uuid,
    uuid: Uuid,
    username: Type.String(),
    public: Type.Boolean(),
    first_seen_at: DateTime,
    last_seen_at: DateTime,
  },
  { $id: 'AdminPlayer' },
);

export const StatDefinition = Type.Object(
  {
    id: Uuid,
    key: Type.String(),
    display_name: NullableString(),
    category: NullableString(),
    public: Type.Boolean(),
    sort_order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'StatDefinition' },
);

export const UpdateStatRequest = Type.Object({
  public: Type.Optional(Type.Boolean()),
  display_name: Type.Optional(NullableString({ maxLength: 255 })),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

export const AdminUser = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString(),
    role: Type.Union([RoleEnum, Type.Null()]),
    last_login_at: NullableDateTime,
    created_at: DateTime,
  },
  { $id: 'AdminUser' },
);

export const UpdateUserRequest = Type.Object({
  role: Type.Union([RoleEnum, Type.Null()], { description: 'null removes the user from the workspace' }),
});

export const AuditRecord = Type.Object(
  {
    id: Uuid,
    workspace_id: Type.Union([Uuid, Type.Null()]),
    actor: Type.Object({
      user_id: Type.Union([Uuid, Type.Null()]),
      label: NullableString({ description: "Set when there is no user, e.g. 'cli'" }),
      display_name: NullableString(),
    }),
    action: Type.String(),
    target_type: Type.String(),
    target_id: NullableString(),
    before: Type.Unknown({ description: 'The target before the change, without secrets' }),
    after: Type.Unknown({ description: 'The target after the change, without secrets' }),
    ip: NullableString(),
    request_id: NullableString(),
    created_at: DateTime,
  },
  { $id: 'AuditRecord' },
);

export const BootstrapRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 1024 }),
  workspace_name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
});

export const BootstrapResponse = Type.Object({
  data: Type.Object({ workspace_id: Uuid, role: Type.Literal('owner') }),
});

export const ADMIN_SCHEMAS: TSchema[] = [
  AdminMe,
  ApiKey,
  CreateApiKeyResponse,
  Server,
  AdminPlayer,
  StatDefinition,
  AdminUser,
  AuditRecord,
];

export function data(schema: TSchema): TSchema {
  return Type.Object({ data: schema });
}

export function dataList(schema: TSchema): TSchema {
  return Type.Object({ data: Type.Array(schema) });
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

export const Security = [{ sessionCookie: [] }];
