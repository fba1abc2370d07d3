-- Diagnostics of ingest: when a server last had a batch accepted, and the rejected batches of the last days,
-- counted per hour by reason, key, server address and player (written in batches, not per request).
ALTER TABLE servers ADD COLUMN last_ingest_at timestamptz;

CREATE TABLE ingest_rejections (
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  key_id uuid,
  hostname text,
  port integer,
  player_uuid uuid,
  count integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  CONSTRAINT ingest_rejections_bucket UNIQUE NULLS NOT DISTINCT
    (workspace_id, hour, code, key_id, hostname, port, player_uuid)
);
CREATE INDEX ingest_rejections_recent_idx ON ingest_rejections (workspace_id, last_at DESC);
