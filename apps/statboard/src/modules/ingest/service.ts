import type { AuthKey } from '#src/access/auth-key.ts';
import { requirePlayer, requireSeason, requireServer } from '#src/access/restrictions.ts';
import type { ChangeBus } from '#src/cache/bus.ts';
import type { Config } from '#src/config.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { parseRfc3339 } from '#src/lib/rfc3339.ts';
import { CLIENT_CLOCK_SKEW_MS, observedNoLaterThan } from '#src/lib/upload-rules.ts';
import type { PlayerBlocks } from '#src/modules/players/blocks.ts';
import { PLAYERS_PER_KEY_HOUR, type ScreeningStage } from '#src/modules/screening/stage.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import type { IngestDiagnostics } from './diagnostics.ts';
import type { IngestBatchBody } from './schemas.ts';
import { type IngestHooks, IngestWriter } from './writer.ts';

/**
 * Event payloads are stored as jsonb: PostgreSQL refuses very deep nesting ("stack depth limit exceeded", a 500),
 * and the NUL/surrogate check of app.ts looks only 64 levels deep. Deeper payloads are a client error.
 */
const MAX_PAYLOAD_DEPTH = 32;

/**
 * An event payload is at most this many bytes, measured as its JSON text in UTF-8 (as re-serialized from the
 * parsed body, so whitespace and escapes the client sent do not count). Events are kept for EVENT_RETENTION_DAYS:
 * without it, one client key could store ~10 KB per event, 100 events per batch, as fast as it can upload.
 */
export const MAX_PAYLOAD_BYTES = 4_096;

/** True when `value` has arrays or objects nested more than `limit` levels (recursion stops at the limit). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((v) => nestedDeeperThan(v, limit - 1));
}

/** The rejection code of an upload for a blocked player (answered 200, discarded). */
export const PLAYER_BLOCKED = 'PLAYER_BLOCKED';
export const PLAYER_BLOCKED_MESSAGE =
  'Upload discarded: an owner erased this player and blocked their uploads (DELETE /admin/players/{player}/block lets them in again).';

/**
 * Whether `uuid` is blocked in the key's workspace: its upload (a batch, or its part of a server's upload) is then
 * discarded, answered as any other, and counted as PLAYER_BLOCKED against the key and server.
 */
export async function discardedAsBlocked(
  blocks: Pick<PlayerBlocks, 'isBlocked'> | null,
  diagnostics: IngestDiagnostics | null,
  key: AuthKey,
  server: { hostname: string; port: number },
  uuid: string,
): Promise<boolean> {
  if (!blocks || !(await blocks.isBlocked(key.workspaceId, uuid))) return false;
  diagnostics?.rejected({
    workspaceId: key.workspaceId,
    code: PLAYER_BLOCKED,
    message: PLAYER_BLOCKED_MESSAGE,
    keyId: key.id,
    hostname: server.hostname,
    port: server.port,
    playerUuid: uuid,
  });
  return true;
}

export interface IngestResult {
  accepted: true;
  server_time: string;
  next_upload_after: number;
}

/**
 * Ingest of one batch, with the checks in the documented order after the schema: player restriction 403, server
 * 404/403, active season 404/403. Then the batch is written (one transaction, possibly shared with concurrent
 * batches) and only then answered: a 200 means durable.
 */
export class IngestService {
  readonly writer: IngestWriter;

  constructor(
    db: Db,
    bus: ChangeBus,
    private readonly servers: ServerService,
    private readonly seasons: SeasonService,
    config: Pick<Config, 'nextUploadAfterSeconds' | 'timeouts' | 'historyEnabled' | 'clientNewStatsPerDay'>,
    private readonly diagnostics: IngestDiagnostics | null = null,
    hooks: IngestHooks | null = null,
    private readonly blocks: Pick<PlayerBlocks, 'isBlocked'> | null = null,
    /** The screening stage of uploads from players' machines; null: every value is stored (tools, benchmarks). */
    private readonly screening: ScreeningStage | null = null,
  ) {
    this.nextUploadAfter = config.nextUploadAfterSeconds;
    this.newStatsPerDay = config.clientNewStatsPerDay;
    const t = config.timeouts;
    this.writer = new IngestWriter(
      db,
      bus,
      db.kind === 'pglite' ? 1 : 2,
      {
        maxBatches: t.ingestQueueBatches,
        maxBytes: t.ingestQueueBytes,
        // The longest the service waits for the database: an upload is answered within it whatever happens.
        deadlineMs: t.databaseQueryMs,
        history: config.historyEnabled,
      },
      hooks,
    );
  }

  private readonly nextUploadAfter: number;
  private readonly newStatsPerDay: number;

