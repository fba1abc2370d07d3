import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Actor } from '#src/access/principal.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import { AppError } from '#src/errors.ts';
import { observedNoLaterThan } from '#src/lib/upload-rules.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import { ensureDefinitions, upsertVerified, type VerifiedRow } from '#src/modules/ingest/repo.ts';
import type { PlayerBlocks } from '#src/modules/players/blocks.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';
import { readAhead } from './read-ahead.ts';
import { inspect, type ReadResult, readRegularFile } from './regular-file.ts';
import * as repo from './repo.ts';
import { parseUsercache, parseVanillaStats, playerOfFile } from './vanilla.ts';

/**
 * Files written per transaction (about 100 values each): each commit is durable on its own, and short. A
 * transaction also ends before it would hold more than VALUES_PER_STATEMENT values; a file of more values (a
 * modded server's, or a made-up one: up to the 8 MB limit, about 250,000) is written alone, in statements of
 * that many values, each well within the database query timeout, and with bounded memory.
 */
const FILES_PER_TRANSACTION = 500;
const VALUES_PER_STATEMENT = 50_000;
/**
 * Read-ahead: files read and not yet parsed, at most this many and this many bytes (a single file up to the 8 MB
 * limit may exceed it alone). With parsing one file at a time and the transaction limits above, the import's
 * memory does not grow with the number or the size of the files.
 */
const READ_AHEAD_FILES = 32;
const READ_AHEAD_BYTES = 32 * 1024 * 1024;
/** Why a world's stats/ folder cannot be read, in words, by error code. */
const FOLDER_PROBLEM: Record<string, string> = {
  ENOENT: 'no such folder',
  ENOTDIR: 'not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links',
};
/** Statistic ids remembered between transactions (a world's statistics are a few thousand). */
const MAX_REMEMBERED_DEFINITIONS = 50_000;

export interface ImportRequest {
  /** Season id or slug. */
  season: string;
  /** The world folder: its `stats/` holds one `<uuid>.json` per player. */
  world: string;
  /** Must exist when given. Default: `usercache.json` beside the world folder (the server's), used when it exists. */
  usercache?: string;
  /**
   * The server whose files these are (id): its values are verified values of that server. Default: the
   * workspace's only server.
   */
  server?: string;
}

export interface ImportResult {
  /** Statistics files imported. */
  files: number;
  /** Players they belong to. */
  players: number;
  /** Values stored or changed (0 when the same files are imported again). */
  values: number;
  /** Files not imported (and a usercache.json not used), with why. */
  skipped: { file: string; reason: string }[];
}

export type ImportProgress = (done: number, total: number, values: number) => void;

/**
 * Brings a server's existing statistics in: the vanilla `world/stats/<uuid>.json` files (Minecraft 1.13 and
 * later) as absolute values observed at each file's modification time (never later than the import's own
 * start), under the rules of ingest (`lib/upload-rules.ts`: names, value range, statistic keys, observation
 * times), so a value the mod reported later is never overwritten and importing twice changes nothing. Unreadable
 * or ill-formed files are listed and skipped, never fatal; links and special files are never followed or opened
 * for reading, and files over 8 MB never read.
 */
