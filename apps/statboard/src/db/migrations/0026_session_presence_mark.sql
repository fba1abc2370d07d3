-- Heartbeats as heap-only updates. Every accepted batch is its session's heartbeat (`last_seen_at = now()`), and
-- `last_seen_at` was in two of the table's four indexes (presence and activity), so every heartbeat was a new row
-- version with four new index entries. The indexes now hold `presence_mark`, a copy of `last_seen_at` moved
-- forward only when it is PRESENCE_MARK_SECONDS (300) or more behind: a heartbeat in between changes no indexed
-- column and is a HOT update (fillfactor leaves room for it on the row's page). `last_seen_at` stays exact; queries
-- by time range narrow by the mark (`presence_mark > t - 300 s` holds for every row with `last_seen_at > t`) and
-- then compare `last_seen_at` itself.
ALTER TABLE game_sessions ADD COLUMN presence_mark timestamptz NOT NULL DEFAULT now();
UPDATE game_sessions SET presence_mark = last_seen_at;
ALTER TABLE game_sessions SET (fillfactor = 80);
DROP INDEX game_sessions_activity_idx;
DROP INDEX game_sessions_presence_idx;
CREATE INDEX game_sessions_activity_idx ON game_sessions (workspace_id, presence_mark);
CREATE INDEX game_sessions_presence_idx ON game_sessions (workspace_id, presence_mark) WHERE ended_at IS NULL;
