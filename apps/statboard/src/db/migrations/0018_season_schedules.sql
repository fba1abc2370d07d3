-- Seasons start and end by themselves at their times. `start_pending` marks a season waiting for its
-- `started_at`: set when a season that is not active is given a start in the future, cleared once it has been
-- activated (by its schedule or by hand). A season created with a start in the past is a record of the past and
-- never activates by itself; an active season whose `ended_at` passes ends by itself (no flag needed).
ALTER TABLE seasons ADD COLUMN start_pending boolean NOT NULL DEFAULT false;

-- Seasons created before schedules existed with a start still ahead were meant to start then.
UPDATE seasons SET start_pending = true WHERE NOT active AND started_at > now();

-- A season re-activated by hand used to keep the `ended_at` of its earlier run: it is running again, so that
-- past end no longer applies (else it would end at once now that ends are acted on).
UPDATE seasons SET ended_at = NULL WHERE active AND ended_at <= now();

-- What the scheduler looks for every few seconds: starts due, and ends due.
CREATE INDEX seasons_pending_start_idx ON seasons (started_at) WHERE start_pending AND NOT active;
CREATE INDEX seasons_active_end_idx ON seasons (ended_at) WHERE active AND ended_at IS NOT NULL;
