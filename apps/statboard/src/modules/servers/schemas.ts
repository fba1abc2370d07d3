import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableString, Uuid } from '#src/http/schemas.ts';

/** Text with at least one character that is not white space. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });

export const Server = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String(),
    display_name: NullableString(),
    hostname: Type.String(),
    port: Type.Integer(),
    enabled: Type.Boolean(),
    last_ingest_at: Type.Union([DateTime, Type.Null()], {
      description: 'When a batch through this server was last accepted (null: never)',
    }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Server' },
);
export type Server = Static<typeof Server>;

/** Create and update (PUT replaces): `name` defaults to the hostname, `enabled` to true. */
export const ServerRequest = Type.Object({
  name: Type.Optional(Text(120)),
  display_name: Type.Optional(Type.Union([Text(160), Type.Null()])),
  hostname: Text(253),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
});
export type ServerRequest = Static<typeof ServerRequest>;
