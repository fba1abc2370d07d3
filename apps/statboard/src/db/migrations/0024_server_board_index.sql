-- One server's board (`server=`, or a key restricted to one server) in board order: its top, its pages and a
-- player's rank are read from this index as the network's are from player_stats_top_idx, instead of reading and
-- summing the server's whole board per request. A season that counts gains reads one server's board whole
-- (summed and kept in memory, see docs/scaling.md): a second index on every server row is not worth its writes.
-- The predicate is always true (`updated_at` is the service's clock); the board's queries name it and nothing else
-- does, so that a lookup of one player's value by its key is never planned on this index (on tables not analysed
-- yet the planner took it for the screening stage's lookups, scanning a server's whole board for each).
CREATE INDEX server_stats_top_idx ON server_stats (season_id, server_id, stat_id, value DESC, updated_at)
  WHERE updated_at > timestamptz '2000-01-01 00:00:00+00';
