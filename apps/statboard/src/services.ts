import { KeyVerifier } from './access/key-verifier.ts';
import { ChangeBus } from './cache/bus.ts';
import { Changes } from './cache/changes.ts';
import type { Config } from './config.ts';
import { type Db, transactionalDb } from './db/types.ts';
import type { Metrics } from './metrics/metrics.ts';
import { KeyAdminService } from './modules/api-keys/service.ts';
import { AuditService } from './modules/audit-log/service.ts';
import { HistoryService } from './modules/history/service.ts';
import { ImportService } from './modules/import/service.ts';
import { IngestDiagnostics } from './modules/ingest/diagnostics.ts';
import { IngestService } from './modules/ingest/service.ts';
import { BoardCache } from './modules/leaderboards/boards.ts';
import { LeaderboardService } from './modules/leaderboards/service.ts';
import { OnlineService } from './modules/online/service.ts';
import { PlayerAdminService } from './modules/players/admin-service.ts';
import { PlayerService } from './modules/players/service.ts';
import { SeasonService } from './modules/seasons/service.ts';
import { ServerService } from './modules/servers/service.ts';
import { type Clock, SessionService } from './modules/sessions/service.ts';
import { SetupService } from './modules/setup/service.ts';
import { StatDefinitionService } from './modules/stats/service.ts';
import { UserService } from './modules/users/service.ts';
import { LeaderWatch } from './modules/webhooks/leaders.ts';
import { Outbox } from './modules/webhooks/outbox.ts';
import { WebhookService } from './modules/webhooks/service.ts';
import { WebhookSubscriptions } from './modules/webhooks/subscriptions.ts';
import { WorkspaceService } from './modules/workspaces/service.ts';

/**
 * The service layer: HTTP routes and the CLI only translate to these. Every change (keys, servers, seasons,
 * players, statistic definitions, users, workspaces, bootstrap) is one operation that takes its actor and
 * writes its own audit record in the transaction of the change.
 */
export interface Services {
  readonly db: Db;
  readonly workspaces: WorkspaceService;
  /** Verifies API keys (the hot path of every key request). */
  readonly verifier: KeyVerifier;
  /** API keys for the admin API and the CLI. */
  readonly keys: KeyAdminService;
  readonly servers: ServerService;
  readonly seasons: SeasonService;
  readonly players: PlayerService;
  readonly playerAdmin: PlayerAdminService;
  readonly stats: StatDefinitionService;
  readonly leaderboards: LeaderboardService;
  readonly history: HistoryService;
  readonly imports: ImportService;
  readonly online: OnlineService;
  readonly ingest: IngestService;
  readonly setup: SetupService;
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly audit: AuditService;
  readonly webhooks: WebhookService;
  /** The webhook outbox: changes store their events in it; the dispatcher is woken by it. */
  readonly outbox: Outbox;
  /** Rejected batches and servers' last accepted batch (written in batches). */
  readonly diagnostics: IngestDiagnostics;
  /** The Prometheus metrics (METRICS_PORT set), or null: nothing is counted. */
  readonly metrics: Metrics | null;
  /**
   * Runs `fn` with the same services built on one transaction: what they change commits together or not at
   * all, their reads see their own writes (no caches), and caches hear of the changes after the commit.
   */
  transaction<T>(fn: (tx: Services) => Promise<T>): Promise<T>;
  /** Writes what is buffered in memory (key last-use times, ingest diagnostics). */
  flush(): Promise<void>;
}

/** The settings the services use. */
export type ServiceConfig = Pick<
  Config,
  | 'nextUploadAfterSeconds'
  | 'sessionIdleMinutes'
  | 'sessionMaxHours'
  | 'playerCacheBytes'
  | 'rankCacheEntries'
  | 'rankCacheBytes'
  | 'historyEnabled'
  | 'historyRetentionDays'
  | 'timeouts'
  | 'webhooks'
>;

export interface ServiceOptions {
  /** The change bus shared with other instances (LISTEN/NOTIFY); default: this process only. */
  bus?: ChangeBus;
  /** Time for admin sessions (tests move it). */
  clock?: Clock;
  /** Where requests, uploads, caches and webhook deliveries are counted; default none. */
  metrics?: Metrics | null;
}

/**
 * The one composition root of the service layer, for the server, the CLI and the tests. Caches are kept on the
 * main handle only; `transaction` builds the same services again on the transaction, without caches.
 */
export function buildServices(db: Db, config: ServiceConfig, options: ServiceOptions = {}): Services {
  const bus = options.bus ?? ChangeBus.local();
  const metrics = options.metrics ?? null;
  // One collector for the process: it writes on its own connection, outside any transaction.
  const diagnostics = new IngestDiagnostics(db, Date.now, bus);
  const outbox = new Outbox();
  // What the ingest writer knows of rank 1s, for `leaderboard.leader_changed` (one for the process).
  const leaders = new LeaderWatch(bus, new WebhookSubscriptions(bus));
  const build = (handle: Db, caching: boolean): Services => {
    const changes = new Changes(bus, caching, metrics);
    const audit = new AuditService(handle);
    const verifier = new KeyVerifier(handle, changes);
    const keys = new KeyAdminService(handle, changes, audit, verifier, outbox);
    const servers = new ServerService(handle, changes, audit);
    const seasons = new SeasonService(handle, changes, audit, outbox);
    const workspaces = new WorkspaceService(handle, audit);
    const users = new UserService(handle, changes, audit);
    const players = new PlayerService(handle, changes, seasons, config.playerCacheBytes);
    const leaderboards = new LeaderboardService(
      handle,
      changes,
      seasons,
      new BoardCache(handle, changes, config.rankCacheEntries, config.rankCacheBytes),
    );
    const services: Services = {
      db: handle,
      workspaces,
      verifier,
      keys,
      servers,
      seasons,
      players,
      playerAdmin: new PlayerAdminService(handle, changes, audit),
      stats: new StatDefinitionService(handle, changes, audit),
      leaderboards,
      history: new HistoryService(handle, changes, players, seasons, leaderboards, config.historyRetentionDays),
      imports: new ImportService(handle, changes, audit, seasons, config.historyEnabled),
      online: new OnlineService(handle, changes),
      ingest: new IngestService(handle, bus, servers, seasons, config, diagnostics, { leaders, outbox }),
      setup: new SetupService(handle, workspaces, users, audit),
      users,
      sessions: new SessionService(handle, changes, users, config, options.clock),
      audit,
      webhooks: new WebhookService(handle, changes, audit, outbox, config.webhooks),
      outbox,
      diagnostics,
      metrics,
      transaction: (fn) => handle.transaction((tx) => fn(build(transactionalDb(tx, db.kind), false))),
      flush: async () => {
        await verifier.flushLastUsed();
        await diagnostics.flush();
      },
    };
    return services;
  };
  return build(db, true);
}