  /**
   * `bytes`: the body's size as received (bounds the memory of batches waiting for the writer). `dryRun`: every
   * check, then nothing is written.
   */
  async ingest(key: AuthKey, body: IngestBatchBody, bytes = 0, dryRun = false): Promise<IngestResult> {
    const gameVersion = body.client.game_version ?? body.client.minecraft_version;
    if (gameVersion === undefined) {
      throw new AppError('INVALID_PAYLOAD', 'The batch is invalid.', { 'client.game_version': ['is required'] });
    }
    const stats = body.stats ?? [];
    const seen = new Set<string>();
    for (const [i, s] of stats.entries()) {
      if (seen.has(s.key)) {
        throw new AppError('INVALID_PAYLOAD', 'The batch is invalid.', {
          [`stats.${i}.key`]: [`repeats the key '${s.key}'`],
        });
      }
      seen.add(s.key);
    }
    for (const [i, e] of (body.events ?? []).entries()) {
      if (nestedDeeperThan(e.payload, MAX_PAYLOAD_DEPTH)) {
        throw new AppError('INVALID_PAYLOAD', 'The batch is invalid.', {
          [`events.${i}.payload`]: [`must not be nested deeper than ${MAX_PAYLOAD_DEPTH} levels`],
        });
      }
      // After the depth check: JSON.stringify recurses, and a payload within the depth cannot exhaust the stack.
      if (e.payload !== undefined && Buffer.byteLength(JSON.stringify(e.payload), 'utf8') > MAX_PAYLOAD_BYTES) {
        throw new AppError('INVALID_PAYLOAD', 'The batch is invalid.', {
          [`events.${i}.payload`]: [`must be at most 4 KB (${MAX_PAYLOAD_BYTES} bytes) as JSON`],
        });
      }
    }
    const observed = parseRfc3339(body.observed_at);
    const events = (body.events ?? []).map((e) => ({
      id: e.id.toLowerCase(),
      type: e.type,
      occurredAt: new Date(parseRfc3339(e.occurred_at)).toISOString(),
      payload: e.payload ?? {},
    }));

    const uuid = body.player.uuid.toLowerCase();
    requirePlayer(key, uuid, 'upload');
    const server = await this.servers.findEnabled(key.workspaceId, body.server.hostname, body.server.port);
    if (!server) {
      throw new AppError(
        'NOT_FOUND',
        `No enabled server is registered as ${body.server.hostname}:${body.server.port}.`,
      );
    }
    requireServer(key, server.id, 'upload');
    const season = await this.seasons.active(key.workspaceId);
    if (!season) throw new AppError('NOT_FOUND', 'There is no active season.');
    requireSeason(key, season.id, 'upload');

    if (dryRun) return this.result();
    // A blocked player's upload is answered as any other (the mod on their machine keeps going) and discarded.
    if (await discardedAsBlocked(this.blocks, this.diagnostics, key, server, uuid)) return this.result();
    const observedAt = observedNoLaterThan(observed, Date.now() + CLIENT_CLOCK_SKEW_MS);
    let written = { stats: stats as { key: string; value: number }[], username: body.player.username };
    if (this.screening && key.type === 'client') {
      // Screen (client keys live on players' machines; integration keys on the operator's): values that do not add up are held for review, new statistics past the day's limit dropped; the
      // rest is written, and the answer is the same 200 either way (no oracle for a cheater).
      const input = {
        workspaceId: key.workspaceId,
        seasonId: season.id,
        serverId: server.id,
        keyId: key.id,
        uuid,
        username: body.player.username,
        observedAt,
        stats,
        scoring: season.scoring,
      };
      const screened = await this.screening.screen(input);
      await this.screening.record(input, screened.held);
      this.noteScreened(key, body, uuid, screened);
      written = screened;
    }
    await this.writer.submit(
      {
        workspaceId: key.workspaceId,
        seasonId: season.id,
        serverId: server.id,
        player: { uuid, username: written.username },
        sessionId: body.session_id.toLowerCase(),
        observedAt,
        client: {
          modVersion: body.client.mod_version,
          gameVersion,
          loaderVersion: body.client.loader_version ?? body.client.fabric_loader_version ?? null,
        },
        stats: written.stats,
        events,
        // New statistics of client keys count against the day's limit; an integration key's (an operator's tool) do not.
        fromClient: key.type === 'client',
      },
      bytes,
    );
    this.diagnostics?.accepted(key.workspaceId, server.id, stats.length);
    return this.result();
  }

  /** What screening dropped or noticed, for the operator (`GET /admin/ingest/rejections`, the overview). */
  private noteScreened(
    key: AuthKey,
    body: IngestBatchBody,
    uuid: string,
    screened: { dropped: string[]; sharedKey: boolean },
  ): void {
    if (!this.diagnostics) return;
    const at = { keyId: key.id, hostname: body.server.hostname, port: body.server.port };
    if (screened.dropped.length > 0) {
      this.diagnostics.rejected(
        {
          workspaceId: key.workspaceId,
          code: 'STAT_LIMIT',
          message:
            `Client uploads create at most ${this.newStatsPerDay} new statistics a day; values of further new ones ` +
            `are dropped (first dropped: '${screened.dropped[0]}')`,
          ...at,
          playerUuid: uuid,
        },
        screened.dropped.length,
        false,
      );
    }
    if (screened.sharedKey) {
      this.diagnostics.rejected(
        {
          workspaceId: key.workspaceId,
          code: 'SHARED_KEY',
          message:
            `This key sent values for more than ${PLAYERS_PER_KEY_HOUR} players within an hour: it is shared or ` +
            'leaked (restrict client keys to players, or upload with the server agent)',
          ...at,
          playerUuid: null,
        },
        1,
        false,
      );
    }
  }

  private result(): IngestResult {
    return { accepted: true, server_time: new Date().toISOString(), next_upload_after: this.nextUploadAfter };
  }
}
