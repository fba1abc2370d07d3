import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseUsercache, parseVanillaStats, playerOfFile } from '@statboard/game-files/vanilla';
import { parseList, RconClient } from './rcon.ts';
import { readServerSettings, type ServerSettings } from './server-dir.ts';
import { type AgentState, loadState, saveState } from './state.ts';
import { ingestUrl, postUpload, type UploadBody } from './upload.ts';

export interface AgentOptions {
  /** The Minecraft server's folder (with server.properties). */
  serverDir: string;
  /** The Statboard service's base URL. */
  url: string;
  /** An API key with `ingest:server`. */
  key: string;
  /** The periodic scan (a fallback for file watching): default 15 s. */
  scanIntervalMs?: number;
  /** How often who is online is read over RCON: default 30 s. */
  onlineIntervalMs?: number;
  /** The first wait after a failed upload, doubled after each further failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long one upload may take. */
  requestTimeoutMs?: number;
  /** Where the one-line messages go (default: stdout with the time). */
  log?: (line: string) => void;
  /** Where RCON is reached (default 127.0.0.1: the agent runs beside the server). */
  rconHost?: string;
}

/** Players per request (the service's bound), statistics per player in one request, and values per request. */
const MAX_PLAYERS = 500;
const MAX_STATS = 500;
/** Files read ahead of their upload: one request's players (a first scan of 10,000 players held them all). */
const READ_AHEAD = MAX_PLAYERS;
const MAX_VALUES = 100_000;
/** After a watched change, the agent waits this long for the server to finish writing before it reads. */
const SETTLE_MS = 1_000;

/** A player's file read and waiting to be uploaded. */
interface Pending {
  uuid: string;
  username: string | undefined;
  stats: { key: string; value: number }[];
  digest: string;
  mtimeMs: number;
  size: number;
}

/** One part of a player's file in a request (a player of more than 500 statistics takes several requests). */
interface Part {
  pending: Pending;
  stats: { key: string; value: number }[];
}

function digestOf(username: string | undefined, stats: { key: string; value: number }[]): string {
  return createHash('sha256')
    .update(JSON.stringify([username ?? null, stats]))
    .digest('base64url');
}

