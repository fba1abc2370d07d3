/**
 * A steady audience of the public pages, in a process of its own (bench/site/audience.ts starts it): reads the
 * paths of the file PATHS_FILE (one a line) in turn from BASE_URL at RATE page views a second for SECONDS (with
 * HEADERS, a JSON object of extra request headers; GZIP=0: not asking for gzip), as visitors on other machines do:
 * requests start on a clock, not when the previous one ends (at most 64 in flight), over kept-alive connections.
 * Prints `ready` once loaded, starts when a line arrives on stdin (so that its start-up is outside the measured
 * window), and prints `{"served": n, "failed": n, "statuses": {status: n}, "cpu": s}` when
 * done (`cpu`: its own CPU seconds from the start signal).
 *
 * It runs apart from the bench's upload generator so that the readers' own CPU does not take turns of the
 * generator's event loop, and it is a lean client (plain sockets, each request's bytes made once, answers framed
 * by bench/lib/http-client.ts's `frameResponse`): on 2 shared cores, what the audience's own client costs is taken from PostgreSQL and the
 * uploads, where real visitors' browsers cost this machine nothing. node:http's client cost 0.5 ms of CPU a page
 * view (11 % of a core at 200 a second), about what the uploads lost beside it.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { frameResponse } from '../lib/http-client.ts';

const base = new URL(process.env.BASE_URL ?? 'http://127.0.0.1');
const paths = readFileSync(process.env.PATHS_FILE ?? '', 'utf8')
  .split('\n')
  .filter(Boolean);
const rate = Number(process.env.RATE ?? 200);
const seconds = Number(process.env.SECONDS ?? 5);
const MAX_CONNECTIONS = 64;
/**
 * The clock's tick: the page views due are sent every 20 ms (4 at a time at 200 a second). A 5 ms tick cost this
 * process 2 % of a core doing nothing, on a virtual machine where every timer wake-up is dear.
 */
const TICK_MS = 20;
/** Extra headers (HEADERS, a JSON object: an API key for reads of the API), and whether gzip is asked (GZIP=0: not). */
const extra = Object.entries(JSON.parse(process.env.HEADERS || '{}') as Record<string, string>)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
const encoding = process.env.GZIP === '0' ? '' : 'Accept-Encoding: gzip, deflate, br\r\n';
/** Each path's request, written once; by default asking for gzip as browsers and link unfurlers (Discord's) do. */
const requests = paths.map((p) =>
  Buffer.from(`GET ${p} HTTP/1.1\r\nHost: ${base.host}\r\n${encoding}${extra}\r\n`, 'latin1'),
);

let sent = 0;
let served = 0;
let failed = 0;
/** Answers other than 200 by status (`error`: no answer). */
const statuses: Record<string, number> = {};
let inFlight = 0;
/** Kept-alive connections with no request in flight. */
const idle: Connection[] = [];
let open = 0;

function fail(why: number | string): void {
  failed++;
  statuses[why] = (statuses[why] ?? 0) + 1;
}

interface Connection {
  send(request: Buffer): void;
}

/** A kept-alive connection: one request in flight at a time. */
function connection(): Connection {
  open++;
  const socket = connect({ host: base.hostname, port: Number(base.port), noDelay: true });
  let buf: Buffer = Buffer.alloc(0);
  let busy = false;
  const c: Connection = {
    send(request) {
      busy = true;
      socket.write(request);
    },
  };
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    const framed = frameResponse(buf);
    if (framed === null) return;
    const { status, total } = framed;
    if (status === 200) served++;
    else fail(status);
    buf = buf.length === total ? Buffer.alloc(0) : buf.subarray(total);
    busy = false;
    inFlight--;
    idle.push(c);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    open--;
    const at = idle.indexOf(c);
    if (at >= 0) idle.splice(at, 1);
    if (busy) {
      busy = false;
      inFlight--;
      fail('error');
    }
  });
  return c;
}

function read(request: Buffer): void {
  inFlight++;
  (idle.pop() ?? connection()).send(request);
}

// Started before the measured window: says it is ready, and begins when a line arrives on stdin.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const cpuBefore = process.cpuUsage();
const started = performance.now();
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const elapsed = performance.now() - started;
    if (elapsed >= seconds * 1000) {
      clearInterval(tick);
      resolve();
      return;
    }
    const due = Math.floor((elapsed / 1000) * rate);
    while (sent < due && inFlight < MAX_CONNECTIONS && (idle.length > 0 || open < MAX_CONNECTIONS)) {
      read(requests[sent++ % requests.length]!);
    }
  }, TICK_MS);
});
const until = performance.now() + 10_000;
while (inFlight > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
const { user, system } = process.cpuUsage(cpuBefore);
// The reader's own CPU, in seconds: what the audience costs the machine apart from the service.
process.stdout.write(`${JSON.stringify({ served, failed, statuses, cpu: (user + system) / 1e6 })}\n`);
process.exit(0);
