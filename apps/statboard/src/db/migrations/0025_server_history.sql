-- History per server, as stat_history keeps the network's: each server's value at the end of an hour, so a read of
-- some servers (`server=`, a key restricted to servers) has their history, summed, when the player has values on
-- other servers too. Written by the statement that writes the server's value (the value it replaced, when the
-- value moves to a later hour, as `replaced_observed_at` tells).
ALTER TABLE server_stats ADD COLUMN replaced_observed_at timestamptz;

CREATE TABLE server_stat_history (
  player_id uuid NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  season_id uuid NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
  stat_id uuid NOT NULL REFERENCES stat_definitions(id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  value double precision NOT NULL,
  gain double precision,
  PRIMARY KEY (player_id, season_id, stat_id, server_id, at)
);
CREATE INDEX server_stat_history_at_idx ON server_stat_history (at);
