import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableDateTime, NullableString, Uuid } from '#src/http/schemas.ts';

/** The events a webhook can subscribe to (`webhook.test` is sent by `POST /admin/webhooks/{id}/test`). */
export const WEBHOOK_EVENTS = [
  'season.activated',
  'season.ended',
  'api_key.revoked',
  'api_key.rotated',
  'player.first_seen',
  'leaderboard.leader_changed',
  'ingest.held',
  'webhook.test',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const EventName = Type.Union(
  WEBHOOK_EVENTS.map((e) => Type.Literal(e)),
  { description: 'An event type' },
);

export const Webhook = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    url: Type.String({ description: 'Where deliveries are POSTed' }),
    description: NullableString(),
    events: Type.Array(EventName),
    enabled: Type.Boolean({ description: 'A disabled webhook is sent nothing and collects no new deliveries' }),
    pending_deliveries: Type.Integer({ description: 'Deliveries not yet answered with a 2xx, still retried' }),
    last_delivery: Type.Union(
      [
        Type.Object({
          at: DateTime,
          ok: Type.Boolean(),
          status_code: Type.Union([Type.Integer(), Type.Null()]),
          error: NullableString(),
        }),
        Type.Null(),
      ],
      { description: 'The latest attempt of any delivery (null: none yet)' },
    ),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

/** Create and replace (PUT): `enabled` defaults to true. */
export const WebhookRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'An http(s) URL' }),
  events: Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  enabled: Type.Optional(Type.Boolean({ default: true })),
});
export type WebhookRequest = Static<typeof WebhookRequest>;

export const WebhookWithSecret = Type.Object(
  {
    data: Type.Ref(Webhook),
    secret: Type.String({
      description:
        'The signing secret (whsec_ and base64), shown only here: verify `webhook-signature` with it (Standard Webhooks)',
    }),
  },
  { $id: 'WebhookWithSecret' },
);

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  started_at: DateTime,
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status (null: none)" }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why there was no 2xx answer (timeout, refused, …)' }),
});

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    webhook_id: Uuid,
    message_id: Type.String({ description: 'The `webhook-id` header: the same on every attempt' }),
    type: EventName,
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description: 'pending: retried until answered with a 2xx or 24 hours have passed (then failed)',
    }),
    attempts: Type.Array(DeliveryAttempt),
    next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'When a pending delivery is tried next' }),
    delivered_at: NullableDateTime,
    created_at: DateTime,
    payload: Type.Unknown({ description: 'The body sent: {type, timestamp, data}' }),
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;
