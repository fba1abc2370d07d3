import type { Actor } from '#src/access/principal.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db, Queryable } from '#src/db/types.ts';
import { AppError, invalid } from '#src/errors.ts';
import { type Page, pageOffset } from '#src/lib/page.ts';
import { iso, isoRequired } from '#src/lib/time.ts';
import { isUuid } from '#src/lib/uuid.ts';
import { checkBody } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import { blockedAddress, blockedHost, hostOf, resolveAll } from './address-guard.ts';
import type { Outbox } from './outbox.ts';
import * as repo from './repo.ts';
import { type Webhook, type WebhookDelivery, WebhookRequest } from './schemas.ts';
import { newSecret } from './signature.ts';

/** How long the previous secret keeps signing after a rotation, beside the new one. */
export const SECRET_GRACE_HOURS = 24;
/** How long resolving a webhook's host may take when it is saved. */
const RESOLVE_TIMEOUT_MS = 3_000;

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private addresses may be used. */
  allowPrivate: boolean;
}

function toWebhook(row: repo.WebhookRow): Webhook {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    url: row.url,
    description: row.description,
    events: row.events as Webhook['events'],
    enabled: row.enabled,
    pending_deliveries: row.pending_deliveries,
    last_delivery:
      row.last_attempt_at === null
        ? null
        : {
            at: isoRequired(row.last_attempt_at),
            ok: row.last_status_code !== null && row.last_status_code >= 200 && row.last_status_code < 300,
            status_code: row.last_status_code,
            error: row.last_error,
          },
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The body of a delivery, as it is signed and sent. */
export function deliveryBody(type: string, createdAt: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: isoRequired(createdAt), data });
}

/**
 * Webhooks of a workspace (admins change them; their URLs may hold a receiver's own token, so only admins read
 * them too). Creating, changing, rotating and deleting are audited; the secret is returned only when issued.
 */
