-- Values a server vouches for: written by the server-side agent (`POST /ingest/server`) and by `statboard import`,
-- never by a client upload. The newest verified value per (season, server, statistic, player) and when it arrived
-- by the service's clock; uploads from players' machines are compared with it (the `above_verified` rule).
CREATE TABLE verified_stats (
  season_id uuid NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
  stat_id uuid NOT NULL REFERENCES stat_definitions(id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  value double precision NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (season_id, server_id, stat_id, player_id)
);
-- "Has this server any verified value in this season" and a player's verified values.
CREATE INDEX verified_stats_player_idx ON verified_stats (player_id, season_id);
CREATE INDEX verified_stats_server_idx ON verified_stats (server_id, season_id);
