/**
 * The sidecar host: reads a Paper or vanilla server folder beside the running server (players: usercache, player
 * data, last login and last seen) and resolves external placeholders through ServerTap when configured.
 * @packageDocumentation
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerTapSettings } from '../../config.ts';
import { type Host, type PlayerRecord, runWithTimeout, startWithTimeout } from '../../host.ts';
import { createServerTapProvider, type PlaceholderProvider } from '../../providers/servertap.ts';
import { type CachedValue, FileCache } from './file-cache.ts';
import { offlinePlayerUuid } from './offline-uuid.ts';
import { type PlayerFileTimes, parsePlayerFile } from './player-data.ts';
import { parseProperties } from './server-properties.ts';
import { parseUsercache, type Usercache, type UsercacheEntry } from './usercache.ts';

/** Bound of the small per-host memo tables. */
const MEMO_ENTRIES = 10_000;

/** Options of {@link createSidecarHost}. */
export interface SidecarHostOptions {
  /** The Minecraft server folder. */
  readonly serverDir: string;
  /** World folder name; null reads `level-name` from `server.properties` (else `world`). */
  readonly world: string | null;
  /** ServerTap settings, or null to render `{ext:%name%}` as `%name%`. */
  readonly servertap: ServerTapSettings | null;
  /** A provider to use instead of ServerTap (tests, embedding). */
  readonly provider?: PlaceholderProvider;
}

/** A sidecar host, with the folder it reads. */
export interface SidecarHost extends Host {
  /** The world folder name in use. */
  readonly world: string;
  /** Where player files are looked for, newest layout first. */
  readonly playerDirectories: readonly string[];
  /** Marks the host inactive (shutdown). */
  deactivate(): void;
  /** Stops watchers and closes connections. */
  close(): void;
}

/** Reads `level-name` from `<serverDir>/server.properties`; `world` when absent or unreadable. */
export async function readLevelName(serverDir: string): Promise<string> {
  try {
    const props = parseProperties(await readFile(path.join(serverDir, 'server.properties'), 'utf8'));
    const name = props.get('level-name')?.trim();
    return name ? name : 'world';
  } catch {
    return 'world';
  }
}

/**
 * What a server folder lacks that the sidecar reads: `server.properties` (the world's name), `usercache.json`
 * (names to UUIDs) and the world's player data folder. One message per missing piece, naming the path; empty
 * when everything is there. Logged at start and at every reload: a wrong `server_dir` shows at once.
 */
export async function serverDirProblems(serverDir: string, worldSetting: string | null): Promise<string[]> {
  const dir = path.resolve(serverDir);
  const exists = (p: string) =>
    stat(p).then(
      () => true,
      () => false,
    );
  const problems: string[] = [];
  if (!(await exists(dir))) return [`server_dir ${dir} does not exist; every player is "never seen"`];
  if (worldSetting === null && !(await exists(path.join(dir, 'server.properties')))) {
    problems.push(`${path.join(dir, 'server.properties')} not found: the world is assumed to be "world"`);
  }
  if (!(await exists(path.join(dir, 'usercache.json')))) {
    problems.push(`${path.join(dir, 'usercache.json')} not found: player names resolve to offline-mode UUIDs`);
  }
  const world = worldSetting ?? (await readLevelName(dir));
  const worldDir = path.resolve(dir, world);
  const playerDirs = [path.join(worldDir, 'players', 'data'), path.join(worldDir, 'playerdata')];
  if (!(await exists(playerDirs[0]!)) && !(await exists(playerDirs[1]!))) {
    problems.push(`no player data folder (${playerDirs.join(' or ')}): every player is "never seen"`);
  }
  return problems;
}

type CachedFileData =
  | { readonly kind: 'usercache'; readonly cache: Usercache }
  | { readonly kind: 'player'; readonly times: PlayerFileTimes };