export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly outbox: Outbox,
    private readonly settings: WebhookSettings,
  ) {}

  /** Checks a request and its URL: http(s), and not an address inside the network unless allowed. */
  private async settingsOf(input: unknown): Promise<repo.WebhookWrite> {
    const body = checkBody(WebhookRequest, input, 'The webhook is invalid.');
    const url = await this.checkUrl(body.url.trim());
    return {
      url,
      events: [...new Set(body.events)],
      description: body.description?.trim() || null,
      enabled: body.enabled !== false,
    };
  }

  private async checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('url', 'must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'must be an http or https URL');
    if (url.hostname === '') throw invalid('url', 'must name a host');
    if (this.settings.allowPrivate) return url.href;
    const host = hostOf(url);
    const byName = blockedHost(host);
    if (byName !== null) throw invalid('url', `${byName}; set WEBHOOK_ALLOW_PRIVATE=1 to allow it`);
    let addresses: string[] = [];
    try {
      addresses = await resolveAll(host, RESOLVE_TIMEOUT_MS);
    } catch {
      // Not resolvable now (no DNS yet, or a name being set up): every delivery checks again before connecting.
      return url.href;
    }
    for (const a of addresses) {
      const why = blockedAddress(a);
      if (why !== null) throw invalid('url', `${host} resolves to ${why}; set WEBHOOK_ALLOW_PRIVATE=1 to allow it`);
    }
    return url.href;
  }

  async list(workspaceId: string): Promise<Webhook[]> {
    return (await repo.listWebhooks(this.db, workspaceId)).map(toWebhook);
  }

  async get(workspaceId: string, id: string): Promise<Webhook> {
    return this.find(this.db, workspaceId, id);
  }

  private async find(db: Queryable, workspaceId: string, id: string): Promise<Webhook> {
    const row = isUuid(id) ? await repo.findWebhook(db, workspaceId, id.toLowerCase()) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Webhook not found.');
    return toWebhook(row);
  }

  async create(actor: Actor, workspaceId: string, input: unknown): Promise<{ data: Webhook; secret: string }> {
    const write = await this.settingsOf(input);
    const secret = newSecret();
    return this.db.transaction(async (tx) => {
      const id = await repo.insertWebhook(tx, workspaceId, write, secret);
      const created = await this.find(tx, workspaceId, id);
      await this.changes.publish(tx, { topic: 'webhook', workspaceId });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'WEBHOOK_CREATED',
        targetType: 'webhook',
        targetId: id,
        before: null,
        after: created,
      });
      return { data: created, secret };
    });
  }

  /** Replaces a webhook's URL, events, description and enabled flag (PUT). */
  async update(actor: Actor, workspaceId: string, id: string, input: unknown): Promise<Webhook> {
    const write = await this.settingsOf(input);
    return this.db.transaction(async (tx) => {
      const before = await this.find(tx, workspaceId, id);
      if (!(await repo.updateWebhook(tx, workspaceId, before.id, write))) {
        throw new AppError('NOT_FOUND', 'Webhook not found.');
      }
      const after = await this.find(tx, workspaceId, before.id);
      await this.changes.publish(tx, { topic: 'webhook', workspaceId });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'WEBHOOK_UPDATED',
        targetType: 'webhook',
        targetId: after.id,
        before,
        after,
      });
      return after;
    });
  }

  /** Deletes a webhook and its deliveries (pending ones are never sent). */
  async remove(actor: Actor, workspaceId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.find(tx, workspaceId, id);
      if (!(await repo.deleteWebhook(tx, workspaceId, before.id))) {
        throw new AppError('NOT_FOUND', 'Webhook not found.');
      }
      await this.changes.publish(tx, { topic: 'webhook', workspaceId });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'WEBHOOK_DELETED',
        targetType: 'webhook',
        targetId: before.id,
        before,
        after: null,
      });
    });
  }

  /**
   * A new secret, returned once. The previous one keeps signing beside it for SECRET_GRACE_HOURS (deliveries
   * carry both signatures), so a receiver can switch without refusing a delivery.
   */
  async rotateSecret(actor: Actor, workspaceId: string, id: string): Promise<{ data: Webhook; secret: string }> {
    const secret = newSecret();
    return this.db.transaction(async (tx) => {
      const before = await this.find(tx, workspaceId, id);
      const until = new Date(Date.now() + SECRET_GRACE_HOURS * 3_600_000);
      if (!(await repo.rotateSecret(tx, workspaceId, before.id, secret, until))) {
        throw new AppError('NOT_FOUND', 'Webhook not found.');
      }
      const after = await this.find(tx, workspaceId, before.id);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'WEBHOOK_SECRET_ROTATED',
        targetType: 'webhook',
        targetId: before.id,
        before,
        after: { ...after, previous_secret_valid_until: until.toISOString() },
      });
      return { data: after, secret };
    });
  }

  /** Queues a `webhook.test` event for this webhook alone; 409 when it is disabled (it would never be sent). */
  async test(actor: Actor, workspaceId: string, id: string): Promise<WebhookDelivery> {
    return this.db.transaction(async (tx) => {
      const hook = await this.find(tx, workspaceId, id);
      if (!hook.enabled) throw new AppError('CONFLICT', 'The webhook is disabled: enable it to send a test.');
      const deliveryId = await this.outbox.test(tx, workspaceId, hook.id, {
        webhook: { id: hook.id, url: hook.url },
        requested_by: actor.userId === null ? actor.label : { user_id: actor.userId },
      });
      if (deliveryId === null) throw new AppError('CONFLICT', 'The webhook is disabled: enable it to send a test.');
      const page = await repo.listDeliveries(tx, hook.id, 1, 0);
      return toDelivery(page[0]!);
    });
  }

  async deliveries(
    workspaceId: string,
    id: string,
    q: { page: number; perPage: number },
  ): Promise<Page<WebhookDelivery>> {
    const hook = await this.find(this.db, workspaceId, id);
    const offset = pageOffset(q.page, q.perPage);
    const rows = offset === null ? [] : await repo.listDeliveries(this.db, hook.id, q.perPage, offset);
    const total = rows[0]?.total ?? (await repo.countDeliveries(this.db, hook.id));
    return { data: rows.map(toDelivery), meta: { current_page: q.page, per_page: q.perPage, total } };
  }
}

function toDelivery(r: repo.DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    webhook_id: r.webhook_id,
    message_id: messageId(r.message_id),
    type: r.type as WebhookDelivery['type'],
    status: r.status,
    attempts: r.attempts.map((a) => ({ ...a, started_at: isoRequired(a.started_at) })),
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    delivered_at: iso(r.delivered_at),
    created_at: isoRequired(r.created_at),
    payload: JSON.parse(deliveryBody(r.type, r.message_created_at, r.data)),
  };
}

/** The `webhook-id` of a message: the same for every attempt, so receivers can drop a repeat. */
export function messageId(id: string): string {
  return `msg_${id.replaceAll('-', '')}`;
}
