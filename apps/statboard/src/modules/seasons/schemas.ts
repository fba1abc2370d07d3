import { type Static, Type } from '@sinclair/typebox';
import { NullableDateTime } from '#src/http/schemas.ts';

export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

export const CreateSeasonRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  slug: Type.String({ minLength: 1, maxLength: 120, pattern: SLUG_PATTERN }),
  started_at: Type.Optional(NullableDateTime),
  ended_at: Type.Optional(NullableDateTime),
  active: Type.Optional(Type.Boolean({ default: false })),
});
export type CreateSeasonRequest = Static<typeof CreateSeasonRequest>;