function defaultLog(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * statboard-agent: reads a Minecraft server's own statistics files (`<world>/stats/<uuid>.json`) and
 * `usercache.json`, and uploads what changed to `POST /ingest/server`, where they count as the server's verified
 * values. It remembers what it sent in a state file in the server folder (written atomically, and only after the
 * service answered 200), so a restart of the agent, the game server or the service neither loses nor repeats a
 * change; a failed upload is retried with exponential backoff, and a file that changes meanwhile is sent as it
 * is then. With RCON enabled it also sends who is online.
 */
export class Agent {
  private readonly log: (line: string) => void;
  private readonly endpoint: string;
  private settings: ServerSettings | null = null;
  private state: AgentState | null = null;
  /** Files read and not yet uploaded, by player: a newer read replaces an older one. */
  private readonly pending = new Map<string, Pending>();
  private names = new Map<string, string>();
  private usercacheMtime = -1;
  private watcher: FSWatcher | null = null;
  private timers: NodeJS.Timeout[] = [];
  private settleTimer: NodeJS.Timeout | null = null;
  /** Uploads run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private backoff = 0;
  private rcon: RconClient | null = null;
  private rconProblem: string | null = null;
  /** Who was online at the last presence upload (their uuids and names), to end their presence when all left. */
  private lastOnline: { uuid: string; name: string }[] = [];
  private flushing: Promise<boolean> | null = null;
  /** The last scan stopped at its read-ahead: scan on after the upload. */
  private scanOn = false;

  constructor(private readonly options: AgentOptions) {
    this.log = options.log ?? defaultLog;
    this.endpoint = ingestUrl(options.url);
  }

  private get statsDir(): string {
    return join(this.options.serverDir, this.settings!.levelName, 'stats');
  }

  private async init(): Promise<void> {
    this.settings = await readServerSettings(this.options.serverDir);
    this.state = await loadState(this.options.serverDir, this.options.url);
  }

  /**
   * `--once`: every file not yet uploaded as it is now, then who is online (RCON enabled). Transient failures
   * are retried a few times. True when everything was uploaded.
   */
  async runOnce(attempts = 4): Promise<boolean> {
    await this.init();
    let ok = true;
    // A read-ahead of files at a time (see `scan`), each uploaded before the next is read. A refused file does not
    // stop the files after it; an upload that still fails after its retries (the service unreachable) does.
    for (let more = true; more; ) {
      more = await this.scan();
      let sent = false;
      for (let attempt = 1; attempt <= attempts && !sent; attempt++) {
        sent = await this.flush();
        if (!sent && attempt < attempts && this.hasRetryable) await sleep(this.nextBackoff());
        else if (!sent) break;
      }
      if (!sent) ok = false;
      if (!sent && this.hasRetryable) break;
    }
    if (this.settings!.rcon) ok = (await this.sendOnline()) && ok;
    this.rcon?.close();
    return ok;
  }

  /** Runs until `stop`: watches the stats folder, scans every `scanIntervalMs`, reads who is online. */
  async start(): Promise<void> {
    await this.init();
    const s = this.settings!;
    this.log(
      `watching ${this.statsDir} for ${this.endpoint}${s.rcon ? `, who is online from RCON on port ${s.rcon.port}` : ''}`,
    );
    await this.tick();
    this.timers.push(setInterval(() => void this.tick(), this.options.scanIntervalMs ?? 15_000));
    if (s.rcon) {
      const online = () => void this.enqueue(() => this.sendOnline());
      online();
      this.timers.push(setInterval(online, this.options.onlineIntervalMs ?? 30_000));
    }
  }

  /** Stops watching and waits for the upload in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.watcher?.close();
    this.rcon?.close();
    await this.queue.catch(() => undefined);
  }

  /**
   * A scan, then an upload of what it found (unless one is running: it picks the changes up). A scan that stopped
   * at its read-ahead scans on once the upload is done.
   */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      this.ensureWatch();
      if (await this.scan()) this.scanOn = true;
    } catch (err) {
      this.log(`scan failed: ${(err as Error).message}`);
    }
    if (this.pending.size > 0 && this.flushing === null) {
      this.flushing = this.enqueue(() => this.flushUntilDone()).finally(() => {
        this.flushing = null;
        if (this.scanOn) {
          this.scanOn = false;
          void this.tick();
        }
      });
    }
  }

  private ensureWatch(): void {
    if (this.watcher || this.stopped) return;
    try {
      this.watcher = watch(this.statsDir, () => {
        if (this.settleTimer) return;
        this.settleTimer = setTimeout(() => {
          this.settleTimer = null;
          void this.tick();
        }, SETTLE_MS);
      });
      this.watcher.on('error', () => {
        // The folder went away (a new world): the periodic scan goes on, and watches again once it is back.
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      // No stats folder yet (no player has joined): the periodic scan watches once it exists.
    }
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Names from usercache.json, read again when it changed. */
  private async readNames(): Promise<void> {
    const path = join(this.options.serverDir, 'usercache.json');
    try {
      const st = await stat(path);
      if (st.mtimeMs === this.usercacheMtime) return;
      this.names = parseUsercache(await readFile(path, 'utf8'));
      this.usercacheMtime = st.mtimeMs;
    } catch {
      // No usercache.json (or unreadable, or being written): players keep their names until it can be read.
    }
  }

  /**
   * Finds the files that changed since they were last uploaded; they wait in `pending`. It stops once READ_AHEAD
   * players are pending (true: there may be more), so that a first scan of a large server holds one request's
   * files in memory at a time, not every file's values.
   */
  async scan(): Promise<boolean> {
    await this.readNames();
    let names: string[];
    try {
      names = await readdir(this.statsDir);
    } catch {
      return false;
    }
    const players = this.state!.players;
    for (const name of names) {
      if (this.pending.size >= READ_AHEAD) return true;
      const uuid = playerOfFile(name);
      if (uuid === null) continue;
      const path = join(this.statsDir, name);
      let st: Awaited<ReturnType<typeof stat>>;
      try {
        st = await stat(path);
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      const known = players[uuid];
      const username = this.names.get(uuid);
      const queued = this.pending.get(uuid);
      const sameFile = (f: { mtimeMs: number; size: number } | undefined) =>
        f !== undefined && f.mtimeMs === st.mtimeMs && f.size === st.size;
      // Unchanged: the file as it waits to be sent, or as it was sent with the name it has now.
      if (queued && sameFile(queued) && queued.username === username) continue;
      if (!queued && known && known.sent !== null && sameFile(known) && (username ?? null) === (known.name ?? null)) {
        continue;
      }
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        continue;
      }
      const parsed = parseVanillaStats(text);
      if (!parsed.ok) {
        // Mid-write, or not a statistics file: the next change or scan reads it again.
        continue;
      }
      const digest = digestOf(username, parsed.values);
      if (known?.sent === digest) {
        players[uuid] = { mtimeMs: st.mtimeMs, size: st.size, sent: digest, name: username ?? null };
        this.pending.delete(uuid);
        continue;
      }
      this.pending.set(uuid, { uuid, username, stats: parsed.values, digest, mtimeMs: st.mtimeMs, size: st.size });
    }
    return false;
  }

  /** True when the last flush left something a later attempt may send. */
  private hasRetryable = false;

  private nextBackoff(): number {
    const first = this.options.backoffMs ?? 1_000;
    const max = this.options.maxBackoffMs ?? 5 * 60_000;
    this.backoff = this.backoff === 0 ? first : Math.min(max, this.backoff * 2);
    return this.backoff;
  }

  /** Uploads until nothing is pending, waiting longer after each failure (daemon mode). */
  private async flushUntilDone(): Promise<boolean> {
    while (!this.stopped && this.pending.size > 0) {
      if (await this.flush()) {
        // Files that changed during the upload wait in `pending`: sent now, not at the next scan.
        this.backoff = 0;
        continue;
      }
      if (!this.hasRetryable) return false;
      const wait = this.nextBackoff();
      this.log(`retrying in ${Math.round(wait / 100) / 10} s`);
      await sleep(wait);
      // Files that changed while waiting are sent as they are now.
      await this.scan().catch(() => undefined);
    }
    return true;
  }

  /** The requests of what is pending: at most 500 players, 500 statistics a player, MAX_VALUES values. */
  private requests(): Part[][] {
    const parts: Part[] = [];
    for (const p of this.pending.values()) {
      if (p.stats.length === 0) parts.push({ pending: p, stats: [] });
      for (let at = 0; at < p.stats.length; at += MAX_STATS)
        parts.push({ pending: p, stats: p.stats.slice(at, at + MAX_STATS) });
    }
    const out: Part[][] = [];
    let rest = parts;
    while (rest.length > 0) {
      const request: Part[] = [];
      const inRequest = new Set<string>();
      const later: Part[] = [];
      let values = 0;
      for (const part of rest) {
        if (
          request.length >= MAX_PLAYERS ||
          inRequest.has(part.pending.uuid) ||
          (request.length > 0 && values + part.stats.length > MAX_VALUES)
        ) {
          later.push(part);
          continue;
        }
        request.push(part);
        inRequest.add(part.pending.uuid);
        values += part.stats.length;
      }
      out.push(request);
      rest = later;
    }
    return out;
  }

  /**
   * One pass over what is pending. A player is marked sent (and the state written) once every part of its file
   * was answered 200; a refusal of the data (4xx other than 401, 403, 404, 408, 429) is logged and its files are
   * not sent again until they change. Stops at the first failure worth retrying. True when nothing failed.
   */
  async flush(): Promise<boolean> {
    this.hasRetryable = false;
    const requests = this.requests();
    const partsLeft = new Map<string, number>();
    for (const r of requests)
      for (const part of r) partsLeft.set(part.pending.uuid, (partsLeft.get(part.pending.uuid) ?? 0) + 1);
    let ok = true;
    for (const request of requests) {
      const newest = Math.min(Date.now(), Math.max(...request.map((p) => p.pending.mtimeMs)));
      const body: UploadBody = {
        observed_at: new Date(newest).toISOString(),
        players: request.map((p) => ({
          uuid: p.pending.uuid,
          ...(p.pending.username === undefined ? {} : { username: p.pending.username }),
          stats: p.stats,
        })),
      };
      const values = request.reduce((n, p) => n + p.stats.length, 0);
      const started = performance.now();
      const outcome = await postUpload(this.endpoint, this.options.key, body, this.options.requestTimeoutMs ?? 60_000);
      const ms = Math.round(performance.now() - started);
      if (!outcome.ok && outcome.retry) {
        this.log(`upload of ${request.length} players, ${values} values failed after ${ms} ms: ${outcome.reason}`);
        this.hasRetryable = true;
        return false;
      }
      if (outcome.ok) this.log(`uploaded ${request.length} players, ${values} values in ${ms} ms`);
      else {
        ok = false;
        this.log(
          `upload of ${request.length} players, ${values} values refused, not retried until their files change: ${outcome.reason}`,
        );
      }
      for (const part of request) {
        const uuid = part.pending.uuid;
        const left = (partsLeft.get(uuid) ?? 1) - 1;
        partsLeft.set(uuid, left);
        if (left > 0) continue;
        const p = part.pending;
        this.state!.players[uuid] = { mtimeMs: p.mtimeMs, size: p.size, sent: p.digest, name: p.username ?? null };
        // A newer read of the file, made meanwhile, stays pending.
        if (this.pending.get(uuid) === p) this.pending.delete(uuid);
      }
      await saveState(this.options.serverDir, this.state!);
    }
    return ok;
  }

  /** Reads who is online over RCON and sends it. False when RCON or the upload failed. */
  private async sendOnline(): Promise<boolean> {
    const rcon = this.settings!.rcon!;
    let output: string;
    try {
      if (!this.rcon?.isOpen)
        this.rcon = await RconClient.open(this.options.rconHost ?? '127.0.0.1', rcon.port, rcon.password);
      output = await this.rcon.command('list');
      if (this.rconProblem !== null) this.log('RCON answers again');
      this.rconProblem = null;
    } catch (err) {
      const problem = (err as Error).message;
      if (problem !== this.rconProblem) this.log(`RCON: ${problem} (who is online is not sent until it answers)`);
      this.rconProblem = problem;
      this.rcon?.close();
      this.rcon = null;
      return false;
    }
    await this.readNames();
    const byName = new Map<string, string>();
    for (const [uuid, name] of this.names) byName.set(name.toLowerCase(), uuid);
    const online: { uuid: string; name: string }[] = [];
    for (const entry of parseList(output)) {
      const uuid = entry.uuid ?? byName.get(entry.name.toLowerCase());
      if (uuid !== undefined) online.push({ uuid, name: entry.name });
    }
    // The request names at least one player: those online, else those who just left (to end their presence).
    const named = online.length > 0 ? online : this.lastOnline;
    if (named.length === 0) return true;
    const body: UploadBody = {
      observed_at: new Date().toISOString(),
      players: named.slice(0, MAX_PLAYERS).map((p) => ({ uuid: p.uuid, stats: [] })),
      online: online.map((p) => p.uuid),
    };
    const started = performance.now();
    const outcome = await postUpload(this.endpoint, this.options.key, body, this.options.requestTimeoutMs ?? 60_000);
    const ms = Math.round(performance.now() - started);
    if (!outcome.ok) {
      this.log(`sending who is online (${online.length} players) failed after ${ms} ms: ${outcome.reason}`);
      return false;
    }
    this.log(`online: ${online.length} players, sent in ${ms} ms`);
    this.lastOnline = online;
    return true;
  }
}
