import { type Static, Type } from '@sinclair/typebox';
import {
  MAX_VALUE,
  PLAYER_NAME_MAX_LENGTH,
  PLAYER_NAME_MIN_LENGTH,
  PLAYER_NAME_PATTERN,
  PLAYER_NAME_RULE,
  STAT_KEY_MAX_LENGTH,
  STAT_KEY_PATTERN,
} from '#src/lib/upload-rules.ts';

const DateTime = Type.String({ format: 'date-time', maxLength: 64 });
const Version = Type.String({ minLength: 1, maxLength: 64 });
const NullableVersion = Type.Union([Type.String({ maxLength: 64 }), Type.Null()]);

export const StatObservation = Type.Object({
  key: Type.String({ minLength: 1, maxLength: STAT_KEY_MAX_LENGTH, pattern: STAT_KEY_PATTERN }),
  value: Type.Number({ minimum: -MAX_VALUE, maximum: MAX_VALUE }),
});

export const ClientEvent = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: Type.String({ minLength: 1, maxLength: 64 }),
  occurred_at: DateTime,
  payload: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      default: {},
      description: 'At most 4 KB (4096 bytes) as JSON in UTF-8, nested at most 32 levels',
    }),
  ),
});

/**
 * The ingest body. `client.game_version` has the alias `minecraft_version` and
 * `client.loader_version` the alias `fabric_loader_version` (what the real mod sends); one of the first pair
 * is required, which the service checks. Unknown fields are ignored.
 */
export const IngestBatchBody = Type.Object({
  protocol_version: Type.Integer({ enum: [1] }),
  client: Type.Object({
    mod_version: Version,
    game_version: Type.Optional(Version),
    minecraft_version: Type.Optional(Version),
    loader_version: Type.Optional(NullableVersion),
    fabric_loader_version: Type.Optional(NullableVersion),
  }),
  player: Type.Object({
    uuid: Type.String({ format: 'uuid' }),
    username: Type.String({
      minLength: PLAYER_NAME_MIN_LENGTH,
      maxLength: PLAYER_NAME_MAX_LENGTH,
      pattern: PLAYER_NAME_PATTERN,
      description: PLAYER_NAME_RULE,
    }),
  }),
  server: Type.Object({
    hostname: Type.String({ minLength: 1, maxLength: 253 }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
  }),
  season: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
      description: 'Hint only; the service decides the season.',
    }),
  ),
  session_id: Type.String({ format: 'uuid' }),
  observed_at: DateTime,
  stats: Type.Optional(Type.Array(StatObservation, { maxItems: 500, default: [] })),
  events: Type.Optional(
    Type.Array(ClientEvent, { maxItems: 100, default: [], description: 'At most 100 events a batch' }),
  ),
});
export type IngestBatchBody = Static<typeof IngestBatchBody>;

export const IngestBatchQuery = Type.Object({
  dry_run: Type.Optional(
    Type.Boolean({
      description: 'true: every check of a real upload, in the same order with the same errors, and nothing written',
    }),
  ),
});

export const IngestBatchResponse = Type.Object({
  accepted: Type.Literal(true),
  dry_run: Type.Optional(Type.Literal(true, { description: 'Present (true) when nothing was written' })),
  request_id: Type.String(),
  server_time: Type.String({ format: 'date-time' }),
  next_upload_after: Type.Integer({ minimum: 1 }),
});

/** Players in one `POST /ingest/server` request. */
export const MAX_SERVER_PLAYERS = 500;
/** Players a server may list as online in one request. */
export const MAX_SERVER_ONLINE = 10_000;

/**
 * `POST /ingest/server`: a server's statistics files, as the agent reads them (spec "Server-authoritative
 * uploads"). Each player's statistics follow the rules of a batch's; the server is the key's.
 */
export const IngestServerBody = Type.Object({
  observed_at: DateTime,
  players: Type.Array(
    Type.Object({
      uuid: Type.String({ format: 'uuid' }),
      username: Type.Optional(
        Type.String({
          minLength: PLAYER_NAME_MIN_LENGTH,
          maxLength: PLAYER_NAME_MAX_LENGTH,
          pattern: PLAYER_NAME_PATTERN,
          description: `${PLAYER_NAME_RULE}. Absent: the player keeps its name`,
        }),
      ),
      stats: Type.Array(StatObservation, { maxItems: 500, description: 'At most 500 a player, each key once' }),
    }),
    { minItems: 1, maxItems: MAX_SERVER_PLAYERS, description: '1–500 players, each once' },
  ),
  online: Type.Optional(
    Type.Array(Type.String({ format: 'uuid' }), {
      maxItems: MAX_SERVER_ONLINE,
      description:
        "Sent: the complete list of players on the key's server now. Their presence there starts or continues, everyone else's there ends",
    }),
  ),
});
export type IngestServerBody = Static<typeof IngestServerBody>;

export const IngestServerResponse = Type.Object({
  accepted: Type.Literal(true),
  request_id: Type.String(),
  server_time: Type.String({ format: 'date-time' }),
  players: Type.Integer({ minimum: 0, description: 'Players in the request' }),
  values: Type.Integer({ minimum: 0, description: 'Statistic values in the request' }),
});
