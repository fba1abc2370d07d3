-- One server's board (`server=`, or a key restricted to one server) in board order: its top, its pages and a
-- player's rank are read from this index as the network's are from player_stats_top_idx, instead of reading and
-- summing the server's whole board per request. A season that counts gains reads one server's board whole
-- (summed and kept in memory, see docs/scaling.md): a second index on every server row is not worth its writes.
CREATE INDEX server_stats_top_idx ON server_stats (season_id, server_id, stat_id, value DESC, updated_at);
