-- Players an owner erased and blocked: uploads naming one of these game UUIDs are answered as usual and discarded
-- (counted as rejections with code PLAYER_BLOCKED) until the block is lifted. Only the UUID is kept, never a name.
-- `blocked_by`: the signed-in user who blocked (null from the CLI, or once that user is deleted).
CREATE TABLE player_blocks (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  uuid uuid NOT NULL,
  blocked_at timestamptz NOT NULL DEFAULT now(),
  blocked_by uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (workspace_id, uuid)
);
