import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import type { Actor, AuditService } from '#src/modules/audit-log/service.ts';
import { ensureDefinitions } from '#src/modules/ingest/repo.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import * as repo from './repo.ts';
import { parseUsercache, parseVanillaStats, playerOfFile } from './vanilla.ts';

/** Files written per transaction (about 100 values each): each commit is durable on its own, and short. */
const FILES_PER_TRANSACTION = 500;
/** Files read from disk at once. */
const READ_AHEAD = 32;

export interface ImportRequest {
  /** Season id or slug. */
  season: string;
  /** The world folder: its `stats/` holds one `<uuid>.json` per player. */
  world: string;
  /** Default: `usercache.json` beside the world folder (the server's folder), used when it exists. */
  usercache?: string;
}

export interface ImportResult {
  /** Statistics files imported. */
  files: number;
  /** Players they belong to. */
  players: number;
  /** Values stored or changed (0 when the same files are imported again). */
  values: number;
  /** Files not imported, with why. */
  skipped: { file: string; reason: string }[];
}

export type ImportProgress = (done: number, total: number, values: number) => void;

/**
 * Brings a server's existing statistics in: the vanilla `world/stats/<uuid>.json` files (Minecraft 1.13 and
 * later) as absolute values observed at each file's modification time, under the rules of ingest, so a value the
 * mod reported later is never overwritten and importing twice changes nothing. Unreadable or ill-formed files
 * are listed and skipped, never fatal.
 */
export class ImportService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly seasons: SeasonService,
    private readonly history: boolean,
  ) {}

  async importWorld(
    actor: Actor,
    workspaceId: string,
    req: ImportRequest,
    progress: ImportProgress = () => undefined,
  ): Promise<ImportResult> {
    const season = await this.seasons.find(workspaceId, req.season);
    if (!season) throw new AppError('NOT_FOUND', `Season '${req.season}' not found.`);
    const world = resolve(req.world);
    const statsDir = join(world, 'stats');
    let names: string[];
    try {
      names = (await readdir(statsDir)).filter((n) => n.endsWith('.json')).sort();
    } catch (err) {
      throw new AppError('INVALID_PAYLOAD', `Cannot read ${statsDir}: ${(err as Error).message}`, {
        world: ['must be a world folder with a stats/ folder'],
      });
    }
    const usernames = await this.usernames(req.usercache, world);
    const result: ImportResult = { files: 0, players: 0, values: 0, skipped: [] };
    const definitionIds = new Map<string, string>();
    progress(0, names.length, 0);
    let done = 0;
    for (let at = 0; at < names.length; at += FILES_PER_TRANSACTION) {
      const chunk = names.slice(at, at + FILES_PER_TRANSACTION);
      // One file per player (`<UUID>.json` and `<uuid>.json` are the same player: the newer file wins).
      const byPlayer = new Map<string, StatsFile>();
      for (let i = 0; i < chunk.length; i += READ_AHEAD) {
        const read = await Promise.all(chunk.slice(i, i + READ_AHEAD).map((n) => readStatsFile(statsDir, n)));
        for (const r of read) {
          if ('reason' in r) {
            result.skipped.push({ file: r.file, reason: r.reason });
            continue;
          }
          const other = byPlayer.get(r.uuid);
          if (other) result.skipped.push({ file: r.file, reason: `another file of the same player (${other.file})` });
          if (!other || r.observedAt > other.observedAt) byPlayer.set(r.uuid, r);
        }
      }
      const files = [...byPlayer.values()];
      if (files.length > 0) {
        const written = await this.db.transaction(async (tx) => {
          const missing = [...new Set(files.flatMap((f) => f.values.map((v) => v.key)))].filter(
            (k) => !definitionIds.has(k),
          );
          if (missing.length > 0) {
            const found = await ensureDefinitions(
              tx,
              missing.map(() => workspaceId),
              missing,
            );
            for (const d of found) definitionIds.set(d.key, d.id);
          }
          const rows: repo.ImportedFile[] = files.map((f) => ({
            uuid: f.uuid,
            username: usernames.get(f.uuid) ?? null,
            observedAt: f.observedAt,
            values: f.values.map((v) => ({ statId: definitionIds.get(v.key)!, value: v.value })),
          }));
          const n = await repo.importFiles(tx, workspaceId, season.id, rows, this.history);
          await this.audit.record(tx, actor, {
            workspaceId,
            action: 'STATS_IMPORTED',
            targetType: 'season',
            targetId: season.id,
            before: null,
            after: { world, files: files.length, first: `${files[0]!.uuid}.json`, values: n },
          });
          await this.changes.publish(tx, { topic: 'values', workspaceId });
          await this.changes.publish(tx, { topic: 'player', workspaceId });
          return n;
        });
        result.files += files.length;
        result.players += files.length;
        result.values += written;
      }
      done += chunk.length;
      progress(done, names.length, result.values);
    }
    return result;
  }

  /** Usernames from usercache.json: the given file (which must be readable), else the server's, if any. */
  private async usernames(file: string | undefined, world: string): Promise<Map<string, string>> {
    const path = file === undefined ? join(dirname(world), 'usercache.json') : resolve(file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if (file === undefined) return new Map();
      throw new AppError('INVALID_PAYLOAD', `Cannot read ${path}: ${(err as Error).message}`, {
        usercache: ['must be a readable usercache.json'],
      });
    }
    try {
      return parseUsercache(text);
    } catch (err) {
      throw new AppError('INVALID_PAYLOAD', `${path} is not a usercache.json: ${(err as Error).message}`, {
        usercache: ['must be a JSON array of {name, uuid}'],
      });
    }
  }
}

interface StatsFile {
  file: string;
  uuid: string;
  observedAt: Date;
  values: { key: string; value: number }[];
}

/** One file read and parsed, or why it is skipped. */
async function readStatsFile(dir: string, name: string): Promise<StatsFile | { file: string; reason: string }> {
  const file = join(basename(dir), name);
  const uuid = playerOfFile(name);
  if (uuid === null) return { file, reason: 'the file name is not a player UUID' };
  try {
    const path = join(dir, name);
    const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    if (!info.isFile()) return { file, reason: 'not a file' };
    const parsed = parseVanillaStats(text);
    if (!parsed.ok) return { file, reason: parsed.reason };
    return { file, uuid, observedAt: info.mtime, values: parsed.values };
  } catch (err) {
    return { file, reason: `unreadable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
}
