import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableString, Uuid } from '#src/http/schemas.ts';

const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

/** What a statistic's value counts; the API keeps raw values, readers format them by this. */
export const StatUnit = Type.Union(
  [Type.Literal('ticks'), Type.Literal('cm'), Type.Literal('damage'), Type.Literal('count')],
  {
    description:
      '`ticks`: time, 20 per second; `cm`: distance in centimeters; `damage`: tenths of a health point (20 health ' +
      'points are 10 hearts); `count`: a plain number',
  },
);
export type StatUnit = Static<typeof StatUnit>;

const DisplayName = Type.String({
  description:
    "The admin's name for it, else the game's own English name for `minecraft` statistics " +
    '("Time Played", "Stone Mined"), else the key',
});

const MaxPerHour = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
  description:
    "The most a client upload may raise the value in an hour of the service's clock (plus 0.1 h) before it is held for " +
    "review; null: no limit. Defaults: 20,000,000 for the game's distances, 72,000 for its other statistics, null " +
    'for other namespaces',
});

/** A statistic definition: created by ingest (public, descending); analysts and up change it. */
export const StatDefinition = Type.Object(
  {
    id: Uuid,
    key: Type.String(),
    display_name: DisplayName,
    display_name_is_default: Type.Boolean({ description: 'True until an admin names it' }),
    unit: StatUnit,
    unit_is_default: Type.Boolean({ description: 'True until an admin sets it: the unit follows from the key' }),
    category: NullableString(),
    max_per_hour: MaxPerHour,
    public: Type.Boolean(),
    sort_order: SortOrder,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'StatDefinition' },
);
export type StatDefinition = Static<typeof StatDefinition>;

/** Omitted fields keep their value; null (or a blank display name) goes back to the default. */
export const UpdateStatRequest = Type.Object({
  public: Type.Optional(Type.Boolean()),
  display_name: Type.Optional(NullableString({ maxLength: 255 })),
  unit: Type.Optional(Type.Union([StatUnit, Type.Null()])),
  sort_order: Type.Optional(SortOrder),
  max_per_hour: Type.Optional(MaxPerHour),
});

/** A public statistic as key reads see it (`GET /stats`). */
export const PublicStat = Type.Object(
  {
    key: Type.String(),
    display_name: DisplayName,
    category: Type.String({ description: "The key's first segment (`minecraft.custom` of `minecraft.custom:…`)" }),
    sort_order: SortOrder,
    unit: StatUnit,
  },
  { $id: 'PublicStat' },
);
export type PublicStat = Static<typeof PublicStat>;
