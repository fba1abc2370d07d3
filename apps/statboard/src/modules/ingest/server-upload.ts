import type { AuthKey } from '#src/access/auth-key.ts';
import { requirePlayer, requireSeason, soleServer } from '#src/access/restrictions.ts';
import { AppError } from '#src/errors.ts';
import { parseRfc3339 } from '#src/lib/rfc3339.ts';
import { CLIENT_CLOCK_SKEW_MS, observedNoLaterThan } from '#src/lib/upload-rules.ts';
import type { OnlineService } from '#src/modules/online/service.ts';
import type { PlayerBlocks } from '#src/modules/players/blocks.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import type { IngestDiagnostics } from './diagnostics.ts';
import type { IngestServerBody } from './schemas.ts';
import { discardedAsBlocked } from './service.ts';
import type { IngestItem, IngestWriter } from './writer.ts';

export interface ServerUploadResult {
  accepted: true;
  server_time: string;
  players: number;
  values: number;
}

const INVALID = 'The upload is invalid.';
/** Players of one upload waiting for the writer at once: about two of its groups (5,000 values each). */
const WRITER_WINDOW = 100;

/**
 * What the schema cannot say about a server's upload: each player once, each statistic of a player once (the
 * rule of a batch's statistics).
 */
function checkRepeats(body: IngestServerBody): void {
  const players = new Set<string>();
  for (const [i, p] of body.players.entries()) {
    const uuid = p.uuid.toLowerCase();
    if (players.has(uuid)) throw new AppError('INVALID_PAYLOAD', INVALID, { [`players.${i}.uuid`]: ['repeats'] });
    players.add(uuid);
    const keys = new Set<string>();
    for (const [j, s] of p.stats.entries()) {
      if (keys.has(s.key)) {
        throw new AppError('INVALID_PAYLOAD', INVALID, {
          [`players.${i}.stats.${j}.key`]: [`repeats the key '${s.key}'`],
        });
      }
      keys.add(s.key);
    }
  }
}

/**
 * `POST /ingest/server` (spec "Server-authoritative uploads"): a game server's own statistics, sent by
 * statboard-agent with an `ingest:server` key, which is restricted to exactly one server: the upload's. The
 * values go through the ingest writer (the same rules, webhooks and caches as batches) as **verified** values of
 * that server; `online`, when sent, then sets who is on that server now.
 */
export class ServerUploadService {
  constructor(
    private readonly writer: IngestWriter,
    private readonly servers: ServerService,
    private readonly seasons: SeasonService,
    private readonly online: OnlineService,
    private readonly diagnostics: IngestDiagnostics | null = null,
    private readonly blocks: Pick<PlayerBlocks, 'isBlocked'> | null = null,
  ) {}

  /** Checks in the order of batches: the body, player restriction 403, server 404, active season 404/403. */
  async upload(key: AuthKey, body: IngestServerBody, bytes = 0): Promise<ServerUploadResult> {
    checkRepeats(body);
    const observed = observedNoLaterThan(parseRfc3339(body.observed_at), Date.now() + CLIENT_CLOCK_SKEW_MS);
    for (const p of body.players) requirePlayer(key, p.uuid.toLowerCase(), 'upload');
    const online = body.online?.map((u) => u.toLowerCase());
    for (const uuid of online ?? []) requirePlayer(key, uuid, 'upload');
    // The scope rules keep `ingest:server` to keys of exactly one server.
    const serverId = soleServer(key);
    if (serverId === null) throw new AppError('FORBIDDEN', 'This API key is not restricted to exactly one server.');
    const server = await this.servers.findEnabledById(key.workspaceId, serverId);
    if (!server) throw new AppError('NOT_FOUND', "The API key's server is not registered or is disabled.");
    const season = await this.seasons.active(key.workspaceId);
    if (!season) throw new AppError('NOT_FOUND', 'There is no active season.');
    requireSeason(key, season.id, 'upload');

    // Blocked players' values are discarded, as their own uploads are, and counted once per upload.
    const kept = [];
    for (const p of body.players) {
      if (!(await discardedAsBlocked(this.blocks, this.diagnostics, key, server, p.uuid.toLowerCase()))) kept.push(p);
    }
    const items: IngestItem[] = kept.map((p) => ({
      workspaceId: key.workspaceId,
      seasonId: season.id,
      serverId: server.id,
      player: { uuid: p.uuid.toLowerCase(), username: p.username ?? null },
      sessionId: null,
      observedAt: observed,
      client: { modVersion: 'statboard-agent', gameVersion: 'unknown', loaderVersion: null },
      stats: p.stats,
      events: [],
      verified: true,
    }));
    const values = items.reduce((n, it) => n + it.stats.length, 0);
    // Each player's share of the body counts against the writer's queue bound.
    const share = Math.ceil(bytes / items.length);
    // A sliding window of players with the writer: enough to fill its groups, while each player's deadline (the
    // writer's, from its submission) still covers its wait. A failure stops further submissions.
    let next = 0;
    let failed = false;
    await Promise.all(
      Array.from({ length: Math.min(WRITER_WINDOW, items.length) }, async () => {
        while (!failed && next < items.length) {
          const item = items[next++]!;
          try {
            await this.write(item, share);
          } catch (err) {
            failed = true;
            throw err;
          }
        }
      }),
    );
    if (online !== undefined) await this.online.setServerPresence(key.workspaceId, server.id, season.id, online);
    this.diagnostics?.accepted(key.workspaceId, server.id, values);
    return { accepted: true, server_time: new Date().toISOString(), players: items.length, values };
  }

  /** The one door to the writer: a player's verified values of one server. */
  private write(item: IngestItem, bytes: number): Promise<void> {
    return this.writer.submit(item, bytes);
  }
}
