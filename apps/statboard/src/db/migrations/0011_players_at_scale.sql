-- Players at scale: GET /players (key reads) and GET /admin/players stay fast with a million players in a
-- workspace, and their answers stay exact.

-- Taken first, held until the migration commits: no player is written between the backfill of the counts below
-- and the creation of the triggers that keep them (instances still on the previous version wait), and the
-- index builds never have to upgrade a weaker lock.
LOCK TABLE players IN SHARE ROW EXCLUSIVE MODE;

-- Case-insensitive username substring search (`username ILIKE '%term%'`, `%`, `_` and `\` escaped) through a
-- trigram index: a term of 3 characters or more reads only the candidate rows. pg_trgm is a trusted extension (a
-- database owner may create it without being superuser); PGlite loads it in db/pglite.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX players_username_trgm_idx ON players USING gin (username gin_trgm_ops);

-- The order of both lists, (lower(username), uuid) within a workspace: a page is read in order from the index and
-- stops after offset + limit rows, never sorting every player. It holds every column of a GET /players row, so a
-- page far down the list skips its offset in the index alone (an index-only scan, where the visibility map
-- allows), not one heap fetch per skipped player. Its prefix serves the case-insensitive exact `?username=`
-- lookup, as the (workspace_id, lower(username)) index it replaces did. Uploads still update players in place
-- (HOT): they change none of its columns (`username` only when a player renames).
CREATE INDEX players_workspace_lower_username_uuid_idx ON players (workspace_id, lower(username), uuid)
  INCLUDE (username, public, id);
DROP INDEX players_workspace_lower_username_idx;

-- The number of public players of each workspace: the total of an unfiltered GET /players, read as one row
-- instead of counted over every player. Exact: the triggers below keep it in the transaction that changes
-- players. No row: no public player yet (rows are created by the first public player). Goes with its workspace.
CREATE TABLE workspace_player_counts (
  workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
  public_players bigint NOT NULL
);

-- Lock contention, accepted: a statement that inserts new public players (or changes a player's visibility)
-- updates its workspace's counter row, and holds that row lock until its transaction commits, so concurrent
-- transactions that bring NEW players into the same workspace take turns at that point. Uploads of players
-- already known (by far the most frequent) never touch the counter: ON CONFLICT DO UPDATE inserts no row and does
-- not set `public` or `workspace_id`. Ingest writes a group in one statement (committed at once), and the rows
-- are locked in workspace order, so such statements wait for each other without deadlocking over the counters.
-- (A transaction that took a counter and then waited for a player row another one is inserting could deadlock
-- with it; none does today, the import and PUT /admin/players write players in one statement, and ingest retries
-- a deadlock.)

-- Statement-level with a transition table: one counter update per workspace per statement, however many players
-- it inserts (an import, an upload group); a statement that inserted nothing (only conflicts) writes nothing.
CREATE FUNCTION players_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workspace_player_counts AS c (workspace_id, public_players)
  SELECT workspace_id, count(*) FROM inserted_players WHERE public GROUP BY workspace_id ORDER BY workspace_id
  ON CONFLICT (workspace_id) DO UPDATE SET public_players = c.public_players + excluded.public_players;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_count_insert AFTER INSERT ON players REFERENCING NEW TABLE AS inserted_players
  FOR EACH STATEMENT EXECUTE FUNCTION players_count_inserted();

-- A plain UPDATE (never an insert): when the workspace itself is deleted, its counter row may already be gone.
CREATE FUNCTION players_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workspace_player_counts c SET public_players = c.public_players - d.n
  FROM (SELECT workspace_id, count(*) AS n FROM deleted_players WHERE public GROUP BY workspace_id) d
  WHERE c.workspace_id = d.workspace_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_count_delete AFTER DELETE ON players REFERENCING OLD TABLE AS deleted_players
  FOR EACH STATEMENT EXECUTE FUNCTION players_count_deleted();

-- Row-level, and only for a real change of `public` or `workspace_id` (an update that does not set them, as every
-- upload's does, does not even queue it). Changing visibility is one player at a time (PUT /admin/players).
CREATE FUNCTION players_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.public THEN
    UPDATE workspace_player_counts SET public_players = public_players - 1 WHERE workspace_id = OLD.workspace_id;
  END IF;
  IF NEW.public THEN
    INSERT INTO workspace_player_counts AS c (workspace_id, public_players) VALUES (NEW.workspace_id, 1)
    ON CONFLICT (workspace_id) DO UPDATE SET public_players = c.public_players + 1;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_count_update AFTER UPDATE OF public, workspace_id ON players
  FOR EACH ROW WHEN (OLD.public IS DISTINCT FROM NEW.public OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
  EXECUTE FUNCTION players_count_updated();

CREATE FUNCTION players_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM workspace_player_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_count_truncate AFTER TRUNCATE ON players
  FOR EACH STATEMENT EXECUTE FUNCTION players_count_truncated();

INSERT INTO workspace_player_counts (workspace_id, public_players)
SELECT workspace_id, count(*) FROM players WHERE public GROUP BY workspace_id;

-- Hidden players of a workspace (few): ranks answered by queries count their values apart, so that the
-- board's own counts read player_stats_top_idx alone.
CREATE INDEX players_hidden_idx ON players (workspace_id) WHERE NOT public;
