-- How a season ranks its values: 'absolute' (the counters as the game reports them, for a season on a fresh
-- world) or 'gains' (what each player gained since the season began). Existing seasons keep ranking as before.
ALTER TABLE seasons ADD COLUMN scoring text NOT NULL DEFAULT 'absolute' CHECK (scoring IN ('absolute', 'gains'));
