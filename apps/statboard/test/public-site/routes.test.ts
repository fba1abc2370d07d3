import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type Team } from '../admin/support/team.ts';
import { createWorld, PUBLIC_URL, type World } from '../admin/support/world.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';
import { expectError, expectInvalid } from '../http/support.ts';
import { HIDDEN_PLAYER, PLAY_TIME, SECRET_STAT, type SiteData, STONE, seedSiteData, WALKED } from './support.ts';

// The public site: its settings (`/admin/public-site`: roles, validation, audit) and its pages over inject():
// the one 404 page for whatever is not there or not public, shared headers, ETag/304, escaping, the rate limit.

let w: World;
let t: Team;
let data: SiteData;
const SETTINGS = '/api/v1/admin/public-site';

beforeAll(async () => {
  w = await createWorld();
  t = await buildTeam(w);
  data = await seedSiteData(w, t);
}, 180_000);
afterAll(async () => {
  await w?.close();
});

async function save(body: object, who = t.browsers.admin) {
  return who.app('PUT', SETTINGS, { body });
}

const ON = {
  enabled: true,
  title: 'Team <Club>',
  description: 'Our "survival" server & friends',
  featured_stats: [PLAY_TIME, WALKED],
  embed_origins: [],
};

function page(url: string, headers: Record<string, string> = {}) {
  return w.app.inject({ method: 'GET', url, headers });
}

describe('GET|PUT /admin/public-site', () => {
  it('is off by default, and every role reads it', async () => {
    for (const role of ['owner', 'admin', 'analyst', 'readonly'] as const) {
      const res = await t.browsers[role].app('GET', SETTINGS);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        data: { enabled: false, title: '', description: '', featured_stats: [], embed_origins: [] },
      });
    }
    expectError(await t.browsers.none.app('GET', SETTINGS), 403);
  });

  it('lets admins and owners change it, not analysts or read-only users', async () => {
    expectError(await save(ON, t.browsers.analyst), 403);
    expectError(await save(ON, t.browsers.readonly), 403);
  });

  it('refuses origins that are not scheme://host[:port], and fields out of range', async () => {
    for (const origin of [
      'https://club.example/path',
      'ftp://club.example',
      'club.example',
      'https://a@club.example',
      // A host URL accepts that would break out of the CSP directive it goes into.
      'https://club.example;script-src',
    ]) {
      expectInvalid(await save({ ...ON, embed_origins: [origin] }), 'embed_origins.0');
    }
    expectInvalid(await save({ ...ON, title: 'x'.repeat(101) }), 'title');
    expectInvalid(await save({ ...ON, featured_stats: [''] }), 'featured_stats.0');
    expectInvalid(await save({ enabled: 'yes' }), 'enabled');
  });

  it('saves, normalizes origins, and writes an audit record with a sentence', async () => {
    const res = await save({
      ...ON,
      embed_origins: ['https://Club.example/', 'http://127.0.0.1:8080', 'https://club.example'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ...ON, embed_origins: ['https://club.example', 'http://127.0.0.1:8080'] });
    expect((await t.browsers.readonly.app('GET', SETTINGS)).json().data.enabled).toBe(true);
    const audit = await t.browsers.owner.app('GET', '/api/v1/admin/audit-log?action=PUBLIC_SITE_UPDATED');
    const records = audit.json().data as {
      summary: string;
      before: { enabled: boolean };
      after: { enabled: boolean };
    }[];
    expect(records[0]!.summary).toBe('Turned the public site on');
    expect(records[0]!.before.enabled).toBe(false);
    expect(records[0]!.after.enabled).toBe(true);
    expect((await save({ ...ON, embed_origins: [] })).statusCode).toBe(200);
  });

  it('changes only the fields a PUT names, and takes statistics not uploaded yet (the pages leave them out)', async () => {
    const NOT_YET = 'minecraft.custom:minecraft.not_uploaded_yet';
    expect((await save({ ...ON, enabled: false })).statusCode).toBe(200);
    const on = await save({ enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data).toEqual(ON);
    const featured = await save({ featured_stats: [NOT_YET, PLAY_TIME, NOT_YET] });
    expect(featured.statusCode, featured.body).toBe(200);
    expect(featured.json().data).toEqual({ ...ON, featured_stats: [NOT_YET, PLAY_TIME] });
    const home = await page('/p/team/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Time Played');
    expect(home.body).not.toContain('not_uploaded_yet');
    expect((await page(`/p/team/leaderboards/${encodeURIComponent(NOT_YET)}`)).statusCode).toBe(404);
    // Two changes of different fields at once both stay.
    const [a, b] = await Promise.all([save({ title: 'Team A' }), save({ description: 'Both kept' })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await t.browsers.readonly.app('GET', SETTINGS)).json().data).toMatchObject({
      title: 'Team A',
      description: 'Both kept',
    });
    expect((await save(ON)).json().data).toEqual(ON);
  });
});

