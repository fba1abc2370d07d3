// Reload (stdin and SIGHUP), broken reloads, shutdown (stop, SIGTERM, SIGINT) and the sidecar without
// ServerTap, with the program as a real process.
import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STEVE } from './fixture-server.ts';
import {
  type FakeServerTap,
  Fixture,
  json,
  type Proc,
  request,
  startFakeServerTap,
  startProgram,
  stopProgram,
} from './helpers.ts';

const BASE = `bind_address: 127.0.0.1
port: 0
request_timeout_seconds: 2
`;

describe('endpoint-server lifecycle', () => {
  let fx: Fixture;
  let proc: Proc | undefined;
  let tap: FakeServerTap | undefined;

  beforeEach(() => {
    fx = new Fixture();
    fx.write(
      'usercache.json',
      JSON.stringify([{ name: 'Steve', uuid: STEVE, expiresOn: '2024-06-01 10:00:00 +0000' }]),
    );
    // No server.properties: the world defaults to "world".
    fx.writePlayer('world/playerdata', STEVE, { paperLastSeen: Date.UTC(2024, 0, 2, 3, 4, 5) });
  });

  afterEach(async () => {
    await stopProgram(proc);
    proc = undefined;
    await tap?.close();
    tap = undefined;
    fx.remove();
  });

  it('reloads on "reload" from stdin and on SIGHUP, swapping the whole configuration', async () => {
    const config = fx.write('config.yml', `${BASE}endpoints:\n  a:\n    object:\n      v: one\n`);
    proc = await startProgram(config);
    expect(json(await request(proc.url, '/api/a'))).toEqual({ v: 'one' });

    writeFileSync(
      config,
      `${BASE}date_format: "dd.MM.yyyy HH:mm"\ntime_zone: Europe/Berlin\nendpoints:\n  b:\n    require_player: on\n    object:\n      seen: "{last_seen}"\n`,
    );
    proc.send('reload');
    await proc.waitFor(/Reloaded config\.yml with 1 endpoint/);
    // Neither bind_address nor port changed: no word about a restart.
    expect(`${proc.stdout()}${proc.stderr()}`).not.toMatch(/restart to apply/);
    expect(json(await request(proc.url, '/api/a'))).toEqual({ error: "Endpoint 'a' not found." });
    expect(json(await request(proc.url, '/api/b/Steve'))).toEqual({ seen: '02.01.2024 04:04' });

    writeFileSync(config, `${BASE}# no endpoints section\n`);
    proc.kill('SIGHUP');
    await proc.waitFor(/Reloaded config\.yml with 0 endpoints/);
    const res = await request(proc.url, '/api/b/Steve');
    expect(res.status).toBe(200);
    expect(json(res)).toEqual({ error: 'endpoints not found.' });
  });

  it('keeps the previous configuration when the file does not parse, naming the line', async () => {
    const config = fx.write('config.yml', `${BASE}endpoints:\n  a:\n    object:\n      v: one\n`);
    proc = await startProgram(config);
    writeFileSync(config, `${BASE}endpoints:\n  a:\n    object:\n      v: [unclosed\n  b: : :\n`);
    proc.send('reload');
    await proc.waitFor(/Could not parse .*config\.yml at line \d+.*keeping the previous configuration/);
    expect(json(await request(proc.url, '/api/a'))).toEqual({ v: 'one' });
  });

  it('logs that a changed port or bind_address needs a restart', async () => {
    const config = fx.write('config.yml', `${BASE}endpoints:\n  a:\n    object:\n      v: one\n`);
    proc = await startProgram(config);
    writeFileSync(config, `${BASE.replace('port: 0', 'port: 4999')}endpoints:\n  a:\n    object:\n      v: two\n`);
    proc.send('reload');
    await proc.waitFor(/port changed.*restart/);
    expect(json(await request(proc.url, '/api/a'))).toEqual({ v: 'two' });
  });

  it('warns at start and at reload about what server_dir lacks, naming the path', async () => {
    const empty = fx.write('empty/.keep', '');
    const dir = empty.replace(/\/\.keep$/, '');
    const config = fx.write('config.yml', `${BASE}server_dir: ${dir}\nendpoints:\n  a:\n    object:\n      v: one\n`);
    proc = await startProgram(config);
    const log = () => `${proc!.stdout()}${proc!.stderr()}`;
    expect(log()).toContain(`${dir}/usercache.json not found`);
    expect(log()).toMatch(/no player data folder/);
    const before = log().split('usercache.json not found').length;
    proc.send('reload');
    await proc.waitFor(/Reloaded config\.yml/);
    expect(log().split('usercache.json not found').length).toBe(before + 1);
  });

  it('warns and falls back to defaults for invalid settings', async () => {
    const config = fx.write(
      'config.yml',
      `${BASE}time_zone: Mars/Olympus\ndate_format: "yyyy {bad}"\nnever_seen_value: ""\nendpoints:\n  p:\n    require_player: maybe\n    object:\n      s: "{last_seen}"\n      n: "{last_login}"\n`,
    );
    proc = await startProgram(config);
    expect(proc.stderr()).toMatch(/time_zone: .*Mars\/Olympus/);
    expect(proc.stderr()).toMatch(/date_format: /);
    expect(proc.stderr()).toMatch(/endpoints\.p\.require_player: /);
    expect(json(await request(proc.url, '/api/p/Steve'))).toEqual({
      s: '2024/01/02 03:04:05',
      n: '2024/05/01 10:00:00',
    });
    expect(json(await request(proc.url, '/api/p/Nobody'))).toEqual({ s: '', n: '' });
  });

  it('refreshes player data when the file changes', async () => {
    const config = fx.write('config.yml', `${BASE}endpoints:\n  p:\n    object:\n      s: "{last_seen}"\n`);
    proc = await startProgram(config);
    expect(json(await request(proc.url, '/api/p/Steve'))).toEqual({ s: '2024/01/02 03:04:05' });
    fx.writePlayer('world/playerdata', STEVE, { paperLastSeen: Date.UTC(2025, 1, 3, 4, 5, 6) });
    await new Promise((r) => setTimeout(r, 100));
    expect(json(await request(proc.url, '/api/p/Steve'))).toEqual({ s: '2025/02/03 04:05:06' });
  });

  it('renders {ext:%name%} as %name% without ServerTap', async () => {
    const config = fx.write(
      'config.yml',
      `${BASE}endpoints:\n  e:\n    object:\n      a: "{ext:%server_online%}"\n      b: "{papi:player_name}"\n`,
    );
    proc = await startProgram(config);
    expect(json(await request(proc.url, '/api/e/Steve'))).toEqual({ a: '%server_online%', b: '%player_name%' });
  });

  for (const how of ['stop', 'SIGTERM', 'SIGINT'] as const) {
    it(`on ${how}: answers new requests 503 while in-flight requests finish, then exits 0`, async () => {
      tap = await startFakeServerTap();
      const slowTap = tap;
      slowTap.handler = (req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(`done:${req.message}`));
        }, 800);
      };
      const config = fx.write(
        'config.yml',
        `${BASE}servertap:\n  url: ${tap.url}\nendpoints:\n  slow:\n    object:\n      v: "{ext:slow}"\n  fast:\n    object:\n      v: fast\n`,
      );
      proc = await startProgram(config);
      const running = proc;
      const inFlight = request(running.url, '/api/slow');
      await new Promise((r) => setTimeout(r, 200));
      if (how === 'stop') running.send('stop');
      else running.kill(how);
      await running.waitFor(/Shutting down/);
      const during = await request(running.url, '/api/fast');
      expect(during.status).toBe(503);
      expect(json(during)).toEqual({ error: 'The plugin is shutting down.' });
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(json(finished)).toEqual({ v: 'done:%slow%' });
      expect(await running.exited).toBe(0);
    });
  }

  it('exits with an error naming the line when config.yml does not parse at start', async () => {
    const config = fx.write('config.yml', 'endpoints:\n  a: [\n');
    await expect(startProgram(config)).rejects.toThrow(/line \d+/);
  });
});
