-- Leaderboards order by value, then earlier updated_at (the tie-break): with updated_at in the index, a
-- top-N read stops after N entries even when many players share the top value. Replaces the value-only index.
DROP INDEX player_stats_rank_idx;
CREATE INDEX player_stats_top_idx ON player_stats (season_id, stat_id, value DESC, updated_at);
