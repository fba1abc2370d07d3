import { Type } from '@sinclair/typebox';
import { PlayerRef, SeasonRef, ServerScope } from '#src/http/schemas.ts';

/** The shapes of `GET /players/{player}/stats/history`: its route's schemas, and the service's types. */

const Interval = Type.Union([Type.Literal('hour'), Type.Literal('day')]);

export const HistoryQuery = Type.Object({
  stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
  season: Type.Optional(Type.String({ description: 'Season id or slug (default: the active season)' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Start (its bucket is included)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End, exclusive (default: now)' })),
  interval: Type.Optional({ ...Interval, default: 'day' }),
  server: ServerScope,
});

export const History = Type.Object({
  player: PlayerRef,
  season: SeasonRef,
  stat: Type.String(),
  interval: Interval,
  points: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time', description: "The bucket's start" }),
      value: Type.Number({ description: 'The value at the end of the bucket' }),
    }),
  ),
});
