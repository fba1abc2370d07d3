-- Events older than EVENT_RETENTION_DAYS are deleted in the background, oldest first, in small batches: they are
-- found by the time the service stored them (a client's clock does not decide how long an event is kept).
CREATE INDEX IF NOT EXISTS events_received_idx ON events (received_at);
