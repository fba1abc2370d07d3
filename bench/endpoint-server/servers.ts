// Child-process helpers for the endpoint-server bench: the bare node:http baseline, the fake ServerTap,
// the endpoint server itself, and the load (wrk, in its own process).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrkLoad } from '../lib/wrk.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  readonly child: ChildProcess;
  readonly url: string;
  stop(): Promise<void>;
}

function waitForUrl(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => process.stderr.write(c));
    child.once('exit', (code) => reject(new Error(`child exited early (${code}): ${out}`)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.pid === undefined) {
        resolve();
        return;
      }
      child.once('exit', () => resolve());
      process.kill(child.pid, 'SIGTERM');
    });
}

async function startScript(source: string, args: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, ['-e', source, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await waitForUrl(child, /URL (\S+)/);
  return { child, url, stop: stopper(child) };
}

/** A bare node:http server answering `body` as JSON to every request. */
export function startBareServer(body: string): Promise<Child> {
  return startScript(
    `const http = require('node:http');
     const body = process.argv[1];
     const len = Buffer.byteLength(body);
     const s = http.createServer((req, res) => {
       res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': len });
       res.end(body);
     });
     s.listen(0, '127.0.0.1', () => console.log('URL http://127.0.0.1:' + s.address().port));
     process.on('SIGTERM', () => process.exit(0));`,
    [body],
  );
}

/** A fake ServerTap answering after `delayMs`, replacing every %placeholder% with a fixed text. */
export function startFakeServerTap(delayMs: number): Promise<Child> {
  return startScript(
    `const http = require('node:http');
     const delay = Number(process.argv[1]);
     const s = http.createServer((req, res) => {
       const chunks = [];
       req.on('data', (c) => chunks.push(c));
       req.on('end', () => {
         const form = new URLSearchParams(Buffer.concat(chunks).toString());
         const out = (form.get('message') || '').replace(/%([^%\\s]+)%/g, (_, n) => 'v-' + n);
         setTimeout(() => {
           res.writeHead(200, { 'content-type': 'application/json' });
           res.end(JSON.stringify(out));
         }, delay);
       });
     });
     s.keepAliveTimeout = 60000;
     s.listen(0, '127.0.0.1', () => console.log('URL http://127.0.0.1:' + s.address().port));
     process.on('SIGTERM', () => process.exit(0));`,
    [String(delayMs)],
  );
}

/** The endpoint server program, started as users start it. */
export async function startEndpointServer(config: string): Promise<Child> {
  const bin = path.join(root, 'packages/endpoint-server/bin/endpoint-server.mjs');
  // Run the bin itself, as `npx endpoint-server` does (its shebang carries the node flags).
  const child = spawn(bin, ['--config', config], { stdio: ['pipe', 'pipe', 'pipe'] });
  const url = await waitForUrl(child, /Listening on (http:\/\/\S+)/);
  return { child, url, stop: stopper(child) };
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system, all threads) a process has used so far, in ms, from /proc (Linux). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10; // USER_HZ is 100 on Linux
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** Runs wrk against `url` for `seconds` with `connections` connections. */
export async function runLoad(url: string, seconds: number, connections: number): Promise<LoadResult> {
  const target = new URL(url);
  const r = await wrkLoad({
    url: target.origin,
    connections,
    seconds,
    headers: {},
    paths: [`${target.pathname}${target.search}`],
  });
  return {
    requestsPerSecond: r.ok / r.seconds,
    requests: r.ok + r.failed,
    p99Ms: r.p99,
    // wrk counts connect, read, write and timeout errors together with answers of 400 or more.
    errors: 0,
    non2xx: r.failed,
  };
}