describe('the pages', () => {
  const base = '/p/team';

  it('serves the home page with the featured boards, who is online and the search form', async () => {
    const res = await page(`${base}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.body).toContain('<title>Team &lt;Club&gt;</title>');
    expect(res.body).toContain('<meta property="og:url" content="http://statboard.test/p/team/">');
    expect(res.body).toContain('Our &quot;survival&quot; server &amp; friends');
    expect(res.body).toContain('Time Played');
    expect(res.body).toContain(`href="/p/team/players/${data.players[0]!.username}"`);
    expect(res.body).toContain('action="/p/team/players"');
    expect(res.body).not.toContain('<script');
    expect(res.body).not.toContain(HIDDEN_PLAYER.username);
    expect(PUBLIC_URL).toBe('http://statboard.test');
  });

  it('serves a leaderboard 50 a page with formatted values, and a player with ranks and a chart', async () => {
    const board = await page(`${base}/leaderboards/${encodeURIComponent(PLAY_TIME)}`);
    expect(board.statusCode, board.body).toBe(200);
    expect(board.body).toMatch(/<td class="n">\d+ h( \d+ min)?<\/td>/);
    expect(board.body).toContain('<meta property="og:description" content="Time Played in Season 1: 1. Alex');
    const walked = await page(`${base}/leaderboards/${encodeURIComponent(WALKED)}?season=s1`);
    expect(walked.body).toMatch(/\d(\.\d)? km/);
    const player = await page(`${base}/players/Alex`);
    expect(player.statusCode, player.body).toBe(200);
    expect(player.body).toContain('<h1>Alex</h1>');
    expect(player.body).toContain('#1<span class="muted"> of 14</span>');
    expect(player.body).toContain('<svg class="chart"');
    expect(player.body).toContain('Damage &lt;dealt&gt; &amp; &quot;more&quot;');
    expect(player.body).not.toContain('Deaths');
    const byUuid = await page(`${base}/players/${data.players[0]!.uuid}`);
    expect(byUuid.statusCode).toBe(200);
    const seasons = await page(`${base}/seasons`);
    expect(seasons.body).toContain('Season 1');
    const search = await page(`${base}/players?q=miner`);
    expect(search.body).toContain('Miner_Max');
    const embed = await page(`${base}/embed/leaderboard/${encodeURIComponent(STONE)}?limit=3&theme=dark`);
    expect(embed.statusCode, embed.body).toBe(200);
    expect(embed.body).toContain('<html lang="en" class="dark">');
    expect((embed.body.match(/<tr><td class="r">/g) ?? []).length).toBe(3);
  });

  it('writes a page in ASCII, any character past it as a reference, and sends it as UTF-8', async () => {
    const ascii = await page(`${base}/players/Alex`);
    expect(ascii.statusCode, ascii.body).toBe(200);
    expect(ascii.headers['content-type']).toBe('text/html; charset=utf-8');
    // The separator of its title and the unit of damage ("♥") too.
    expect(ascii.body).toContain('<title>Alex &#183; Team &lt;Club&gt;</title>');
    expect(ascii.body).toContain('&#9829;');
    expect(ascii.rawPayload.every((byte) => byte < 0x80)).toBe(true);
    expect((await save({ title: 'Café ⛏ Club 🎮' })).statusCode).toBe(200);
    try {
      const res = await page(`${base}/players/Alex`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('<title>Alex &#183; Caf&#233; &#9935; Club &#127918;</title>');
      expect(res.body).toContain('<meta property="og:title" content="Alex &#183; Caf&#233; &#9935; Club &#127918;">');
    } finally {
      expect((await save({ title: ON.title })).statusCode).toBe(200);
    }
  });

  it('lists the public statistics on the leaderboards index by category, finds them by name, links each to its board', async () => {
    const res = await page(`${base}/leaderboards`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<title>Leaderboards &#183; Team &lt;Club&gt;</title>');
    // The game's general statistics first, then its families; names in order within a category.
    const at = (text: string) => res.body.indexOf(text);
    expect(at('<h2 id="c0">General</h2>')).toBeGreaterThan(0);
    expect(at('>Mined</h2>')).toBeGreaterThan(at('>General</h2>'));
    expect(at('>Distance Walked</a>')).toBeGreaterThan(at('>Damage &lt;dealt&gt; &amp; &quot;more&quot;</a>'));
    expect(at('>Time Played</a>')).toBeGreaterThan(at('>Distance Walked</a>'));
    expect(res.body).toContain(`<a href="/p/team/leaderboards/${encodeURIComponent(STONE)}">Stone Mined</a>`);
    // Not a hidden statistic.
    expect(res.body).not.toContain('Deaths');
    // Every page's navigation leads to it.
    for (const path of ['/leaderboards', '/', '/players/Alex']) {
      expect((await page(`${base}${path}`)).body).toContain('<li><a href="/p/team/leaderboards">Leaderboards</a></li>');
    }
    const found = await page(`${base}/leaderboards?q=STONE`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.body).toContain('<h1>Leaderboards matching &#8220;STONE&#8221;</h1>');
    expect(found.body).toContain('>Stone Mined</a>');
    expect(found.body).not.toContain('>Time Played</a>');
    const none = await page(`${base}/leaderboards?q=${encodeURIComponent('<nothing>')}`);
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('No public statistic by that name.');
    expect(none.body).toContain('value="&lt;nothing&gt;"');
    for (const past of ['?page=2', '?page=0', '?page=x']) {
      expect((await page(`${base}/leaderboards${past}`)).statusCode, past).toBe(404);
    }
    // A home page with no featured statistic leads to the index.
    expect((await save({ featured_stats: [] })).statusCode).toBe(200);
    try {
      const home = await page(`${base}/`);
      expect(home.body).toContain('<p>See <a href="/p/team/leaderboards">all leaderboards</a>.</p>');
      expect(home.body).not.toContain('<table>');
    } finally {
      expect((await save({ featured_stats: ON.featured_stats })).statusCode).toBe(200);
    }
  });

  it('serves the board and the embed of a statistic whose key is as long as a key may be (255 characters)', async () => {
    const head = 'modded.custom:modded.';
    const key = head + 'x'.repeat(255 - head.length);
    const client = await w.services.keys.create(ACTOR, t.workspaceId, {
      name: 'long keys',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const sent = await w.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: bearer(client.secret),
      payload: modBatch({ ...data.players[0]!, sessionId: randomUUID(), stats: [{ key, value: 42 }] }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await w.services.flush();
    for (const path of [`/leaderboards/${encodeURIComponent(key)}`, `/embed/leaderboard/${encodeURIComponent(key)}`]) {
      const res = await page(`${base}${path}`);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).toContain(`>${data.players[0]!.username}</a>`);
    }
    // One character more is no statistic: the 404 page.
    expect((await page(`${base}/leaderboards/${encodeURIComponent(`${key}x`)}`)).statusCode).toBe(404);
  });

  it('answers the same 404 page for a hidden player, a hidden statistic, an unknown slug and a disabled site', async () => {
    const reference = await page('/p/no-such-workspace/');
    expect(reference.statusCode).toBe(404);
    const same = [
      `${base}/players/${HIDDEN_PLAYER.username}`,
      `${base}/players/${HIDDEN_PLAYER.uuid}`,
      `${base}/players/Nobody`,
      `${base}/leaderboards/${encodeURIComponent(SECRET_STAT)}`,
      `${base}/leaderboards/minecraft.custom:minecraft.nope`,
      `${base}/leaderboards/${encodeURIComponent(PLAY_TIME)}?season=nope`,
      `${base}/leaderboards/${encodeURIComponent(PLAY_TIME)}?page=0`,
      `${base}/embed/leaderboard/${encodeURIComponent(SECRET_STAT)}`,
      `${base}/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?limit=ten`,
      `${base}/nothing/here`,
      '/p',
      '/p/',
    ];
    for (const url of same) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toBe(reference.body);
      expect(res.headers['cache-control']).toBe(reference.headers['cache-control']);
    }
    expect(reference.body).not.toContain('Team');
    expect((await save({ ...ON, enabled: false })).statusCode).toBe(200);
    for (const url of [`${base}/`, `${base}/players/Alex`]) {
      const res = await page(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(reference.body);
    }
    expect((await save(ON)).statusCode).toBe(200);
    expect((await page(`${base}/`)).statusCode).toBe(200);
  });

  it('answers 304 to a matching If-None-Match, and gzip to those who accept it', async () => {
    const first = await page(`${base}/seasons`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await page(`${base}/seasons`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await page(`${base}/seasons`, { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
    const gz = await page(`${base}/`, { 'accept-encoding': 'gzip, br' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(30 * 1024);
  });

  it('lets any origin frame the embed unless origins are listed, and no other page', async () => {
    const embed = `${base}/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}`;
    let res = await page(embed);
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect((await save({ ...ON, embed_origins: ['https://club.example'] })).statusCode).toBe(200);
    res = await page(embed);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self' https://club.example");
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect((await page(`${base}/`)).headers['x-frame-options']).toBe('DENY');
    expect((await save(ON)).statusCode).toBe(200);
  });
});

describe('the rate limit', () => {
  it('answers 429 past PUBLIC_PAGE_LIMIT_PER_MINUTE pages from one address', async () => {
    const limited = await w.instance({ PUBLIC_PAGE_LIMIT_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await limited.app.inject({ method: 'GET', url: '/p/team/', remoteAddress: '10.0.0.7' })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const other = await limited.app.inject({ method: 'GET', url: '/p/team/', remoteAddress: '10.0.0.8' });
    expect(other.statusCode).toBe(200);
  });
});
