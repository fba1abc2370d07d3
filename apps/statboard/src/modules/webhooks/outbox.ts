import type { Queryable } from '#src/db/types.ts';
import * as repo from './repo.ts';
import type { WebhookEvent } from './schemas.ts';

/**
 * The webhook outbox. `add` takes the transaction of the change it announces, so the event is stored if and only
 * if the change commits; senders are woken after the commit (other instances find it on their next poll).
 */
export class Outbox {
  private readonly listeners: (() => void)[] = [];

  /** Called after a commit that stored deliveries (the dispatcher sends them at once instead of at its next poll). */
  onStored(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Wakes the senders: deliveries were stored by a statement that has committed. */
  stored(): void {
    for (const fn of this.listeners) fn();
  }

  /** Stores an event for the workspace's webhooks subscribed to `type`; returns the deliveries created. */
  async add(tx: Queryable, workspaceId: string, type: WebhookEvent, data: unknown): Promise<number> {
    const rows = await repo.enqueue(tx, workspaceId, type, data);
    if (rows.length > 0) this.afterCommit(tx);
    return rows.length;
  }

  /** Stores a `webhook.test` event for one webhook, whatever it subscribes to; returns its delivery id. */
  async test(tx: Queryable, workspaceId: string, webhookId: string, data: unknown): Promise<string | null> {
    const rows = await repo.enqueue(tx, workspaceId, 'webhook.test', data, webhookId);
    if (rows.length > 0) this.afterCommit(tx);
    return rows[0]?.id ?? null;
  }

  private afterCommit(tx: Queryable): void {
    if (tx.afterCommit) tx.afterCommit(() => this.stored());
    else this.stored();
  }
}
