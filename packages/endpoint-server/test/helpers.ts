// Test helpers: a fixture Minecraft server folder, a fake ServerTap and the program as a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nbt from 'prismarine-nbt';

export const BIN = fileURLToPath(new URL('../bin/endpoint-server.mjs', import.meta.url));

/** Splits epoch milliseconds into the `[hi, lo]` int32 pair prismarine-nbt uses for longs. */
export function long(ms: number): nbt.Long {
  const big = BigInt(ms);
  const hi = Number(BigInt.asIntN(32, big >> 32n));
  const lo = Number(BigInt.asIntN(32, big & 0xffffffffn));
  return { type: 'long', value: [hi, lo] };
}

export interface PlayerFile {
  paperLastLogin?: number;
  paperLastSeen?: number;
  bukkitLastPlayed?: number;
}

/** Gzip-compressed NBT player data with the given fields. */
export function playerFileBytes(fields: PlayerFile): Buffer {
  const value: nbt.Compound['value'] = { DataVersion: { type: 'int', value: 4000 } };
  const paper: nbt.Compound['value'] = {};
  if (fields.paperLastLogin !== undefined) paper.LastLogin = long(fields.paperLastLogin);
  if (fields.paperLastSeen !== undefined) paper.LastSeen = long(fields.paperLastSeen);
  if (Object.keys(paper).length > 0) value.Paper = { type: 'compound', value: paper };
  if (fields.bukkitLastPlayed !== undefined)
    value.bukkit = { type: 'compound', value: { lastPlayed: long(fields.bukkitLastPlayed) } };
  return gzipSync(nbt.writeUncompressed({ type: 'compound', name: '', value }));
}

export class Fixture {
  readonly dir: string;
  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'endpoint-server-'));
  }
  write(relative: string, content: string | Buffer): string {
    const file = path.join(this.dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  }
  writePlayer(relativeDir: string, uuid: string, fields: PlayerFile): string {
    return this.write(path.join(relativeDir, `${uuid}.dat`), playerFileBytes(fields));
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface FakeServerTapRequest {
  message: string;
  uuid: string | null;
  key: string | undefined;
  contentType: string | undefined;
}

export interface FakeServerTap {
  url: string;
  requests: FakeServerTapRequest[];
  /** How to answer; default: replace `%name%` placeholders from `values`. */
  handler: (req: FakeServerTapRequest, res: http.ServerResponse) => void;
  values: Map<string, string>;
  close(): Promise<void>;
}

/** Replaces `%…%` tokens like PlaceholderAPI: known ones from the map, unknown ones left as they are. */
export function papiReplace(message: string, values: ReadonlyMap<string, string>, uuid: string | null): string {
  return message.replace(/%([^%\s]+)%/g, (whole, name: string) => {
    const known = values.get(name);
    if (known === undefined) return whole;
    return known.replaceAll('$uuid', uuid ?? 'none');
  });
}

export async function startFakeServerTap(): Promise<FakeServerTap> {
  const fake: Partial<FakeServerTap> & { requests: FakeServerTapRequest[]; values: Map<string, string> } = {
    requests: [],
    values: new Map(),
  };
  fake.handler = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(papiReplace(req.message, fake.values, req.uuid)));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const entry: FakeServerTapRequest = {
        message: form.get('message') ?? '',
        uuid: form.get('uuid'),
        key: req.headers.key as string | undefined,
        contentType: req.headers['content-type'],
      };
      if (req.method !== 'POST' || req.url !== '/v1/placeholders/replace') {
        res.writeHead(404).end();
        return;
      }
      fake.requests.push(entry);
      fake.handler?.(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake as FakeServerTap;
}

export interface Proc {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Waits until `pattern` appears in stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
  send(line: string): void;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts the program (as users do) and waits for its "Listening on" line. */
export async function startProgram(configPath: string): Promise<Proc> {
  const child = spawn(process.execPath, [BIN, '--config', configPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  const notify = (): void => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
    notify();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
    notify();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 15_000): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}\n${out}\n${err}`)), timeoutMs);
      const check = (): void => {
        if (pattern.test(out) || pattern.test(err)) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  const proc: Proc = {
    child,
    url: '',
    stdout: () => out,
    stderr: () => err,
    waitFor,
    exited,
    send: (line) => child.stdin?.write(`${line}\n`),
    kill: (signal = 'SIGTERM') => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, signal);
    },
  };
  const started = await Promise.race([
    waitFor(/Listening on (http:\/\/\S+)/).then(() => true),
    exited.then(() => false),
  ]);
  if (!started) throw new Error(`program exited early\n${out}\n${err}`);
  proc.url = /Listening on (http:\/\/\S+)/.exec(out)?.[1] ?? '';
  return proc;
}

/** Stops a program by pid and waits for it. */
export async function stopProgram(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null) return;
  proc.kill('SIGKILL');
  await proc.exited;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends a request with an exact target (no normalisation) and reads the answer. */
export function request(
  base: string,
  target: string,
  options: { method?: string; body?: string; agent?: http.Agent } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: target,
        agent: options.agent,
        headers: options.body !== undefined ? { 'content-length': Buffer.byteLength(options.body) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Parses an answer body as JSON. */
export function json(res: RawResponse): unknown {
  return JSON.parse(res.body);
}
