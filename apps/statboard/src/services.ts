import type { Config } from './config.ts';
import type { Db } from './db/types.ts';
import { BootstrapService } from './modules/bootstrap/service.ts';
import { IngestService } from './modules/ingest/service.ts';
import { KeyService } from './modules/keys/service.ts';
import { LeaderboardService } from './modules/leaderboards/service.ts';
import { PlayerService } from './modules/players/service.ts';
import { PresenceService } from './modules/presence/service.ts';
import { SeasonService } from './modules/seasons/service.ts';
import { ServerService } from './modules/servers/service.ts';
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
  /** Writes what is buffered in memory (key last-use times). */
  flush(): Promise<void>;
}

export function buildServices(db: Db, config: Pick<Config, 'nextUploadAfterSeconds'>): Services {
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
    players: new PlayerService(db, seasons),
    leaderboards: new LeaderboardService(db, seasons),
    presence: new PresenceService(db),
    ingest: new IngestService(db, servers, seasons, config.nextUploadAfterSeconds),
    bootstrap: new BootstrapService(db, workspaces),
    flush: () => keys.flushLastUsed(),
  };
}