/** Creates the sidecar host. Reads `server.properties` once for the world name. */
export async function createSidecarHost(options: SidecarHostOptions): Promise<SidecarHost> {
  const serverDir = path.resolve(options.serverDir);
  const world = options.world ?? (await readLevelName(serverDir));
  const worldDir = path.resolve(serverDir, world);
  // From Minecraft 26.1 player files live in <world>/players/data; before, in <world>/playerdata.
  const playerDirectories = [path.join(worldDir, 'players', 'data'), path.join(worldDir, 'playerdata')];
  const usercacheFile = path.join(serverDir, 'usercache.json');
  const files = new FileCache<CachedFileData>(async (data, file) =>
    file === usercacheFile
      ? { kind: 'usercache', cache: parseUsercache(data.toString('utf8')) }
      : {
          kind: 'player',
          times: await parsePlayerFile(data).catch((error: unknown) => {
            // Every read error names the file, so the operator knows which one to look at.
            const reason = error instanceof Error ? error.message : String(error);
            throw new Error(`${file}: ${reason}`, { cause: error });
          }),
        },
  );
  files.watchDirectory(serverDir);
  for (const dir of playerDirectories) files.watchDirectory(dir);
  const provider = options.provider ?? (options.servertap ? createServerTapProvider(options.servertap) : null);
  let active = true;

  const usercacheEntry = async (name: string): Promise<UsercacheEntry | null> => {
    let cached: Awaited<ReturnType<typeof files.get>>;
    try {
      cached = await files.get(usercacheFile);
    } catch {
      // A usercache being rewritten or broken must not hide players: fall back to offline UUIDs.
      return null;
    }
    if (cached?.value.kind !== 'usercache') return null;
    return cached.value.cache.get(name.toLowerCase()) ?? null;
  };

  // Per-request work kept off the fast path: file names per UUID, offline UUIDs per name, and one record
  // object per parsed player file (a re-read file is a new cached value, so a record never goes stale).
  const playerFiles = new Map<string, readonly string[]>();
  const filesOf = (uuid: string): readonly string[] => {
    let found = playerFiles.get(uuid);
    if (!found) {
      if (playerFiles.size >= MEMO_ENTRIES) playerFiles.clear();
      found = playerDirectories.map((dir) => path.join(dir, `${uuid}.dat`));
      playerFiles.set(uuid, found);
    }
    return found;
  };
  const offlineUuids = new Map<string, string>();
  const offlineUuidOf = (name: string): string => {
    let uuid = offlineUuids.get(name);
    if (uuid === undefined) {
      if (offlineUuids.size >= MEMO_ENTRIES) offlineUuids.clear();
      uuid = offlinePlayerUuid(name);
      offlineUuids.set(name, uuid);
    }
    return uuid;
  };
  const records = new WeakMap<CachedValue<CachedFileData>, { entry: UsercacheEntry | null; record: PlayerRecord }>();
  const uuidOf = async (name: string): Promise<{ uuid: string; entry: UsercacheEntry | null }> => {
    const entry = await usercacheEntry(name);
    return { uuid: entry?.uuid ?? offlineUuidOf(name), entry };
  };

  // Per name, the usercache entry and player files found with one parsed usercache (the fast path's lookups).
  const lookups = new Map<
    string,
    { usercache: CachedValue<CachedFileData> | null; entry: UsercacheEntry | null; files: readonly string[] }
  >();

  // Per name, the fast path's last answer: valid while the file cache is at the same version and every file
  // it looked at is still trusted without a stat.
  const answers = new Map<string, { version: number; until: number; record: PlayerRecord | null }>();

  const record = (cached: CachedValue<CachedFileData>, entry: UsercacheEntry | null): PlayerRecord | null => {
    if (cached.value.kind !== 'player') return null;
    const known = records.get(cached);
    if (known && known.entry === entry) return known.record;
    const { times } = cached.value;
    const lastLogin =
      times.paperLastLogin !== null ? new Date(times.paperLastLogin) : (entry?.lastLogin ?? cached.mtime);
    const lastSeenMs = times.paperLastSeen ?? times.bukkitLastPlayed;
    const lastSeen = lastSeenMs !== null ? new Date(lastSeenMs) : cached.mtime;
    const created: PlayerRecord = { lastLogin, lastSeen };
    records.set(cached, { entry, record: created });
    return created;
  };

  return {
    world,
    playerDirectories,
    isActive: () => active,
    deactivate() {
      active = false;
    },
    async findPlayer(name: string, signal: AbortSignal): Promise<PlayerRecord | null> {
      const { uuid, entry } = await uuidOf(name);
      for (const file of filesOf(uuid)) {
        signal.throwIfAborted();
        const cached = await files.get(file);
        if (cached) return record(cached, entry);
      }
      return null;
    },
    findPlayerCached(name: string): PlayerRecord | null | undefined {
      const now = Date.now();
      const known = answers.get(name);
      if (known !== undefined && known.version === files.version && now < known.until) return known.record;
      const version = files.version;
      const usercache = files.peek(usercacheFile, now);
      if (usercache === undefined) return undefined;
      let until = files.trustedUntil(usercacheFile);
      let lookup = lookups.get(name);
      if (lookup === undefined || lookup.usercache !== usercache) {
        const entry =
          usercache?.value.kind === 'usercache' ? (usercache.value.cache.get(name.toLowerCase()) ?? null) : null;
        lookup = { usercache, entry, files: filesOf(entry?.uuid ?? offlineUuidOf(name)) };
        if (lookups.size >= MEMO_ENTRIES) lookups.clear();
        lookups.set(name, lookup);
      }
      let found: PlayerRecord | null = null;
      for (const file of lookup.files) {
        const cached = files.peek(file, now);
        if (cached === undefined) return undefined;
        until = Math.min(until, files.trustedUntil(file));
        if (cached) {
          found = record(cached, lookup.entry);
          break;
        }
      }
      if (answers.size >= MEMO_ENTRIES) answers.clear();
      answers.set(name, { version, until, record: found });
      return found;
    },
    async resolveExternal(placeholders, player, signal) {
      if (!provider) return placeholders;
      const uuid = player === null ? null : (await uuidOf(player)).uuid;
      return provider.resolve(placeholders, uuid, signal);
    },
    runTask: runWithTimeout,
    startTask: startWithTimeout,
    close() {
      active = false;
      files.close();
      provider?.close();
    },
  };
}
