-- Depth: the history of values, and lookups by username.

-- The value and observation an update replaced: the statement that writes a value reads them back (RETURNING)
-- to close the hour of the value it replaced as a history point, without reading the row twice.
ALTER TABLE player_stats ADD COLUMN replaced_value double precision;
ALTER TABLE player_stats ADD COLUMN replaced_observed_at timestamptz;

-- History points: the value a (player, season, statistic) had at the end of an hour (UTC) in which it changed,
-- at that hour's start. The current value (player_stats) is the point of its own hour and is not repeated
-- here. Past HISTORY_RETENTION_DAYS, only the last point of each day is kept (folded in the background).
CREATE TABLE stat_history (
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  season_id uuid NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  stat_id uuid NOT NULL REFERENCES stat_definitions (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  value double precision NOT NULL,
  PRIMARY KEY (player_id, season_id, stat_id, at)
);
-- The fold walks days in order.
CREATE INDEX stat_history_at_idx ON stat_history (at);

-- Days before this instant are folded, null: none yet (one row; the fold locks it, so instances take turns).
CREATE TABLE stat_history_fold (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  folded_until timestamptz
);
INSERT INTO stat_history_fold DEFAULT VALUES;

-- GET /players?username= (case-insensitive exact) and the players list's order.
CREATE INDEX players_workspace_lower_username_idx ON players (workspace_id, lower(username));
