import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableString, Uuid } from '#src/http/schemas.ts';

const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

/** A statistic definition: created by ingest (public, descending); analysts and up change it. */
export const StatDefinition = Type.Object(
  {
    id: Uuid,
    key: Type.String(),
    display_name: NullableString(),
    category: NullableString(),
    public: Type.Boolean(),
    sort_order: SortOrder,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'StatDefinition' },
);
export type StatDefinition = Static<typeof StatDefinition>;

/** Omitted fields keep their value; a blank display name clears it. */
export const UpdateStatRequest = Type.Object({
  public: Type.Optional(Type.Boolean()),
  display_name: Type.Optional(NullableString({ maxLength: 255 })),
  sort_order: Type.Optional(SortOrder),
});

/** A public statistic as key reads see it (`GET /stats`). */
export const PublicStat = Type.Object(
  {
    key: Type.String(),
    display_name: NullableString(),
    category: Type.String({ description: "The key's first segment (`minecraft.custom` of `minecraft.custom:…`)" }),
    sort_order: SortOrder,
  },
  { $id: 'PublicStat' },
);
export type PublicStat = Static<typeof PublicStat>;