export class ImportService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
    private readonly seasons: SeasonService,
    private readonly servers: ServerService,
    private readonly history: boolean,
    /** Blocked players' files are skipped (their statistics are discarded, as their uploads are). */
    private readonly blocks: Pick<PlayerBlocks, 'isBlocked'> | null = null,
  ) {}

  async importWorld(
    actor: Actor,
    workspaceId: string,
    req: ImportRequest,
    progress: ImportProgress = () => undefined,
  ): Promise<ImportResult> {
    // No observation may be later than the import itself: a file dated in the future would otherwise freeze
    // its player's values until then.
    const startedAt = Date.now();
    const season = await this.seasons.find(workspaceId, req.season);
    if (!season) throw new AppError('NOT_FOUND', `Season '${req.season}' not found.`);
    const server = await this.servers.importTarget(workspaceId, req.server);
    const world = resolve(req.world);
    const statsDir = join(world, 'stats');
    let names: string[];
    try {
      names = (await readdir(statsDir)).filter((n) => n.endsWith('.json')).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new AppError('INVALID_PAYLOAD', `Cannot read ${statsDir}: ${FOLDER_PROBLEM[code] ?? code}.`, {
        world: ['must be a world folder with a stats/ folder'],
      });
    }
    const result: ImportResult = { files: 0, players: 0, values: 0, skipped: [] };
    const usernames = await this.usernames(req.usercache, world, result.skipped);
    const definitionIds = new Map<string, string>();

    // Read by player: `<UUID>.json` and `<uuid>.json` are the same player, and the newer file wins.
    const players = new Map<string, string[]>();
    for (const name of names) {
      const uuid = playerOfFile(name);
      if (uuid === null) result.skipped.push({ file: `stats/${name}`, reason: 'the file name is not a player UUID' });
      else if (await this.blocks?.isBlocked(workspaceId, uuid)) {
        result.skipped.push({ file: `stats/${name}`, reason: 'the player is blocked: their statistics are discarded' });
      } else players.set(uuid, [...(players.get(uuid) ?? []), name]);
    }

    let batch: ParsedFile[] = [];
    let batchValues = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const files = batch;
      batch = [];
      batchValues = 0;
      const written = await this.write(
        actor,
        workspaceId,
        season.id,
        server.id,
        world,
        files,
        usernames,
        definitionIds,
      );
      result.files += files.length;
      result.players += files.length;
      result.values += written;
    };

    progress(0, names.length, 0);
    let done = names.length - [...players.values()].reduce((n, files) => n + files.length, 0);
    const reads = readAhead(
      players,
      { items: READ_AHEAD_FILES, bytes: READ_AHEAD_BYTES },
      ([, files]) => weighFiles(statsDir, files),
      ([uuid], inspected) => readFiles(statsDir, uuid, inspected),
    );
    for await (const read of reads) {
      const chosen = newestFile(read, startedAt, result.skipped);
      if (chosen !== null) {
        if (batch.length > 0 && batchValues + chosen.values.length > VALUES_PER_STATEMENT) await flush();
        batch.push(chosen);
        batchValues += chosen.values.length;
        if (batch.length >= FILES_PER_TRANSACTION) await flush();
      }
      done += read.length;
      if (done < names.length) progress(done, names.length, result.values);
    }
    await flush();
    progress(names.length, names.length, result.values);
    return result;
  }

  /**
   * Writes a batch of files in one transaction (statistic definitions created as ingest creates them), with its
   * audit record and change notices. Returns how many values were stored or changed.
   */
  private async write(
    actor: Actor,
    workspaceId: string,
    seasonId: string,
    serverId: string,
    world: string,
    files: ParsedFile[],
    usernames: Map<string, string>,
    definitionIds: Map<string, string>,
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      let n = 0;
      for (const part of statements(files)) {
        // Definitions are looked up per statement, so what is held at once stays within a statement's size.
        if (definitionIds.size > MAX_REMEMBERED_DEFINITIONS) definitionIds.clear();
        const missing = new Set<string>();
        for (const f of part) for (const v of f.values) if (!definitionIds.has(v.key)) missing.add(v.key);
        if (missing.size > 0) {
          const keys = [...missing];
          const found = await ensureDefinitions(
            tx,
            keys.map(() => workspaceId),
            keys,
          );
          for (const d of found) definitionIds.set(d.key, d.id);
        }
        const rows: repo.ImportedFile[] = part.map((f) => ({
          uuid: f.uuid,
          username: usernames.get(f.uuid) ?? null,
          observedAt: f.observedAt,
          values: f.values.map((v) => ({ statId: definitionIds.get(v.key)!, value: v.value })),
        }));
        n += await repo.importFiles(tx, workspaceId, seasonId, serverId, rows, this.history);
        // The server's own files: verified values of that server (spec "Server-authoritative uploads").
        const verified: VerifiedRow[] = [];
        for (const f of part) {
          for (const v of f.values) {
            verified.push({
              workspaceId,
              uuid: f.uuid,
              seasonId,
              serverId,
              statId: definitionIds.get(v.key)!,
              value: v.value,
            });
          }
        }
        await upsertVerified(tx, verified);
      }
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'STATS_IMPORTED',
        targetType: 'season',
        targetId: seasonId,
        before: null,
        after: { world, server: serverId, files: files.length, first: `${files[0]!.uuid}.json`, values: n },
      });
      await this.changes.publish(tx, { topic: 'values', workspaceId });
      await this.changes.publish(tx, { topic: 'player', workspaceId });
      return n;
    });
  }

  /**
   * Usernames from usercache.json: the given file (which must exist), else the server's, if any. A file that
   * cannot be used (a link, not a regular file, over 8 MB, not a JSON array) is listed in `skipped` with why,
   * quoting nothing of it, and the import goes on without names (run it again with a good file to name the
   * players). An entry whose name breaks the rule of player names is ignored: its player keeps the name it has.
   */
  private async usernames(
    file: string | undefined,
    world: string,
    skipped: ImportResult['skipped'],
  ): Promise<Map<string, string>> {
    const path = file === undefined ? join(dirname(world), 'usercache.json') : resolve(file);
    const listed = file === undefined ? join('..', 'usercache.json') : path;
    const found = await inspect(path);
    if (!found.ok && found.missing === true) {
      if (file === undefined) return new Map();
      throw new AppError('INVALID_PAYLOAD', `${path} does not exist.`, { usercache: ['must be a usercache.json'] });
    }
    const read = found.ok ? await readRegularFile(path) : found;
    if (!read.ok) {
      skipped.push({ file: listed, reason: `${read.reason}; no player named from it` });
      return new Map();
    }
    try {
      return parseUsercache(read.bytes.toString('utf8'));
    } catch (err) {
      skipped.push({ file: listed, reason: `${(err as Error).message}; no player named from it` });
      return new Map();
    }
  }
}

