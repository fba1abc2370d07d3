import { Type } from '@sinclair/typebox';
import { PlayerRef, SeasonRef, ServerScope } from '#src/http/schemas.ts';

/** The shapes of `GET /leaderboards` and `/leaderboards/rank`: their routes' schemas, and the service's types. */

export const LeaderboardQuery = Type.Object({
  season: Type.String({ minLength: 1, description: 'Season id or slug' }),
  stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
  limit: Type.Optional(Type.Integer({ default: 10, description: 'Clamped to 1–100' })),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      default: 0,
      description: 'Entries skipped (0–10000); ranks stay ranks of the whole board',
    }),
  ),
  server: ServerScope,
});

export const RankQuery = Type.Object({
  season: Type.String({ minLength: 1, description: 'Season id or slug' }),
  stat: Type.String({ minLength: 1, description: 'Public statistic key' }),
  player: Type.String({ format: 'uuid', description: 'Game player UUID' }),
  around: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 50, default: 5, description: 'Entries shown above and below the player' }),
  ),
  server: ServerScope,
});

export const LeaderboardEntry = Type.Object({
  rank: Type.Integer({ description: 'Competition rank: 1, 2, 2, 4' }),
  player: PlayerRef,
  value: Type.Number(),
  updated_at: Type.String({ format: 'date-time' }),
});

export const Leaderboard = Type.Object({
  season: SeasonRef,
  stat: Type.String(),
  entries: Type.Array(LeaderboardEntry),
});

export const Rank = Type.Object({
  season: SeasonRef,
  stat: Type.String(),
  total: Type.Integer({ description: 'Public players with a value' }),
  entry: LeaderboardEntry,
  entries: Type.Array(LeaderboardEntry, {
    description: 'Up to `around` entries above the player, its own, and up to `around` below, in order',
  }),
});
