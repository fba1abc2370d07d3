-- Uploads that do not add up ("Trusting the numbers" in the README). Client keys live on players' machines: their values are
-- screened before they are stored, and what does not add up waits for a person in the review queue.

-- The most a statistic may rise in an hour of the service's clock (null: no limit). Ingest fills it when it creates
-- a definition (stat-defaults.ts: 20,000,000 for the game's distances, 72,000 for every other `minecraft.` key,
-- null for other namespaces); here the same rule for the definitions that exist.
ALTER TABLE stat_definitions ADD COLUMN max_per_hour double precision CHECK (max_per_hour IS NULL OR max_per_hour >= 0);
-- Created by a client upload (at most 50 a day per workspace; imports, the agent and admins are not counted).
ALTER TABLE stat_definitions ADD COLUMN from_client boolean NOT NULL DEFAULT false;
UPDATE stat_definitions SET max_per_hour = CASE
  WHEN key ~ '^minecraft\.custom:minecraft\.[A-Za-z0-9_./+-]*_one_cm$' THEN 20000000
  WHEN key ~ '^minecraft\.[a-z0-9_]+:[a-z0-9_-]+\.[A-Za-z0-9_./+-]+$' THEN 72000
END;
CREATE INDEX stat_definitions_client_created_idx ON stat_definitions (workspace_id, created_at) WHERE from_client;

-- When a client upload last changed the player's username (the `rename` rule: a second change within 30 days
-- waits for review).
ALTER TABLE players ADD COLUMN username_changed_at timestamptz;

-- The review queue: one open item per (server, player), collecting that player's held values.
CREATE TABLE review_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
  player_uuid uuid NOT NULL,
  -- The username the uploads gave (a player held at first sight may have no row in `players`).
  username text NOT NULL,
  key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'rejected')),
  uploads integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX review_items_open_idx ON review_items (server_id, player_uuid) WHERE status = 'open';
CREATE INDEX review_items_list_idx ON review_items (workspace_id, status, created_at DESC);

-- The held values of an item: the newest per statistic (`stat` '' is the username, rule `rename`).
CREATE TABLE review_values (
  item_id uuid NOT NULL REFERENCES review_items(id) ON DELETE CASCADE,
  stat text NOT NULL,
  season_id uuid NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
  rule text NOT NULL CHECK (rule IN ('rate', 'above_verified', 'first_sight', 'rename')),
  previous_value double precision,
  previous_username text,
  previous_at timestamptz,
  value double precision,
  username text,
  observed_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  allowed double precision,
  PRIMARY KEY (item_id, stat)
);
