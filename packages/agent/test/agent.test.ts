import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '#src/agent.ts';
import { COMMAND, encodePacket, LOGIN, PacketReader, RESPONSE } from '#src/rcon.ts';
import { STATE_FILE } from '#src/state.ts';
import {
  ACTOR,
  bearer,
  createTestContext,
  type Fixture,
  seedWorkspace,
  type TestContext,
} from '../../../apps/statboard/test/helpers.ts';

const BIN = fileURLToPath(new URL('../bin/statboard-agent.mjs', import.meta.url));
const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
const STONE = 'minecraft.mined:minecraft.stone';

let ctx: TestContext;
let fx: Fixture;
let key: string;
let root: string;

beforeAll(async () => {
  ctx = await createTestContext();
  fx = await seedWorkspace(ctx.services);
  key = (
    await ctx.services.keys.create(ACTOR, fx.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [fx.serverId],
    })
  ).secret;
  root = await mkdtemp(join(tmpdir(), 'statboard-agent-'));
});
afterAll(async () => {
  await ctx?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A vanilla server folder: server.properties, usercache.json and a statistics file per player. */
async function serverDir(
  players: { uuid: string; name: string; playTime: number; stone?: number }[],
  properties = 'level-name=world\n',
): Promise<string> {
  const dir = await mkdtemp(join(root, 'server-'));
  await writeFile(join(dir, 'server.properties'), `#Minecraft server properties\n${properties}`);
  await writeFile(
    join(dir, 'usercache.json'),
    JSON.stringify(players.map((p) => ({ name: p.name, uuid: p.uuid, expiresOn: '2027-01-01 00:00:00 +0000' }))),
  );
  await mkdir(join(dir, 'world', 'stats'), { recursive: true });
  for (const p of players) await writeStats(dir, p.uuid, p.playTime, p.stone);
  return dir;
}

async function writeStats(dir: string, uuid: string, playTime: number, stone?: number): Promise<void> {
  const stats: Record<string, Record<string, number>> = { 'minecraft:custom': { 'minecraft:play_time': playTime } };
  if (stone !== undefined) stats['minecraft:mined'] = { 'minecraft:stone': stone };
  await writeFile(join(dir, 'world', 'stats', `${uuid}.json`), JSON.stringify({ stats, DataVersion: 4189 }));
}

async function statsOf(uuid: string): Promise<Record<string, number>> {
  const res = await ctx.http({
    method: 'GET',
    url: `/api/v1/players/${uuid}/stats`,
    headers: bearer(fx.keys.website!),
  });
  if (res.statusCode === 404) return {};
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(
    (res.json() as { stats: { key: string; value: number }[] }).stats.map((s) => [s.key, s.value]),
  );
}

async function until(what: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await what()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

function agentOf(dir: string, over: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  const lines: string[] = [];
  const agent = new Agent({
    serverDir: dir,
    url: ctx.url,
    key,
    scanIntervalMs: 15_000,
    backoffMs: 50,
    maxBackoffMs: 200,
    log: (l) => lines.push(l),
    ...over,
  });
  return { agent, lines };
}

describe('npx statboard-agent --once', () => {
  it('uploads every file with the names of usercache.json, exits 0, and a second run uploads nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const dir = await serverDir([
      { uuid: a, name: 'Alex', playTime: 72_000, stone: 12 },
      { uuid: b.toUpperCase(), name: 'Bea', playTime: 300 },
    ]);
    const first = await run(['--server-dir', dir, '--url', ctx.url, '--once'], { STATBOARD_KEY: key });
    expect(first.code, first.err + first.out).toBe(0);
    expect(first.out).toMatch(/uploaded 2 players, 3 values in \d+ ms/);
    expect(await statsOf(a)).toEqual({ [PLAY_TIME]: 72_000, [STONE]: 12 });
    expect(await statsOf(b)).toEqual({ [PLAY_TIME]: 300 });
    const names = await ctx.db.query<{ username: string }>('SELECT username FROM players WHERE uuid = $1', [a]);
    expect(names[0]!.username).toBe('Alex');
    const verified = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM verified_stats v JOIN players p ON p.id = v.player_id WHERE p.uuid = $1',
      [a],
    );
    expect(verified[0]!.n).toBe(2);
    const state = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8'));
    expect(Object.keys(state.players).sort()).toEqual([a, b].sort());

    // The state file: nothing changed, nothing is sent.
    const second = await run(['--server-dir', dir, '--url', ctx.url, '--once'], { STATBOARD_KEY: key });
    expect(second.code, second.err).toBe(0);
    expect(second.out).not.toMatch(/uploaded/);
    // A touched but identical file is not sent either.
    const later = new Date(Date.now() + 1000);
    await utimes(join(dir, 'world', 'stats', `${a}.json`), later, later);
    const third = await run(['--server-dir', dir, '--url', ctx.url, '--once'], { STATBOARD_KEY: key });
    expect(third.out).not.toMatch(/uploaded/);
  });

  it('reads a large server 500 players at a time, each part uploaded before the next is read', async () => {
    const players = Array.from({ length: 1_100 }, (_, i) => ({ uuid: randomUUID(), name: `Big${i}`, playTime: i + 1 }));
    const dir = await serverDir(players);
    const { agent, lines } = agentOf(dir);
    // Read-ahead: the files pending upload never exceed one request's players.
    let most = 0;
    const pending = (agent as unknown as { pending: Map<string, unknown> }).pending;
    const set = pending.set.bind(pending);
    pending.set = (k, v) => {
      const r = set(k, v);
      most = Math.max(most, pending.size);
      return r;
    };
    expect(await agent.runOnce()).toBe(true);
    expect(most).toBe(500);
    expect(lines.filter((l) => /^uploaded \d+ players/.test(l)).map((l) => l.split(' ')[1])).toEqual([
      '500',
      '500',
      '100',
    ]);
    expect(await statsOf(players[1_099]!.uuid)).toEqual({ [PLAY_TIME]: 1_100 });
  });

  it('exits 1 when an upload fails, and never takes the key on the command line', async () => {
    const dir = await serverDir([{ uuid: randomUUID(), name: 'Cy', playTime: 5 }]);
    const refused = await run(['--server-dir', dir, '--url', ctx.url, '--once'], {
      STATBOARD_KEY: fx.keys.client!,
      STATBOARD_AGENT_BACKOFF_MS: '20',
    });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/HTTP 403/);
    const onLine = await run(['--server-dir', dir, '--url', ctx.url, '--once', '--key', key]);
    expect(onLine.code).toBe(2);
    expect(onLine.err).toMatch(/STATBOARD_KEY/);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--server-dir DIR/);
  });
});

