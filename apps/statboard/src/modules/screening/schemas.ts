import { type Static, Type } from '@sinclair/typebox';
import { DateTime, PageQuery, PaginationRef, Uuid } from '#src/http/schemas.ts';

export const ReviewStatus = Type.Union([Type.Literal('open'), Type.Literal('approved'), Type.Literal('rejected')]);

/** One held value (or username) of a review item, with its evidence. */
export const HeldValue = Type.Object({
  stat: Type.Union([Type.String(), Type.Null()], {
    description: "The statistic's key; null for a username (`rename`)",
  }),
  rule: Type.Union(
    [Type.Literal('rate'), Type.Literal('above_verified'), Type.Literal('first_sight'), Type.Literal('rename')],
    {
      description:
        '`rate`: rose faster than `max_per_hour` allows since the last stored value; `above_verified`: above the ' +
        "server's verified value by more than that; `first_sight`: a player new to the server straight into a top " +
        '10 of 20 or more; `rename`: a second change of the username within 30 days',
    },
  ),
  previous_value: Type.Union([Type.Number(), Type.String(), Type.Null()], {
    description:
      'The value compared with: the last stored one (`rate`), the verified one (`above_verified`), the current ' +
      'username (`rename`); null for `first_sight`',
  }),
  previous_at: Type.Union([DateTime, Type.Null()], {
    description: "When the value compared with arrived (the service's clock); for `rename`, the last change",
  }),
  value: Type.Union([Type.Number(), Type.String()], { description: 'The held value; the username for `rename`' }),
  observed_at: DateTime,
  received_at: DateTime,
  allowed: Type.Union([Type.Number(), Type.Null()], {
    description: 'The largest value the rule permitted; null for `first_sight` and `rename`',
  }),
});
export type HeldValue = Static<typeof HeldValue>;

export const ReviewItem = Type.Object(
  {
    id: Uuid,
    status: ReviewStatus,
    player: Type.Object({ uuid: Uuid, username: Type.String() }),
    server: Type.Object({ id: Uuid, name: Type.String() }),
    key: Type.Union([Type.Object({ id: Uuid, name: Type.String() }), Type.Null()], {
      description: 'The key of the latest upload held here (null: deleted since)',
    }),
    created_at: DateTime,
    updated_at: DateTime,
    uploads: Type.Integer({ description: 'Uploads that held values here' }),
    items: Type.Array(HeldValue, { description: 'The newest held value per statistic' }),
  },
  { $id: 'ReviewItem' },
);
export type ReviewItem = Static<typeof ReviewItem>;

export const ReviewListQuery = Type.Composite([Type.Object({ status: Type.Optional(ReviewStatus) }), PageQuery]);

export const ReviewListResponse = Type.Object({ data: Type.Array(Type.Ref(ReviewItem)), meta: PaginationRef });

export const ReviewDecision = Type.Object({
  data: Type.Object({
    item: Type.Ref(ReviewItem),
    stored: Type.Integer({ description: 'Held values stored (approve): those still the newest' }),
  }),
});
