import type { ChangeBus } from '#src/cache/bus.ts';
import type { Queryable } from '#src/db/types.ts';
import * as repo from './repo.ts';
import type { WebhookEvent } from './schemas.ts';

/** How long the subscriptions are trusted without a change heard (a missed notification heals within it). */
const TTL_MS = 30_000;

/**
 * Which events the enabled webhooks of each workspace subscribe to, for the ingest writer: it looks for new
 * leaders only where someone listens. Dropped on every webhook change (and whenever the bus missed something).
 * Only a hint: the outbox writes themselves read the webhooks in their statement.
 */
export class WebhookSubscriptions {
  private byWorkspace: Map<string, Set<string>> | null = null;
  private loadedAt = 0;
  private generation = 0;
  private loading: Promise<Map<string, Set<string>>> | null = null;

  constructor(private readonly bus: ChangeBus) {
    bus.subscribe((c) => {
      if (c === null || c.topic === 'webhook') this.forget();
    });
  }

  private forget(): void {
    this.byWorkspace = null;
    this.loading = null;
    this.generation++;
  }

  /**
   * True when an enabled webhook of the workspace subscribes to `event`; at once when known, else read through
   * `db` (the caller's connection or transaction: on the embedded database another one would wait for it).
   */
  has(db: Queryable, workspaceId: string, event: WebhookEvent): boolean | Promise<boolean> {
    if (this.byWorkspace && this.bus.healthy && Date.now() - this.loadedAt < TTL_MS) {
      return this.byWorkspace.get(workspaceId)?.has(event) === true;
    }
    return this.load(db).then((m) => m.get(workspaceId)?.has(event) === true);
  }

  private load(db: Queryable): Promise<Map<string, Set<string>>> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = repo.subscriptions(db).then((rows) => {
      const m = new Map<string, Set<string>>();
      for (const r of rows) {
        let set = m.get(r.workspace_id);
        if (!set) {
          set = new Set();
          m.set(r.workspace_id, set);
        }
        for (const e of r.events) set.add(e);
      }
      // A change heard while loading: what was read may already be old; the next call reads again.
      if (generation === this.generation) {
        this.byWorkspace = m;
        this.loadedAt = Date.now();
      }
      if (this.loading === loading) this.loading = null;
      return m;
    });
    this.loading = loading;
    loading.catch(() => {
      if (this.loading === loading) this.loading = null;
    });
    return loading;
  }
}
