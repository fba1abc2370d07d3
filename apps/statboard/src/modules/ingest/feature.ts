import type { Feature } from '#src/feature.ts';
import { IngestDiagnostics } from './diagnostics.ts';
import { activityRoutes, ingestAdminRoutes, ingestRoutes } from './routes.ts';
import { serverIngestRoutes } from './server-routes.ts';
import { ServerUploadService } from './server-upload.ts';
import { IngestService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    readonly ingest: IngestService;
    /** Rejected batches and servers' last accepted batch (written in batches). */
    readonly diagnostics: IngestDiagnostics;
    /** A game server's own uploads (statboard-agent): verified values, and who is online. */
    readonly serverUploads: ServerUploadService;
  }
}

export const ingestFeature = {
  name: 'ingest',
  services: {
    ingest: (s) =>
      new IngestService(
        s.db,
        s.bus,
        s.servers,
        s.seasons,
        s.config,
        s.diagnostics,
        { leaders: s.leaders, outbox: s.outbox },
        s.playerBlocks,
        s.screening,
      ),
    serverUploads: (s) =>
      new ServerUploadService(s.ingest.writer, s.servers, s.seasons, s.online, s.diagnostics, s.playerBlocks),
  },
  // One collector for the process: it writes on its own connection, outside any transaction.
  shared: { diagnostics: (s) => new IngestDiagnostics(s.db, Date.now, s.bus) },
  flush: (s) => s.diagnostics.flush(),
  routes: (s, { config, key, admin }) => ({
    v1: [
      ingestRoutes(s.ingest, key.guard, config.ingestBodyLimit, s.diagnostics, s.metrics),
      serverIngestRoutes(s.serverUploads, key.guard, config.ingestServerBodyLimit, s.metrics),
      ingestAdminRoutes(s.diagnostics, admin),
      activityRoutes(s.diagnostics, admin),
    ],
  }),
} satisfies Feature;
