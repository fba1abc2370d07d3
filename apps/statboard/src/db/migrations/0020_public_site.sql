-- A workspace's public site (`/p/<workspace slug>/`): off until an admin turns it on. `featured_stats` are
-- statistic keys shown on the home page; `embed_origins` the origins whose pages may frame the embeds (empty:
-- any origin may).
CREATE TABLE public_sites (
  workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  title text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  featured_stats text[] NOT NULL DEFAULT '{}',
  embed_origins text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);
