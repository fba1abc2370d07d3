-- Integrations: webhooks and their durable outbox.

-- Endpoints that hear of a workspace's events. `secret` signs every delivery (Standard Webhooks: HMAC-SHA256
-- keyed by the base64-decoded secret), so it is kept as issued; after a rotation the previous secret also signs
-- until `previous_secret_until`, so receivers can switch without missing a delivery.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text,
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id) WHERE enabled;

-- The outbox: one row per event, written in the transaction (or the statement) of the change it announces,
-- with one delivery per enabled webhook subscribed to its type at that moment.
CREATE TABLE webhook_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_messages_created_idx ON webhook_messages (created_at);

-- One event to one webhook. `pending` until a 2xx answer (`delivered`) or until retries have run out
-- (`failed`, at least 24 hours after the event). A sender holds a delivery while `locked_until` is in the
-- future (claimed with FOR UPDATE SKIP LOCKED: instances never send the same attempt at once; a sender that
-- died mid-delivery leaves it to be claimed again once the lease has passed).
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  message_id uuid NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  -- The claim of the sender holding it: only that sender records the attempt's outcome.
  lease uuid,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (webhook_id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC, id);
CREATE INDEX webhook_deliveries_message_idx ON webhook_deliveries (message_id);
CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (created_at) WHERE status <> 'pending';

-- Every attempt of a delivery, as the sender saw it: the HTTP status, or the error (timeout, refused, …).
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);
