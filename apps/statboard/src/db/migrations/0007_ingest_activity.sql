-- Uploads per hour, for GET /admin/activity: accepted and rejected batches and values written (kept; one row per
-- workspace and hour, written in batches by the service).
CREATE TABLE ingest_activity (
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  batches_accepted integer NOT NULL DEFAULT 0,
  batches_rejected integer NOT NULL DEFAULT 0,
  values_written integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, hour)
);
CREATE INDEX players_first_seen_idx ON players (workspace_id, first_seen_at);
CREATE INDEX game_sessions_activity_idx ON game_sessions (workspace_id, last_seen_at);
