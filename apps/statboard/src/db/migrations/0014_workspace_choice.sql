-- A user who belongs to several workspaces chooses the one the console acts in. The session remembers its choice;
-- the user's last choice is where their next session starts. Null, or a workspace they no longer belong to: their
-- oldest membership, as before. A deleted workspace clears the choice.
ALTER TABLE admin_sessions ADD COLUMN workspace_id uuid REFERENCES workspaces (id) ON DELETE SET NULL;
ALTER TABLE users ADD COLUMN last_workspace_id uuid REFERENCES workspaces (id) ON DELETE SET NULL;
