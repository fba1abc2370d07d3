// The program as a real process against a fixture server folder and a fake ServerTap: every row of the
// error table, the sidecar player rules, ServerTap, timeouts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerFolder, HEROBRINE } from './fixture-server.ts';
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

const ROUTES = '/api/{endpoint}, /api/{endpoint}/{username}, /favicon.ico';

describe('endpoint-server program', () => {
  let fx: Fixture;
  let tap: FakeServerTap;
  let proc: Proc | undefined;
  let url = '';

  beforeAll(async () => {
    fx = new Fixture();
    tap = await startFakeServerTap();
    tap.values.set('player_displayname', '[$uuid]');
    tap.values.set('player_level', '7');
    tap.values.set('server_online', '3');
    const defaultHandler = tap.handler;
    tap.handler = (req, res) => {
      if (req.message.includes('%boom%')) {
        res.writeHead(500).end('{"error":"kaboom"}');
        return;
      }
      if (req.message.includes('%slow%')) {
        setTimeout(() => {
          if (!res.destroyed) defaultHandler(req, res);
        }, 3000);
        return;
      }
      defaultHandler(req, res);
    };
    const config = buildServerFolder(fx, tap.url);
    proc = await startProgram(config);
    url = proc.url;
  });

  afterAll(async () => {
    await stopProgram(proc);
    await tap.close();
    fx.remove();
  });

  it('logs a warning naming each configuration problem at startup', () => {
    const log = proc?.stderr() ?? '';
    expect(log).toMatch(/endpoints\.bad\.name: .*ignored/);
    expect(log).toMatch(/endpoints\.empty\.object: is empty/);
    expect(log).toMatch(/endpoints\.noobj\.object: not found/);
  });

  describe('error table', () => {
    it('200 "Endpoint \'<name>\' not found." for an unknown name', async () => {
      const res = await request(url, '/api/nope');
      expect(res.status).toBe(200);
      expect(json(res)).toEqual({ error: "Endpoint 'nope' not found." });
    });

    it('does not serve an endpoint whose configured name is invalid', async () => {
      const res = await request(url, '/api/bad.name');
      expect(res.status).toBe(400);
    });

    it('200 "endpoints.<name>.object not found." before the player-name check', async () => {
      for (const target of ['/api/noobj', '/api/noobj/Steve']) {
        const res = await request(url, target);
        expect(res.status).toBe(200);
        expect(json(res)).toEqual({ error: 'endpoints.noobj.object not found.' });
      }
    });

    it('400 for a player endpoint without a name, with or without a trailing slash', async () => {
      for (const target of ['/api/player', '/api/player/']) {
        const res = await request(url, target);
        expect(res.status).toBe(400);
        expect(json(res)).toEqual({ error: "Endpoint 'player' requires a player name: /api/player/{username}" });
      }
    });

    it('400 malformed path with the raw path and the routes', async () => {
      for (const target of ['/api//x', '/api/a/b/c', '/api/x%zz', '/api/x%2', '/api/bad%2Ename', '/api/player/a%20b']) {
        const res = await request(url, `${target}?q=1`);
        expect(res.status, target).toBe(400);
        expect(json(res)).toEqual({ error: `Malformed request path '${target}'. Available routes: ${ROUTES}` });
      }
    });

    it('400 for a name longer than 32 characters or with control characters', async () => {
      expect((await request(url, `/api/player/${'a'.repeat(33)}`)).status).toBe(400);
      expect((await request(url, `/api/player/${'a'.repeat(32)}`)).status).toBe(200);
      expect((await request(url, '/api/player/a%01b')).status).toBe(400);
      expect((await request(url, '/api/player/%20')).status).toBe(400);
    });

    it('404 with the routes for paths outside /api/<name>', async () => {
      for (const target of ['/', '/api', '/apiary', '/nope/x', '/api/']) {
        const res = await request(url, target);
        expect(res.status, target).toBe(404);
        expect(json(res)).toEqual({ error: `Not found. Available routes: ${ROUTES}` });
      }
    });

    it('405 with Allow for other methods, draining the body and keeping the connection usable', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const res = await request(url, '/api/info', { method: 'POST', body: 'x'.repeat(100_000), agent });
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(json(res)).toEqual({ error: 'Method POST is not supported, use GET.' });
        const again = await request(url, '/api/info', { agent });
        expect(again.status).toBe(200);
        const del = await request(url, '/api/info', { method: 'DELETE', agent });
        expect(json(del)).toEqual({ error: 'Method DELETE is not supported, use GET.' });
      } finally {
        agent.destroy();
      }
    });

    it('500 with a warning naming the endpoint when the provider fails', async () => {
      const res = await request(url, '/api/broken');
      expect(res.status).toBe(500);
      expect(json(res)).toEqual({ error: 'Failed to collect the requested data.' });
      await proc?.waitFor(/Endpoint 'broken'/);
    });

    it('503 after request_timeout_seconds, sharing one slow provider call among concurrent requests', async () => {
      const before = tap.requests.length;
      const started = Date.now();
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => request(url, '/api/slow')));
      const elapsed = Date.now() - started;
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(json(res)).toEqual({ error: 'Timed out while collecting the requested data.' });
      }
      expect(elapsed).toBeLessThan(2500);
      expect(tap.requests.length - before).toBe(1);
      await proc?.waitFor(/Endpoint 'slow'.*timed out/);
    });
  });

  describe('responses', () => {
    it('favicon is 200 with an empty JSON-typed body', async () => {
      const res = await request(url, '/favicon.ico');
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('renders compact JSON in configured order with YAML 1.1 values as text, escaping only what JSON needs', async () => {
      const res = await request(url, '/api/info');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toBe('{"z":"1","a":"true","10":"1.5","list":"[x, 2]","none":"","html":"<b>&\'=\\"\\\\\\n"}');
    });

    it('answers {} for an empty object', async () => {
      const res = await request(url, '/api/empty');
      expect(res.body).toBe('{}');
    });

    it('HEAD has the status and headers of GET and no body', async () => {
      for (const target of ['/api/info', '/api/nope', '/api/player', '/nope', '/favicon.ico']) {
        const get = await request(url, target);
        const head = await request(url, target, { method: 'HEAD' });
        expect(head.status, target).toBe(get.status);
        expect(head.body).toBe('');
        expect(head.headers['content-length']).toBe(get.headers['content-length']);
        expect(head.headers['content-type']).toBe(get.headers['content-type']);
      }
    });

    it('ignores the query string', async () => {
      const res = await request(url, '/api/info?x=%zz');
      expect(res.status).toBe(200);
    });
  });

  describe('sidecar players', () => {
    it('reads Paper.LastLogin and Paper.LastSeen, finding the name case-insensitively in usercache', async () => {
      const res = await request(url, '/api/player/steve');
      expect(json(res)).toMatchObject({
        name: 'steve',
        login: '2024/05/01 10:00:00',
        seen: '2024/05/01 12:30:15',
        display: '[8667ba71-b85a-4004-af54-457a9734eed7]',
        level: '7',
      });
    });

    it('reads the 26.1 players/data layout, usercache expiresOn minus a month and bukkit.lastPlayed', async () => {
      const res = await request(url, '/api/player/Alex');
      expect(json(res)).toMatchObject({ login: '2024/06/30 07:00:00', seen: '2024/06/02 08:05:09' });
    });

    it('uses the offline-mode UUID and the file time for a player missing from usercache', async () => {
      const res = await request(url, '/api/player/Herobrine');
      expect(json(res)).toMatchObject({
        login: '2023/01/02 03:04:05',
        seen: '2023/01/02 03:04:05',
        display: `[${HEROBRINE}]`,
      });
    });

    it('answers a player who never joined with never_seen_value', async () => {
      const res = await request(url, '/api/player/Nobody');
      expect(res.status).toBe(200);
      expect(json(res)).toMatchObject({ name: 'Nobody', login: 'never', seen: 'never' });
    });

    it('decodes percent-encoded names and keeps + literal', async () => {
      expect(json(await request(url, '/api/player/St%65ve'))).toMatchObject({ name: 'Steve', level: '7' });
      expect(json(await request(url, '/api/player/a+b'))).toMatchObject({ name: 'a+b' });
    });

    it('server-wide endpoints accept a name and resolve its player placeholders', async () => {
      expect(json(await request(url, '/api/server'))).toEqual({ online: '3', who: '', seen: 'never' });
      expect(json(await request(url, '/api/server/Steve'))).toEqual({
        online: '3',
        who: 'Steve',
        seen: '2024/05/01 12:30:15',
      });
    });
  });

  describe('ServerTap', () => {
    it('sends all placeholders of a render in one form POST with the key header and the player UUID', async () => {
      const before = tap.requests.length;
      await request(url, '/api/player/Alex');
      const sent = tap.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.uuid).toBe('ec561538-f3fd-461d-aff5-086b22154bce');
      expect(sent[0]?.key).toBe('secret-key');
      expect(sent[0]?.contentType).toBe('application/x-www-form-urlencoded');
      expect(sent[0]?.message).toContain('%player_displayname%');
      expect(sent[0]?.message).toContain('%player_level%');
    });

    it('sends no uuid for a server-wide render without a name', async () => {
      const before = tap.requests.length;
      await request(url, '/api/server');
      expect(tap.requests.slice(before)[0]?.uuid).toBeNull();
    });

    it('never substitutes placeholders inside a URL name or a provider answer', async () => {
      tap.values.set('player_level', '{username}{ext:server_online}');
      try {
        const res = await request(url, '/api/player/%7Bext:server_online%7D');
        expect(json(res)).toMatchObject({ name: '{ext:server_online}', level: '{username}{ext:server_online}' });
      } finally {
        tap.values.set('player_level', '7');
      }
    });
  });
});
