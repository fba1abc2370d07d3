import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableDateTime, NullableString, Uuid } from '#src/http/schemas.ts';

const KeyType = Type.Union([Type.Literal('client'), Type.Literal('website'), Type.Literal('integration')]);
const UuidList = Type.Array(Uuid);

/** The admin view of a key. Never carries the secret or its hash. */
export const ApiKey = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String(),
    type: KeyType,
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
export type ApiKey = Static<typeof ApiKey>;

export const CreateApiKeyResponse = Type.Object(
  {
    data: Type.Ref(ApiKey),
    secret: Type.String({ description: 'The whole token. Returned only once.' }),
  },
  { $id: 'CreateApiKeyResponse' },
);

const KeyFields = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
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
export const CreateApiKeyRequest = Type.Object({ ...KeyFields, type: KeyType });
export type CreateApiKeyRequest = Static<typeof CreateApiKeyRequest>;
export const UpdateApiKeyRequest = Type.Object(KeyFields);
export type UpdateApiKeyRequest = Static<typeof UpdateApiKeyRequest>;
export const RotateApiKeyRequest = Type.Object({
  grace_seconds: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 604_800, description: 'Keep the old key working this long' }),
  ),
});
export type RotateApiKeyRequest = Static<typeof RotateApiKeyRequest>;
