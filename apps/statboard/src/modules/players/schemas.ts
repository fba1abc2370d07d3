import { type Static, Type } from '@sinclair/typebox';
import { DateTime, PageQuery, PaginationRef, PlayerRef, SeasonRef, ServerScope, Uuid } from '#src/http/schemas.ts';

/** A player as administrators see it: the spec's Player plus when it was first and last seen. */
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
export type AdminPlayer = Static<typeof AdminPlayer>;

export const UpdatePlayerRequest = Type.Object({ public: Type.Boolean() });

export const PlayerParams = Type.Object({ player: Type.String({ format: 'uuid', description: 'Game player UUID' }) });

export const PlayerListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 64, description: 'Case-insensitive username substring' })),
  username: Type.Optional(
    Type.String({ maxLength: 64, description: 'Case-insensitive exact username (combinable with `search` and pages)' }),
  ),
  ...PageQuery.properties,
  season: Type.Optional(Type.String({ description: 'Accepted for compatibility; players are not per season' })),
});

export const PlayerListResponse = Type.Object({ data: Type.Array(PlayerRef), meta: PaginationRef });

export const PlayerStatsQuery = Type.Object({
  season: Type.Optional(Type.String({ description: 'Season id or slug' })),
  server: ServerScope,
});

export const PlayerStatsResponse = Type.Object({
  player: PlayerRef,
  season: SeasonRef,
  stats: Type.Array(
    Type.Object({
      key: Type.String(),
      value: Type.Number(),
      updated_at: Type.String({ format: 'date-time' }),
    }),
  ),
});