describe('statboard-agent watching a server', () => {
  it('uploads a changed file within 15 s (file watching), and only that file', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const dir = await serverDir([
      { uuid: a, name: 'Ann', playTime: 10 },
      { uuid: b, name: 'Ben', playTime: 20 },
    ]);
    const { agent, lines } = agentOf(dir);
    await agent.start();
    try {
      await until(async () => (await statsOf(a))[PLAY_TIME] === 10, 15_000);
      // The values are readable once committed, a moment before the agent has its answer.
      await until(async () => lines.some((l) => l.startsWith('uploaded')), 5_000);
      expect(lines.filter((l) => l.startsWith('uploaded'))).toEqual([
        expect.stringMatching(/^uploaded 2 players, 2 values in/),
      ]);
      await writeStats(dir, a, 99, 3);
      const took = await until(async () => (await statsOf(a))[PLAY_TIME] === 99, 15_000);
      expect(took).toBeLessThan(15_000);
      await until(async () => lines.filter((l) => l.startsWith('uploaded')).length === 2, 5_000);
      expect(lines.filter((l) => l.startsWith('uploaded')).at(-1)).toMatch(/^uploaded 1 players, 2 values in/);
    } finally {
      await agent.stop();
    }
  });

  it('retries while the service is down or failing, then uploads without losing the change', async () => {
    const a = randomUUID();
    const dir = await serverDir([{ uuid: a, name: 'Dee', playTime: 1 }]);
    // A front for the service: refuses connections at first, then answers 503 twice, then passes requests on.
    let failures = 2;
    const front: HttpServer = createHttpServer((req, res) => {
      if (failures-- > 0) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"SERVICE_UNAVAILABLE","message":"down","request_id":"x"}}');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${ctx.url}${req.url}`, {
          method: req.method,
          headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        }).then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    const port = (front.address() as { port: number }).port;
    await new Promise<void>((r) => front.close(() => r()));
    const { agent, lines } = agentOf(dir, { url: `http://127.0.0.1:${port}` });
    await agent.start();
    try {
      await until(async () => lines.filter((l) => /failed/.test(l)).length >= 2, 10_000);
      // A change while the service is down is sent as it is once it is back.
      await writeStats(dir, a, 2);
      await new Promise<void>((r) => front.listen(port, '127.0.0.1', r));
      await until(async () => (await statsOf(a))[PLAY_TIME] === 2, 15_000);
      expect(lines.some((l) => /ECONNREFUSED/.test(l))).toBe(true);
      expect(lines.some((l) => /HTTP 503/.test(l))).toBe(true);
      expect(lines.some((l) => /retrying in/.test(l))).toBe(true);
    } finally {
      await agent.stop();
      await new Promise<void>((r) => front.close(() => r()));
    }
  });

  it('killed mid-upload, sends the change again when restarted: the state file is written only after a 200', async () => {
    const a = randomUUID();
    const dir = await serverDir([{ uuid: a, name: 'Gus', playTime: 7 }]);
    // A front that holds every request unanswered while `hold` is set, else passes it on.
    let hold = true;
    let held = 0;
    const front: HttpServer = createHttpServer((req, res) => {
      if (hold) {
        held++;
        req.resume();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${ctx.url}${req.url}`, {
          method: req.method,
          headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        }).then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
    try {
      const child = spawn(process.execPath, [BIN, '--server-dir', dir, '--url', url], {
        env: { ...process.env, STATBOARD_KEY: key },
        stdio: 'ignore',
      });
      const exited = new Promise((r) => child.once('exit', r));
      await until(async () => held > 0, 20_000);
      child.kill('SIGKILL');
      await exited;
      const state = await readFile(join(dir, STATE_FILE), 'utf8').catch(() => '{"players":{}}');
      expect(JSON.parse(state).players[a]?.sent ?? null).toBeNull();
      hold = false;
      front.closeAllConnections();
      const again = await run(['--server-dir', dir, '--url', url, '--once'], { STATBOARD_KEY: key });
      expect(again.code, again.out + again.err).toBe(0);
      expect(again.out).toMatch(/uploaded 1 players, 1 values/);
      expect(await statsOf(a)).toEqual({ [PLAY_TIME]: 7 });
    } finally {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
    }
  });

  it('sends who is online from RCON `list` (a real RCON listener speaking the protocol)', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    let online = 'There are 1 of a max of 20 players online: Eve';
    const commands: string[] = [];
    const rcon: Server = createServer((socket) => {
      const reader = new PacketReader();
      let authed = false;
      socket.on('data', (chunk: Buffer) => {
        for (const p of reader.push(chunk)) {
          if (p.type === LOGIN) {
            authed = p.body === 'secret';
            socket.write(encodePacket({ id: authed ? p.id : -1, type: COMMAND, body: '' }));
          } else if (p.type === COMMAND && authed) {
            commands.push(p.body);
            socket.write(encodePacket({ id: p.id, type: RESPONSE, body: p.body === 'list' ? online : '' }));
          }
        }
      });
    });
    await new Promise<void>((r) => rcon.listen(0, '127.0.0.1', r));
    const port = (rcon.address() as { port: number }).port;
    const dir = await serverDir(
      [
        { uuid: a, name: 'Eve', playTime: 1 },
        { uuid: b, name: 'Finn', playTime: 1 },
      ],
      `level-name=world\nenable-rcon=true\nrcon.port=${port}\nrcon.password=secret\n`,
    );
    const onlineNow = async () => {
      const res = await ctx.http({ method: 'GET', url: '/api/v1/online', headers: bearer(fx.keys.website!) });
      return (res.json() as { data: { player: { uuid: string } }[] }).data.map((e) => e.player.uuid).sort();
    };
    const { agent, lines } = agentOf(dir, { onlineIntervalMs: 300 });
    await agent.start();
    try {
      await until(async () => (await onlineNow()).join() === a, 10_000);
      expect(commands[0]).toBe('list');
      online = 'There are 2 of a max of 20 players online: Eve, Finn';
      await until(async () => (await onlineNow()).join() === [a, b].sort().join(), 10_000);
      online = 'There are 0 of a max of 20 players online: ';
      await until(async () => (await onlineNow()).length === 0, 10_000);
      expect(lines.some((l) => /^online: 2 players, sent in \d+ ms$/.test(l))).toBe(true);
    } finally {
      await agent.stop();
      await new Promise<void>((r) => rcon.close(() => r()));
    }
  });
});
