import type { Feature } from '#src/feature.ts';
import { LeaderWatch } from './leaders.ts';
import { Outbox } from './outbox.ts';
import { webhookRoutes } from './routes.ts';
import { Webhook, WebhookDelivery, WebhookWithSecret } from './schemas.ts';
import { WebhookService } from './service.ts';
import { WebhookSubscriptions } from './subscriptions.ts';

declare module '#src/feature.ts' {
  interface Services {
    readonly webhooks: WebhookService;
    /** The webhook outbox: changes store their events in it; the dispatcher is woken by it. */
    readonly outbox: Outbox;
    /** What the ingest writer knows of rank 1s, for `leaderboard.leader_changed`. */
    readonly leaders: LeaderWatch;
  }
}

export const webhooksFeature = {
  name: 'webhooks',
  services: { webhooks: (s) => new WebhookService(s.db, s.changes, s.audit, s.outbox, s.config.webhooks) },
  shared: {
    outbox: () => new Outbox(),
    leaders: (s) => new LeaderWatch(s.bus, new WebhookSubscriptions(s.bus)),
  },
  schemas: [Webhook, WebhookWithSecret, WebhookDelivery],
  routes: (s, { admin }) => ({ v1: [webhookRoutes(s.webhooks, admin)] }),
} satisfies Feature;
