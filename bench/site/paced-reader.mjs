/**
 * A steady audience of the public pages, in a process of its own (bench/site/run.ts): reads the paths of the
 * file PATHS_FILE (one a line) in turn from BASE_URL at RATE page views a second for SECONDS, as visitors on
 * other machines do: requests start on a clock, not when the previous one ends (at most 64 in flight), over
 * kept-alive node:http connections. Prints `{"served": n, "failed": n, "statuses": {status: n}}` when done.
 *
 * It runs apart from the bench's upload generator so that the readers' own CPU (an HTTP client's parsing, timers)
 * does not take turns of the generator's event loop: what the uploads lose is then what serving the pages costs
 * the service and the machine, not the cost of the clients, which would be elsewhere.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const base = new URL(process.env.BASE_URL ?? 'http://127.0.0.1');
const paths = readFileSync(process.env.PATHS_FILE ?? '', 'utf8')
  .split('\n')
  .filter(Boolean);
const rate = Number(process.env.RATE ?? 200);
const seconds = Number(process.env.SECONDS ?? 5);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

let sent = 0;
let served = 0;
let failed = 0;
/** Answers other than 200 by status (`error`: no answer). */
const statuses = {};
let inFlight = 0;

function read(path) {
  inFlight++;
  const req = http.get({ host: base.hostname, port: base.port, path, agent }, (res) => {
    res.on('data', () => {});
    res.on('end', () => {
      if (res.statusCode === 200) served++;
      else {
        failed++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }
      inFlight--;
    });
  });
  req.on('error', () => {
    failed++;
    statuses.error = (statuses.error ?? 0) + 1;
    inFlight--;
  });
}

const started = performance.now();
await new Promise((resolve) => {
  const tick = setInterval(() => {
    const elapsed = performance.now() - started;
    if (elapsed >= seconds * 1000) {
      clearInterval(tick);
      resolve();
      return;
    }
    const due = Math.floor((elapsed / 1000) * rate);
    while (sent < due && inFlight < 64) read(paths[sent++ % paths.length]);
  }, 5);
});
while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
agent.destroy();
process.stdout.write(`${JSON.stringify({ served, failed, statuses })}\n`);
