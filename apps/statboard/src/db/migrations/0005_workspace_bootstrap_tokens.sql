-- A bootstrap token may name a workspace: redeeming it makes the signed-in user owner of that workspace even
-- though workspaces exist (a workspace created with the CLI gets its owner through the normal login).
ALTER TABLE bootstrap_tokens ADD COLUMN workspace_id uuid REFERENCES workspaces(id) ON DELETE CASCADE;
