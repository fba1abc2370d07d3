-- Values per server. A value is kept per (season, server, statistic, player) in `server_stats`; `player_stats`
-- stays the network row (the sum over the workspace's servers), written by the same statement, so every read of
-- network totals keeps its plan. Each row also carries its gain (what the player gained since the season began,
-- read when the season's scoring is 'gains'): per server, gain = carried + (value - baseline), never negative.
CREATE TABLE server_stats (
  season_id uuid NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  stat_id uuid NOT NULL REFERENCES stat_definitions (id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  value double precision NOT NULL,
  -- What the gain counts from: the player's last value on this server before the season started (any earlier
  -- season), else the first value observed in the season; 0 after the counter dropped (a world reset).
  baseline double precision NOT NULL,
  -- The gain kept from before the counter's last drop.
  carried double precision NOT NULL DEFAULT 0,
  gain double precision NOT NULL,
  -- The client's observed_at of the stored value: a batch observed earlier never overwrites it.
  observed_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The value and gain an update replaced (read back by RETURNING to move the network row by the difference).
  replaced_value double precision,
  replaced_gain double precision,
  PRIMARY KEY (season_id, server_id, stat_id, player_id)
);
-- A player's values (reads of one server, erasure), and the baseline: the player's last value of a statistic on
-- a server in an earlier season.
CREATE INDEX server_stats_player_idx ON server_stats (player_id, stat_id, server_id, observed_at);

-- The network row's gain (sum of its servers' gains), its board order, and the gain an update replaced.
ALTER TABLE player_stats ADD COLUMN gain double precision NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN replaced_gain double precision;
-- History points carry the gain too (reads of a 'gains' season).
ALTER TABLE stat_history ADD COLUMN gain double precision;

-- Existing values move to the server they came through: the server of the player's latest session in that season,
-- else of the player's latest session in the workspace, else the workspace's first registered server (its only
-- one, in most installs). A workspace without a server gets none: its values stay network values only (there is
-- no server to read them by) and gain a server row at their next upload.
INSERT INTO server_stats (season_id, server_id, stat_id, player_id, value, baseline, carried, gain, observed_at,
  updated_at)
SELECT ps.season_id, srv.id, ps.stat_id, ps.player_id, ps.value, 0, 0, 0, ps.observed_at, ps.updated_at
FROM player_stats ps
JOIN seasons se ON se.id = ps.season_id
CROSS JOIN LATERAL (
  SELECT coalesce(
    (SELECT g.server_id FROM game_sessions g WHERE g.player_id = ps.player_id AND g.season_id = ps.season_id
     ORDER BY g.last_seen_at DESC LIMIT 1),
    (SELECT g.server_id FROM game_sessions g WHERE g.player_id = ps.player_id AND g.workspace_id = se.workspace_id
     ORDER BY g.last_seen_at DESC LIMIT 1),
    (SELECT s.id FROM servers s WHERE s.workspace_id = se.workspace_id ORDER BY s.created_at, s.id LIMIT 1)
  ) AS id
) srv
WHERE srv.id IS NOT NULL;

-- Baselines of the migrated values: the player's last value of the statistic on the same server observed before
-- the season started (an earlier season), else the season's earliest history point, else the value itself (a
-- gain of 0 so far); a value below its baseline means the counter dropped, and counts from 0.
UPDATE server_stats ss SET baseline = b.baseline
FROM (
  SELECT ss2.season_id, ss2.server_id, ss2.stat_id, ss2.player_id,
    coalesce(
      (SELECT p.value FROM server_stats p JOIN seasons ps ON ps.id = p.season_id
       WHERE p.player_id = ss2.player_id AND p.stat_id = ss2.stat_id AND p.server_id = ss2.server_id
         AND p.season_id <> ss2.season_id AND ps.workspace_id = se.workspace_id AND p.observed_at < coalesce(se.started_at, se.created_at)
       ORDER BY p.observed_at DESC LIMIT 1),
      (SELECT h.value FROM stat_history h
       WHERE h.player_id = ss2.player_id AND h.season_id = ss2.season_id AND h.stat_id = ss2.stat_id
       ORDER BY h.at LIMIT 1),
      ss2.value) AS baseline
  FROM server_stats ss2 JOIN seasons se ON se.id = ss2.season_id
) b
WHERE ss.season_id = b.season_id AND ss.server_id = b.server_id AND ss.stat_id = b.stat_id
  AND ss.player_id = b.player_id;
UPDATE server_stats SET baseline = 0 WHERE value < baseline;
UPDATE server_stats SET gain = greatest(value - baseline, 0);

UPDATE player_stats ps SET gain = ss.gain
FROM server_stats ss
WHERE ss.season_id = ps.season_id AND ss.stat_id = ps.stat_id AND ss.player_id = ps.player_id;
-- History points' gains, from the same baseline (a point below it counts from 0).
UPDATE stat_history h SET gain = CASE WHEN h.value < ss.baseline THEN greatest(h.value, 0) ELSE h.value - ss.baseline END
FROM server_stats ss
WHERE ss.season_id = h.season_id AND ss.stat_id = h.stat_id AND ss.player_id = h.player_id;
UPDATE stat_history SET gain = greatest(value, 0) WHERE gain IS NULL;

-- The board of a 'gains' season: served like the board by value.
CREATE INDEX player_stats_gain_idx ON player_stats (season_id, stat_id, gain DESC, updated_at);
