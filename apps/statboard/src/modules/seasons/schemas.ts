import { type Static, Type } from '@sinclair/typebox';
import { NullableDateTime, SeasonScoring } from '#src/http/schemas.ts';

export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
const Slug = Type.String({ minLength: 1, maxLength: 120, pattern: SLUG_PATTERN });

export const CreateSeasonRequest = Type.Object({
  name: Name,
  slug: Slug,
  started_at: Type.Optional(NullableDateTime),
  ended_at: Type.Optional(NullableDateTime),
  active: Type.Optional(Type.Boolean({ default: false })),
  scoring: Type.Optional(SeasonScoring),
});
export type CreateSeasonRequest = Static<typeof CreateSeasonRequest>;

/** `PUT /admin/seasons/{season}`: the fields given replace the season's (a null time clears it); others stay. */
export const UpdateSeasonRequest = Type.Object({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  started_at: Type.Optional(NullableDateTime),
  ended_at: Type.Optional(NullableDateTime),
  scoring: Type.Optional(SeasonScoring),
});
export type UpdateSeasonRequest = Static<typeof UpdateSeasonRequest>;