interface ParsedFile {
  file: string;
  uuid: string;
  observedAt: Date;
  values: { key: string; value: number }[];
}

/** One file of a player, read (or why not). */
interface FileRead {
  file: string;
  uuid: string;
  read: ReadResult;
}

type Inspection = { name: string; reason: string | null }[];

/** The bytes a player's files will take when read (lstat, nothing opened), and why any of them won't be. */
async function weighFiles(dir: string, names: string[]): Promise<{ bytes: number; weighed: Inspection }> {
  let bytes = 0;
  const weighed: Inspection = [];
  for (const name of names) {
    const found = await inspect(join(dir, name));
    if (found.ok) bytes += found.size;
    weighed.push({ name, reason: found.ok ? null : found.reason });
  }
  return { bytes, weighed };
}

async function readFiles(dir: string, uuid: string, inspected: Inspection): Promise<FileRead[]> {
  return Promise.all(
    inspected.map(async ({ name, reason }) => ({
      file: `stats/${name}`,
      uuid,
      read: reason === null ? await readRegularFile(join(dir, name)) : ({ ok: false, reason } as const),
    })),
  );
}

/**
 * The files of a transaction cut into statements of at most VALUES_PER_STATEMENT values. Only a file with more
 * values than that is cut (its transaction holds it alone), so a player appears once per statement.
 */
function* statements(files: ParsedFile[]): Generator<ParsedFile[]> {
  let part: ParsedFile[] = [];
  let size = 0;
  for (const file of files) {
    for (let at = 0; at === 0 || at < file.values.length; at += VALUES_PER_STATEMENT) {
      const piece =
        file.values.length > VALUES_PER_STATEMENT
          ? { ...file, values: file.values.slice(at, at + VALUES_PER_STATEMENT) }
          : file;
      if (part.length > 0 && size + piece.values.length > VALUES_PER_STATEMENT) {
        yield part;
        part = [];
        size = 0;
      }
      part.push(piece);
      size += piece.values.length;
    }
  }
  if (part.length > 0) yield part;
}

/**
 * The file to import of one player (`<UUID>.json` and `<uuid>.json` are the same player): the newest of those that
 * parse. The others are added to `skipped`, with why.
 */
function newestFile(read: FileRead[], latest: number, skipped: ImportResult['skipped']): ParsedFile | null {
  let chosen: ParsedFile | null = null;
  for (const r of read) {
    const parsed = parseFile(r, latest);
    if ('reason' in parsed) {
      skipped.push({ file: parsed.file, reason: parsed.reason });
      continue;
    }
    if (chosen === null) {
      chosen = parsed;
      continue;
    }
    const newer: ParsedFile = parsed.observedAt > chosen.observedAt ? parsed : chosen;
    const older: ParsedFile = newer === parsed ? chosen : parsed;
    skipped.push({ file: older.file, reason: `another file of the same player (${newer.file})` });
    chosen = newer;
  }
  return chosen;
}

/** A file's values, observed at its modification time but never after `latest`, or why it is skipped. */
function parseFile(r: FileRead, latest: number): ParsedFile | { file: string; reason: string } {
  if (!r.read.ok) return { file: r.file, reason: r.read.reason };
  const parsed = parseVanillaStats(r.read.bytes.toString('utf8'));
  if (!parsed.ok) return { file: r.file, reason: parsed.reason };
  return {
    file: r.file,
    uuid: r.uuid,
    observedAt: observedNoLaterThan(r.read.mtime.getTime(), latest),
    values: parsed.values,
  };
}
