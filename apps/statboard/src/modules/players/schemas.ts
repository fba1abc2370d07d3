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

export const RemovePlayerStatsQuery = Type.Object({
  season: Type.String({ minLength: 1, maxLength: 255, description: 'Season id or slug' }),
  stat: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Only this statistic (its key); default: all' }),
  ),
  server: Type.Optional(
    Type.String({ format: 'uuid', description: "Only this server's values (a server of the workspace)" }),
  ),
});

export const RemovePlayerStatsResponse = Type.Object({
  data: Type.Object({ values_removed: Type.Integer({ minimum: 0, description: 'Values removed' }) }),
});

export const ErasePlayerQuery = Type.Object({
  block: Type.Optional(
    Type.Boolean({ description: "Also discard this UUID's later uploads (until `DELETE …/block`)", default: false }),
  ),
});

/** A player whose uploads are discarded: only the game UUID is kept. */
export const PlayerBlock = Type.Object(
  {
    uuid: Uuid,
    blocked_at: DateTime,
    blocked_by: Type.Union([Uuid, Type.Null()], { description: 'The user who blocked (null: the CLI)' }),
  },
  { $id: 'PlayerBlock' },
);
