import { ChangeBus } from './cache/bus.ts';
import type { Config } from './config.ts';
import type { Db } from './db/types.ts';
import { AuditService } from './modules/audit/service.ts';
import { BootstrapService } from './modules/bootstrap/service.ts';
import { IngestService } from './modules/ingest/service.ts';
import { KeyService } from './modules/keys/service.ts';
import { LeaderboardService } from './modules/leaderboards/service.ts';
import { PlayerAdminService } from './modules/players/admin-service.ts';
import { PlayerService } from './modules/players/service.ts';
import { PresenceService } from './modules/presence/service.ts';
import { SeasonService } from './modules/seasons/service.ts';
import { ServerService } from './modules/servers/service.ts';
import { type Clock, SessionService } from './modules/sessions/service.ts';
import { StatDefinitionService } from './modules/stat-definitions/service.ts';
import { UserService } from './modules/users/service.ts';
import { WorkspaceService } from './modules/workspaces/service.ts';

/** The service layer: HTTP routes and the CLI both call these, nothing is implemented twice. */
export interface Services {
  readonly db: Db;
  readonly workspaces: WorkspaceService;
  readonly keys: KeyService;
  readonly servers: ServerService;
  readonly seasons: SeasonService;
  readonly players: PlayerService;
  readonly leaderboards: LeaderboardService;
  readonly presence: PresenceService;
  readonly ingest: IngestService;
  readonly bootstrap: BootstrapService;
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly audit: AuditService;
  readonly statDefinitions: StatDefinitionService;
  readonly playerAdmin: PlayerAdminService;
  /** Writes what is buffered in memory (key last-use times). */
  flush(): Promise<void>;
}

export function buildServices(
  db: Db,
  config: Pick<Config, 'nextUploadAfterSeconds'> &
    Partial<Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours' | 'playerCacheBytes'>>,
  options: { clock?: Clock } = {},
): Services {
  // One process without a shared bus (PGlite, the CLI, tests): caches are invalidated in-process only.
  db.changes ??= ChangeBus.local();
  const keys = new KeyService(db);
  const servers = new ServerService(db);
  const seasons = new SeasonService(db);
  const workspaces = new WorkspaceService(db);
  return {
    db,
    workspaces,
    keys,
    servers,
    seasons,
    players: new PlayerService(db, seasons, config.playerCacheBytes),
    leaderboards: new LeaderboardService(db, seasons),
    presence: new PresenceService(db),
    ingest: new IngestService(db, servers, seasons, config.nextUploadAfterSeconds),
    bootstrap: new BootstrapService(db, workspaces),
    users: new UserService(db),
    sessions: new SessionService(
      db,
      { sessionIdleMinutes: config.sessionIdleMinutes ?? 120, sessionMaxHours: config.sessionMaxHours ?? 12 },
      options.clock,
    ),
    audit: new AuditService(db),
    statDefinitions: new StatDefinitionService(db),
    playerAdmin: new PlayerAdminService(db),
    flush: () => keys.flushLastUsed(),
  };
}
