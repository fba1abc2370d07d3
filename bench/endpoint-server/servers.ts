// Child-process helpers for the endpoint-server bench: the bare node:http baseline, the fake ServerTap,
// the endpoint server itself, and autocannon (run through its CLI so it does not share our event loop).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

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

/** Runs autocannon against `url` for `seconds` with `connections` connections. */
export function runLoad(url: string, seconds: number, connections: number): Promise<LoadResult> {
  const cli = require.resolve('autocannon/autocannon.js');
  return new Promise<LoadResult>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '-c', String(connections), '-d', String(seconds), '-j', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', () => {
      try {
        const result = JSON.parse(out) as {
          requests: { average: number; total: number };
          latency: { p99: number };
          errors: number;
          non2xx: number;
        };
        resolve({
          requestsPerSecond: result.requests.average,
          requests: result.requests.total,
          p99Ms: result.latency.p99,
          errors: result.errors,
          non2xx: result.non2xx,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}
