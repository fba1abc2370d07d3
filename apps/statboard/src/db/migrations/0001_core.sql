-- Core schema of Statboard: workspaces, players, seasons, servers, statistic definitions, values, sessions,
-- events, API keys and bootstrap tokens. Forward-only; never edit after it has shipped.

CREATE TABLE workspaces (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE players (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  uuid uuid NOT NULL,
  username text NOT NULL,
  -- observed_at of the batch the username came from: a late batch never renames back.
  username_observed_at timestamptz NOT NULL,
  public boolean NOT NULL DEFAULT true,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, uuid)
);
CREATE INDEX players_workspace_username_idx ON players (workspace_id, username);

CREATE TABLE seasons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  active boolean NOT NULL DEFAULT false,
  started_at timestamptz,
  ended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, slug)
);
-- At most one active season per workspace.
CREATE UNIQUE INDEX seasons_one_active_idx ON seasons (workspace_id) WHERE active;

CREATE TABLE servers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  display_name text,
  -- Lower-cased, trailing dot removed: matched exactly against the normalised ingest hostname.
  hostname text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, hostname, port)
);

CREATE TABLE stat_definitions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  key text NOT NULL,
  display_name text,
  category text,
  public boolean NOT NULL DEFAULT true,
  sort_order text NOT NULL DEFAULT 'desc' CHECK (sort_order IN ('asc', 'desc')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, key)
);

CREATE TABLE player_stats (
  season_id uuid NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  stat_id uuid NOT NULL REFERENCES stat_definitions (id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  value double precision NOT NULL,
  -- The client's observed_at of the stored value: a batch observed earlier never overwrites it.
  observed_at timestamptz NOT NULL,
  -- Server time at which the stored value last changed (leaderboard tie-break: who reached it first).
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (season_id, stat_id, player_id)
);
CREATE INDEX player_stats_rank_idx ON player_stats (season_id, stat_id, value);
CREATE INDEX player_stats_player_idx ON player_stats (player_id, season_id);

CREATE TABLE game_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  session_id uuid NOT NULL,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  season_id uuid NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  mod_version text NOT NULL,
  game_version text NOT NULL,
  loader_version text,
  started_at timestamptz NOT NULL,
  -- Server time of the last accepted batch (heartbeat).
  last_seen_at timestamptz NOT NULL,
  ended_at timestamptz,
  UNIQUE (player_id, session_id)
);
CREATE INDEX game_sessions_presence_idx ON game_sessions (workspace_id, last_seen_at) WHERE ended_at IS NULL;

CREATE TABLE events (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  session_id uuid NOT NULL,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  season_id uuid NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('client', 'website', 'integration')),
  description text,
  -- SHA-256 of the secret part of the token, hex. The raw token is never stored.
  secret_hash text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  scopes text[] NOT NULL,
  player_restrictions uuid[] NOT NULL DEFAULT '{}',
  server_restrictions uuid[] NOT NULL DEFAULT '{}',
  season_restrictions uuid[] NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  last_used_at timestamptz,
  -- Set on revoke; may lie in the future during a rotation grace window.
  revoked_at timestamptz,
  rotated_from uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at);

CREATE TABLE bootstrap_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- SHA-256 of the whole token, hex.
  token_hash text NOT NULL UNIQUE,
  source text NOT NULL CHECK (source IN ('env', 'cli', 'startup')),
  expires_at timestamptz,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
