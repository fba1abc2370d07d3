import { formatStatValue } from '@statboard/sdk/format';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeHtml } from '#src/http/html-page.ts';
import {
  ACTOR,
  bearer,
  createTestContext,
  type Fixture,
  modBatch,
  seedWorkspace,
  type TestContext,
} from '../helpers.ts';

// The public site's numbers are the key routes' (network totals over two servers, a season that counts gains,
// competition ranks without hidden players), 50 a page; every page carries its head, caching and framing
// headers; names with HTML's special characters are escaped everywhere and their links still lead to them.

const PUBLIC_URL = 'https://stats.example';
const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
const WALKED = 'minecraft.custom:minecraft.walk_one_cm';
/** A name the upload rules allow (offline mode) with each of HTML's special characters. */
const TRICKY = { uuid: '7a000000-0000-4000-8000-000000000001', username: `<b>O'Ne"&x` };
const HIDDEN = { uuid: '7a000000-0000-4000-8000-000000000002', username: 'Hidden_Hal' };
const SEASON_2 = `Spring <"&'> Cup`;
const SITE_TITLE = `Club <"&'>`;

let ctx: TestContext;
let fx: Fixture;
let base = '';
let players: { uuid: string; username: string }[] = [];

/** Player i has (200 - i) × 1,000 ticks on the main server and, for i < 30, 500 × (30 - i) more on the lobby. */
const mainTicks = (i: number) => (200 - i) * 1000;
const lobbyTicks = (i: number) => (i < 30 ? 500 * (30 - i) : 0);

async function upload(
  token: string,
  list: { uuid: string; username: string; stats: { key: string; value: number }[] }[],
  online: string[],
) {
  const res = await ctx.http({
    method: 'POST',
    url: '/api/v1/ingest/server',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: JSON.stringify({ observed_at: new Date().toISOString(), players: list, online }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function agentFor(serverId: string): Promise<string> {
  const key = await ctx.services.keys.create(ACTOR, fx.workspaceId, {
    name: `agent ${serverId}`,
    type: 'integration',
    scopes: ['ingest:server'],
    server_restrictions: [serverId],
  });
  return key.secret;
}

function page(url: string, headers: Record<string, string> = {}) {
  return ctx.http({ url, headers });
}

/** The page at `url` once every featured rank on it has been counted (their boards read in the background). */
async function settled(url: string) {
  let res = await page(url);
  for (let i = 0; i < 50 && res.body.includes('being counted'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    res = await page(url);
  }
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).not.toContain('being counted');
  return res;
}

async function api<T>(url: string): Promise<T> {
  const res = await ctx.http({ url, headers: bearer(fx.keys.website!) });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
}

interface Entry {
  rank: number;
  player: { uuid: string; username: string };
  value: number;
}

/** A board's rows as the page shows them: rank, the name as written in HTML, the formatted value. */
function rows(html: string): [number, string, string][] {
  return [
    ...html.matchAll(
      /<tr(?: id="[^"]*")?><td class="r">(\d+)<\/td><td><a href="[^"]*"[^>]*>([^<]*)<\/a><\/td><td class="n">([^<]*)<\/td>/g,
    ),
  ].map((m) => [Number(m[1]), m[2]!, m[3]!]);
}

function expected(entries: Entry[], unit: 'ticks' | 'cm'): [number, string, string][] {
  return entries.map((e) => [e.rank, escapeHtml(e.player.username), escapeHtml(formatStatValue(e.value, unit))]);
}

/** The text of an attribute or element, as a browser reads it. */
function htmlText(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

function meta(html: string, attr: 'name' | 'property', name: string): string | null {
  const m = new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`).exec(html);
  return m ? htmlText(m[1]!) : null;
}

beforeAll(async () => {
  // Ranks counted for a page (PUBLIC_RANK_VALUES) off: these tests read the ranks held in memory or featured; the
  // counted ones are tested on sites of their own ("ranks of the statistics that are not featured").
  ctx = await createTestContext({ PUBLIC_URL, PUBLIC_RANK_VALUES: '0' });
  fx = await seedWorkspace(ctx.services);
  base = `/p/${(await ctx.db.query<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [fx.workspaceId]))[0]!.slug}`;
  const lobby = await ctx.services.servers.create(ACTOR, fx.workspaceId, {
    name: 'Lobby <1>',
    hostname: 'lobby.example.com',
    port: 25566,
  });
  const [main, second] = [await agentFor(fx.serverId), await agentFor(lobby.id)];
  players = Array.from({ length: 60 }, (_, i) => ({
    uuid: `7b000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    username: `Player_${String(i).padStart(2, '0')}`,
  }));
  await upload(
    main,
    [
      ...players.map((p, i) => ({
        ...p,
        stats: [
          { key: PLAY_TIME, value: mainTicks(i) },
          { key: WALKED, value: 100_000 * (i + 1) },
        ],
      })),
      { ...HIDDEN, stats: [{ key: PLAY_TIME, value: 9_000_000 }] },
    ],
    [players[0]!.uuid, HIDDEN.uuid],
  );
  await upload(
    second,
    [
      ...players.slice(0, 30).map((p, i) => ({ ...p, stats: [{ key: PLAY_TIME, value: lobbyTicks(i) }] })),
      { ...TRICKY, stats: [{ key: PLAY_TIME, value: 300_000 }] },
    ],
    [TRICKY.uuid],
  );
  await ctx.services.flush();
  await ctx.services.playerAdmin.update(ACTOR, fx.workspaceId, HIDDEN.uuid, { public: false });
  // A second season counting gains: what each player gained on top of the first season's values.
  await ctx.services.seasons.create(ACTOR, fx.workspaceId, {
    name: SEASON_2,
    slug: 's2',
    active: true,
    scoring: 'gains',
  });
  await upload(
    main,
    players.slice(0, 5).map((p, i) => ({ ...p, stats: [{ key: PLAY_TIME, value: mainTicks(i) + 1200 * (i + 1) }] })),
    [players[0]!.uuid],
  );
  await upload(second, [{ ...TRICKY, stats: [{ key: PLAY_TIME, value: 300_000 + 600 }] }], [TRICKY.uuid]);
  await ctx.services.flush();
  await ctx.services.publicSite.update(ACTOR, fx.workspaceId, {
    enabled: true,
    title: SITE_TITLE,
    description: '',
    featured_stats: [PLAY_TIME, WALKED],
    embed_origins: [],
  });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('the numbers of the public site', () => {
  it('shows the network total of a player on two servers, with the rank of /leaderboards/rank', async () => {
    const res = await page(`${base}/players/${players[0]!.username}?season=s1`);
    expect(res.statusCode, res.body).toBe(200);
    const rank = await api<{ total: number; entry: Entry }>(
      `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&player=${players[0]!.uuid}&around=0`,
    );
    expect(rank.entry.value).toBe(mainTicks(0) + lobbyTicks(0));
    // The trickily named player leads, the hidden one (the largest value) is not counted.
    expect(rank.entry.rank).toBe(2);
    expect(rank.total).toBe(61);
    const total = formatStatValue(mainTicks(0) + lobbyTicks(0), 'ticks');
    expect(total).toBe('2 h 59 min');
    expect(res.body).toMatch(
      new RegExp(`>Time Played</a></td><td class="n">${total}</td><td class="n">#2<span class="muted"> of 61</span>`),
    );
    expect(res.body).not.toContain(formatStatValue(mainTicks(0), 'ticks'));
  });

  it('pages a leaderboard 50 at a time with the entries of /leaderboards; past the last page is the 404 page', async () => {
    const stat = encodeURIComponent(PLAY_TIME);
    const first = await page(`${base}/leaderboards/${stat}?season=s1`);
    const second = await page(`${base}/leaderboards/${stat}?season=s1&page=2`);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const top = await api<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${stat}&limit=50`);
    const rest = await api<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s1&stat=${stat}&limit=50&offset=50`);
    expect(top.entries).toHaveLength(50);
    expect(rest.entries).toHaveLength(11);
    expect(rows(first.body)).toEqual(expected(top.entries, 'ticks'));
    expect(rows(second.body)).toEqual(expected(rest.entries, 'ticks'));
    expect(first.body).toContain(`href="${base}/leaderboards/${escapeHtml(stat)}?season=s1&amp;page=2" rel="next"`);
    expect(second.body).not.toContain('rel="next"');
    const missing = await page('/p/no-such-workspace/');
    const third = await page(`${base}/leaderboards/${stat}?season=s1&page=3`);
    expect(third.statusCode).toBe(404);
    expect(third.body).toBe(missing.body);
  });

  it('shows what each player gained in a season that counts gains, as /leaderboards does', async () => {
    const stat = encodeURIComponent(PLAY_TIME);
    const board = await api<{ entries: Entry[] }>(`/api/v1/leaderboards?season=s2&stat=${stat}&limit=50`);
    expect(board.entries.map((e) => [e.player.username, e.value])).toEqual([
      ['Player_04', 6000],
      ['Player_03', 4800],
      ['Player_02', 3600],
      ['Player_01', 2400],
      ['Player_00', 1200],
      [TRICKY.username, 600],
    ]);
    const res = await page(`${base}/leaderboards/${stat}`);
    expect(res.statusCode).toBe(200);
    expect(rows(res.body)).toEqual(expected(board.entries, 'ticks'));
    const home = await page(`${base}/`);
    expect(rows(home.body).slice(0, 6)).toEqual(expected(board.entries, 'ticks'));
    const player = await page(`${base}/players/Player_04`);
    expect(player.body).toContain(`<td class="n">${formatStatValue(6000, 'ticks')}</td><td class="n">#1<span`);
  });

  it('shows the top 10 of each featured statistic and who is online on the home page, no hidden player', async () => {
    const home = await page(`${base}/`);
    expect(home.statusCode).toBe(200);
    const boards = home.body.split('<section class="card" aria-labelledby="b').slice(1);
    expect(boards).toHaveLength(2);
    const walked = await api<{ entries: Entry[] }>(
      `/api/v1/leaderboards?season=s2&stat=${encodeURIComponent(WALKED)}&limit=10`,
    );
    // Absolute values of the first season are not gains of the second: nothing walked yet.
    expect(walked.entries).toHaveLength(0);
    const s1 = await page(`${base}/leaderboards/${encodeURIComponent(WALKED)}?season=s1`);
    expect(rows(s1.body)[0]).toEqual([1, 'Player_59', '60 km']);
    const online = home.body.split('aria-labelledby="online"')[1]!;
    expect(online).toContain('<h2 id="online">Online now (2)</h2>');
    expect(online).toContain('>Player_00</a> <span class="muted">on Main</span>');
    expect(online).toContain(`>${escapeHtml(TRICKY.username)}</a> <span class="muted">on Lobby &lt;1&gt;</span>`);
    expect(home.body).not.toContain(HIDDEN.username);
  });

  it('shows ten rows a board on the home page when more players have values', async () => {
    await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 's1');
    try {
      const home = await page(`${base}/`);
      const boards = home.body.split('<section class="card" aria-labelledby="b').slice(1);
      expect(boards.map((b) => rows(b).length)).toEqual([10, 10]);
      const top = await api<{ entries: Entry[] }>(
        `/api/v1/leaderboards?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&limit=10`,
      );
      expect(rows(boards[0]!)).toEqual(expected(top.entries, 'ticks'));
    } finally {
      await ctx.services.seasons.activate(ACTOR, fx.workspaceId, 's2');
    }
  });
});

describe('every page of the public site', () => {
  const pages = () => [
    { path: '/', title: SITE_TITLE },
    { path: '/seasons', title: `Seasons · ${SITE_TITLE}` },
    { path: '/players', title: `Players · ${SITE_TITLE}` },
    { path: `/players/${encodeURIComponent(TRICKY.username)}`, title: `${TRICKY.username} · ${SITE_TITLE}` },
    { path: `/leaderboards/${encodeURIComponent(PLAY_TIME)}?season=s2`, title: `Time Played · ${SITE_TITLE}` },
  ];

  it('has a title, a description and og tags with its address under PUBLIC_URL', async () => {
    for (const p of pages()) {
      const res = await page(`${base}${p.path}`);
      expect(res.statusCode, p.path).toBe(200);
      const title = /<title>([^<]*)<\/title>/.exec(res.body)?.[1];
      expect(htmlText(title ?? ''), p.path).toBe(p.title);
      expect(meta(res.body, 'property', 'og:title'), p.path).toBe(p.title);
      const description = meta(res.body, 'name', 'description');
      expect(description, p.path).toBeTruthy();
      expect(meta(res.body, 'property', 'og:description'), p.path).toBe(description);
      expect(meta(res.body, 'property', 'og:url'), p.path).toBe(`${PUBLIC_URL}${base}${p.path}`);
    }
  });

  it('is cached for 30 s, has an ETag answered with 304, and refuses framing (the embed aside)', async () => {
    for (const p of pages()) {
      const res = await page(`${base}${p.path}`);
      expect(res.headers['cache-control'], p.path).toBe('public, max-age=30');
      expect(res.headers['x-frame-options'], p.path).toBe('DENY');
      expect(res.headers['content-security-policy'], p.path).toContain("frame-ancestors 'none'");
      const etag = res.headers.etag as string;
      expect(etag, p.path).toBeTruthy();
      const again = await page(`${base}${p.path}`, { 'if-none-match': etag });
      expect(again.statusCode, p.path).toBe(304);
    }
  });

  it('escapes names with special characters in text, attributes and og tags', async () => {
    const tricky = escapeHtml(TRICKY.username);
    for (const p of [...pages(), { path: `/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}`, title: '' }]) {
      const res = await page(`${base}${p.path}`);
      expect(res.body, p.path).not.toMatch(/<b>|<"&'>|Club <|<1>/);
      expect(res.body, p.path).not.toContain("O'Ne");
    }
    const search = await page(`${base}/players?q=${encodeURIComponent('<b>O')}`);
    expect(search.body).not.toContain('<b>');
    expect(search.body).toContain(`value="&lt;b&gt;O"`);
    expect(search.body).toContain(`>${tricky}</a>`);
    const player = await page(`${base}/players/${TRICKY.uuid}`);
    expect(player.body).toContain(`<h1>${tricky}</h1>`);
    expect(meta(player.body, 'property', 'og:description')).toContain(`${TRICKY.username} in ${SEASON_2}`);
    const board = await page(`${base}/leaderboards/${encodeURIComponent(PLAY_TIME)}`);
    expect(meta(board.body, 'property', 'og:description')).toContain(`Time Played in ${SEASON_2}: 1. Player_04`);
  });

  it('draws the chart from the points of /players/{uuid}/stats/history, whichever statistic it shows', async () => {
    const units = { [PLAY_TIME]: 'ticks', [WALKED]: 'cm' } as const;
    // The featured statistic (read with the values in one statement), another one asked for (the same), one the
    // player has no value of in that season (the chart falls back to the featured one, read after), in a season of
    // values and in one that counts gains.
    const cases: [number, string, string | null, string][] = [
      [0, 's1', null, PLAY_TIME],
      [3, 's1', WALKED, WALKED],
      [0, 's2', null, PLAY_TIME],
      [1, 's2', WALKED, PLAY_TIME],
      [40, 's1', null, PLAY_TIME],
    ];
    for (const [i, season, asked, shown] of cases) {
      const uuid = players[i]!.uuid;
      const res = await page(
        `${base}/players/${uuid}?season=${season}${asked ? `&stat=${encodeURIComponent(asked)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const what = `player ${i}, ${season}, ${asked}`;
      expect(res.body, what).toContain(`<option value="${shown}" selected>`);
      const history = await api<{ points: { at: string; value: number }[] }>(
        `/api/v1/players/${uuid}/stats/history?stat=${encodeURIComponent(shown)}&season=${season}`,
      );
      const desc = htmlText(/<desc id="chart-d">([^<]*)<\/desc>/.exec(res.body)![1]!);
      const { points } = history;
      const fmt = (v: number) => formatStatValue(v, units[shown as keyof typeof units]);
      if (points.length === 0) expect(desc, what).toMatch(/^No change of .* in the last 30 days\.$/);
      else if (points.length === 1) {
        // One point: the day it changed, not "from 5 h to 5 h".
        const day = new Date(points[0]!.at).toLocaleDateString('en-US', {
          month: 'short',
          day: 'numeric',
          timeZone: 'UTC',
        });
        expect(desc.endsWith(` changed once in the last 30 days: ${fmt(points[0]!.value)} on ${day}.`), desc).toBe(
          true,
        );
      } else {
        expect(desc, what).toMatch(
          new RegExp(`went from ${fmt(points[0]!.value)} to ${fmt(points.at(-1)!.value)} in the last 30 days\\.$`),
        );
      }
      expect((res.body.match(/<circle class="dot"/g) ?? []).length, what).toBe(points.length);
    }
  });

  it("links to a player's page that serves it, whatever the name (the chart's form, other seasons)", async () => {
    const player = await page(`${base}/players/${TRICKY.uuid}?season=s1`);
    expect(player.statusCode).toBe(200);
    const links = [
      ...[...player.body.matchAll(/<form method="get" action="([^"]*)">/g)].map((m) => m[1]!),
      ...[...player.body.matchAll(/<li><a href="([^"]*)">/g)].map((m) => m[1]!),
    ].filter((l) => l.includes('/players/'));
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      const res = await page(htmlText(link));
      expect(res.statusCode, link).toBe(200);
      expect(res.body, link).toContain(`<h1>${escapeHtml(TRICKY.username)}</h1>`);
    }
  });
});

describe("a player's place on a board", () => {
  it("is where a ranked statistic's name on the player page leads: the board's page of the rank, at the player's row", async () => {
    const player = players[55]!;
    const rank = await api<{ total: number; entry: Entry }>(
      `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&player=${player.uuid}&around=0`,
    );
    expect(rank.entry.rank).toBeGreaterThan(50);
    const { body } = await settled(`${base}/players/${player.username}?season=s1`);
    const spot = `${base}/leaderboards/${encodeURIComponent(PLAY_TIME)}?season=s1&page=2#p-${player.uuid}`;
    expect(body).toContain(`<a href="${escapeHtml(spot)}">Time Played</a>`);
    // That page holds the player's row under that id (and only a board's page marks its rows).
    const board = await page(spot.slice(0, spot.indexOf('#')));
    expect(board.body).toContain(`<tr id="p-${player.uuid}"><td class="r">${rank.entry.rank}</td>`);
    expect((await page(`${base}/`)).body).not.toContain('<tr id=');
  });
});

describe('ranks on a player page', () => {
  it('shows the rank of a statistic that is not featured once its board is in memory, as /leaderboards/rank', async () => {
    const settings = { enabled: true, title: SITE_TITLE, description: '', embed_origins: [] };
    const player = players[3]!;
    const rank = async () =>
      api<{ total: number; entry: Entry }>(
        `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(WALKED)}&player=${player.uuid}&around=0`,
      );
    await ctx.services.publicSite.update(ACTOR, fx.workspaceId, { ...settings, featured_stats: [PLAY_TIME] });
    try {
      // The board read once, in memory shortly after; the page is rendered after it (the settings' change
      // rendered the site's pages anew).
      await rank();
      await new Promise((r) => setTimeout(r, 300));
      const expectedRank = await rank();
      const res = await page(`${base}/players/${player.username}?season=s1`);
      expect(res.statusCode, res.body).toBe(200);
      const walked = escapeHtml(formatStatValue(expectedRank.entry.value, 'cm'));
      expect(res.body).toMatch(
        new RegExp(
          `>Distance Walked</a></td><td class="n">${walked}</td><td class="n">#${expectedRank.entry.rank}<span class="muted"> of ${expectedRank.total}</span>`,
        ),
      );
    } finally {
      await ctx.services.publicSite.update(ACTOR, fx.workspaceId, { ...settings, featured_stats: [PLAY_TIME, WALKED] });
    }
  });
});

/**
 * A workspace of its own (`overrides`: its config), whose `crowd` of players the agent of its server uploaded
 * `stats(i)` of (player i), with the site on and `featured` featured: the pages at `paths` (under the site's
 * address; status 200) once no rank is being counted on them.
 */
async function ownSite(
  overrides: Parameters<typeof createTestContext>[1],
  crowd: { uuid: string; username: string }[],
  stats: (i: number) => { key: string; value: number }[],
  paths: string[],
  /** Runs once the values are in (settings of the workspace's statistics). */
  prepare: (own: TestContext, workspaceId: string) => Promise<unknown> = async () => undefined,
  featured: string[] = [PLAY_TIME],
): Promise<string[]> {
  const own = await createTestContext({ PUBLIC_URL }, overrides);
  try {
    const ofx = await seedWorkspace(own.services);
    const agent = await own.services.keys.create(ACTOR, ofx.workspaceId, {
      name: 'agent',
      type: 'integration',
      scopes: ['ingest:server'],
      server_restrictions: [ofx.serverId],
    });
    const res = await own.http({
      method: 'POST',
      url: '/api/v1/ingest/server',
      headers: { ...bearer(agent.secret), 'content-type': 'application/json' },
      payload: JSON.stringify({
        observed_at: new Date().toISOString(),
        players: crowd.map((p, i) => ({ ...p, stats: stats(i) })),
        online: [],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    await own.services.flush();
    await prepare(own, ofx.workspaceId);
    await own.services.publicSite.update(ACTOR, ofx.workspaceId, {
      enabled: true,
      title: SITE_TITLE,
      description: '',
      embed_origins: [],
      featured_stats: featured,
    });
    const slug = (
      await own.db.query<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [ofx.workspaceId])
    )[0]!.slug;
    const bodies: string[] = [];
    for (const path of paths) {
      for (let i = 0; ; i++) {
        const r = await own.http({ url: `/p/${slug}${path}` });
        expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
        if (!r.body.includes('being counted') || i === 50) {
          bodies.push(r.body);
          break;
        }
        await new Promise((done) => setTimeout(done, 100));
      }
    }
    return bodies;
  } finally {
    await own.close();
  }
}

describe('ranks of the statistics that are not featured', () => {
  const settings = { enabled: true, title: SITE_TITLE, description: '', embed_origins: [] };
  const hint = "&mdash; means the rank is on the statistic's leaderboard: follow its name.";
  const unranked = (html: string) => /<td class="n"><span class="muted">&mdash;<\/span><\/td><\/tr>/.test(html);

  it('are on the player page when the boards are small, as /leaderboards/rank has them, with no note', async () => {
    const player = players[7]!;
    const url = `${base}/players/${player.username}?season=s1`;
    // Both of the player's statistics featured: both ranked, no note.
    const ranked = (await settled(url)).body;
    expect(unranked(ranked), ranked).toBe(false);
    expect(ranked).not.toContain(hint);
    await ctx.services.publicSite.update(ACTOR, fx.workspaceId, { ...settings, featured_stats: [PLAY_TIME] });
    try {
      // Every board read again: Distance Walked, no longer featured, is ranked all the same (61 players: a board
      // held whole), with the rank /leaderboards/rank gives.
      ctx.bus.applyLocal({ topic: 'values', workspaceId: fx.workspaceId });
      const { body } = await settled(url);
      const rank = await api<{ total: number; entry: Entry }>(
        `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(WALKED)}&player=${player.uuid}&around=0`,
      );
      expect(body).toContain(
        `>Distance Walked</a></td><td class="n">${escapeHtml(formatStatValue(rank.entry.value, 'cm'))}</td><td class="n">#${rank.entry.rank}<span class="muted"> of ${rank.total}</span>`,
      );
      expect(unranked(body), body).toBe(false);
      expect(body).not.toContain(hint);
    } finally {
      await ctx.services.publicSite.update(ACTOR, fx.workspaceId, { ...settings, featured_stats: [PLAY_TIME, WALKED] });
    }
  });

  it("are left to the statistic's leaderboard when its board is large and the network too, and the page says so", async () => {
    // A budget of 10 full entries: a board of 12 players is large; one statistic to rank counts as 100 values at
    // least, more than the 99 PUBLIC_RANK_VALUES lets a page count.
    const [body = ''] = await ownSite(
      { rankCacheEntries: 10, publicRankValues: 99 },
      players.slice(0, 12),
      (i) => [
        { key: PLAY_TIME, value: mainTicks(i) },
        { key: WALKED, value: 100_000 * (i + 1) },
      ],
      [`/players/${players[4]!.username}?season=s1`],
    );
    // The featured statistic ranked (#5 of 12), the other one not: its dash gets the note.
    expect(body).toMatch(/>Time Played<\/a><\/td><td class="n">[^<]+<\/td><td class="n">#5<span class="muted"> of 12</);
    expect(body).toMatch(
      />Distance Walked<\/a><\/td><td class="n">[^<]+<\/td><td class="n"><span class="muted">&mdash;/,
    );
    expect(body).toContain(`<p class="muted">${hint}</p>`);
  });

  it('are all counted on a small network, however many statistics, hidden players left out; values of 0 are not shown', async () => {
    const plugin = (n: number) => `plugin.stats:count_${String(n).padStart(3, '0')}`;
    const LAP = 'plugin.stats:best_lap';
    // Time Played, a lap time (less is better) and 100 statistics of a plugin, 5 of them 0: one of those where
    // less is better. The fourth player hidden: its values are on no board.
    const crowd = players.slice(0, 4);
    const [body = ''] = await ownSite(
      {},
      crowd,
      (i) => [
        { key: PLAY_TIME, value: mainTicks(i) },
        { key: LAP, value: i === 1 ? 10 : i === 3 ? 5 : 20 + i },
        ...Array.from({ length: 100 }, (_, n) => ({ key: plugin(n), value: n < 5 ? 0 : n * (i + 1) })),
      ],
      [`/players/${players[1]!.username}?season=s1`],
      async (own, workspaceId) => {
        await own.services.stats.update(ACTOR, workspaceId, plugin(0), { sort_order: 'asc' });
        await own.services.stats.update(ACTOR, workspaceId, LAP, { sort_order: 'asc' });
        await own.services.playerAdmin.update(ACTOR, workspaceId, crowd[3]!.uuid, { public: false });
      },
    );
    const cell = (name: string, value: string, rank: string) =>
      `>${name}</a></td><td class="n">${value}</td><td class="n">${rank}<span class="muted"> of 3</span>`;
    expect(body).toMatch(/>Time Played<\/a><\/td><td class="n">[^<]+<\/td><td class="n">#2<span class="muted"> of 3</);
    // 2n against n and 3n (the hidden player's 4n is on no board).
    expect(body).toContain(cell('plugin.stats:count_099', '198', '#2'));
    expect(body).toContain(cell('plugin.stats:count_005', '10', '#2'));
    // Less is better: 10 is the best public lap (the hidden player's 5 does not count).
    expect(body).toContain(cell(LAP, '10', '#1'));
    // Where less is better, 0 is shown, and ranked (all three tied).
    expect(body).toContain(cell('plugin.stats:count_000', '0', '#1'));
    expect(unranked(body), body).toBe(false);
    expect(body).not.toContain(hint);
    // Each category a group of rows under its name, the game's first.
    expect(body).toContain('<tbody><tr><th scope="rowgroup" colspan="3">General</th></tr><tr><td><a');
    expect(body.indexOf('>plugin.stats</th>')).toBeGreaterThan(body.indexOf('>General</th>'));
    // The values of 0 where more is better: counted under the table, neither rows nor charted.
    expect(body).not.toContain('>plugin.stats:count_004</a>');
    expect(body).not.toContain('value="plugin.stats:count_004"');
    expect(body).toContain('<p class="muted">4 more statistics are at 0, not shown.</p>');
  });
});

describe('ranks past 999', () => {
  it('are written with thousands separators, on the player page, the board and in the descriptions', async () => {
    // Three players uploaded, and 1,000 more written to the store below them (ranks 4 to 1,003).
    const [page = '', board = '', list = ''] = await ownSite(
      {},
      players.slice(0, 3),
      (i) => [{ key: PLAY_TIME, value: mainTicks(i) }],
      ['/players/Crowd_1000?season=s1', `/leaderboards/${encodeURIComponent(PLAY_TIME)}?page=21`, '/players'],
      async (own, workspaceId) => {
        await own.db.query(
          `INSERT INTO players (workspace_id, uuid, username, username_observed_at)
           SELECT $1, gen_random_uuid(), 'Crowd_' || g, now() FROM generate_series(1, 1000) g`,
          [workspaceId],
        );
        await own.db.query(
          `INSERT INTO player_stats (season_id, stat_id, player_id, value, observed_at, updated_at)
           SELECT s.id, d.id, p.id, 2000 - substr(p.username, 7)::int, now(), now()
           FROM players p JOIN seasons s ON s.workspace_id = p.workspace_id AND s.slug = 's1'
           JOIN stat_definitions d ON d.workspace_id = p.workspace_id AND d.key = $2
           WHERE p.workspace_id = $1 AND p.username LIKE 'Crowd%'`,
          [workspaceId, PLAY_TIME],
        );
      },
    );
    expect(page).toMatch(
      />Time Played<\/a><\/td><td class="n">[^<]+<\/td><td class="n">#1,003<span class="muted"> of 1,003</,
    );
    expect(board).toContain('<td class="r">1,001</td>');
    expect(board).toContain('>Crowd_998</a>');
    expect(meta(board, 'name', 'description')).toMatch(/^Time Played in [^:]+: 1,001\. Crowd_998 /);
    expect(meta(list, 'name', 'description')).toMatch(/^1,003 players of /);
  });
});

describe('players at 0 on the boards', () => {
  it('are left out where more is better (with a line saying so, and no page after them), listed where less is', async () => {
    const BROKEN = 'minecraft.broken:minecraft.wooden_pickaxe';
    const DEATHS = 'minecraft.custom:minecraft.deaths';
    const NEVER = 'minecraft.broken:minecraft.netherite_hoe';
    const CRAFTED = 'minecraft.crafted:minecraft.torch';
    // 60 players: 55 of them broke no pickaxe (0), 3 never died (0), 10 crafted no torch (0, after a full page of
    // 50 who did); nobody broke a netherite hoe.
    const crowd = players.slice(0, 60);
    const [board = '', home = '', embed = '', deaths = '', never = '', crafted = '', past = ''] = await ownSite(
      {},
      crowd,
      (i) => [
        { key: BROKEN, value: i < 5 ? 10 - i : 0 },
        { key: DEATHS, value: i < 3 ? 0 : i },
        { key: NEVER, value: 0 },
        { key: CRAFTED, value: i < 50 ? 100 - i : 0 },
      ],
      [
        `/leaderboards/${encodeURIComponent(BROKEN)}`,
        '/',
        `/embed/leaderboard/${encodeURIComponent(BROKEN)}?limit=10`,
        `/leaderboards/${encodeURIComponent(DEATHS)}`,
        `/leaderboards/${encodeURIComponent(NEVER)}`,
        `/leaderboards/${encodeURIComponent(CRAFTED)}`,
        `/leaderboards/${encodeURIComponent(CRAFTED)}?page=2`,
      ],
      (own, workspaceId) => own.services.stats.update(ACTOR, workspaceId, DEATHS, { sort_order: 'asc' }),
      [BROKEN],
    );
    expect(rows(board).map(([rank, , value]) => [rank, value])).toEqual([
      [1, '10'],
      [2, '9'],
      [3, '8'],
      [4, '7'],
      [5, '6'],
    ]);
    expect(board).toContain('<p class="muted">Players at 0 are not listed.</p>');
    expect(board).not.toContain('rel="next"');
    expect(rows(home)).toHaveLength(5);
    expect(embed.match(/<tr><td class="r">/g)).toHaveLength(5);
    // Where less is better, 0 leads.
    expect(
      rows(deaths)
        .slice(0, 4)
        .map(([rank, , value]) => [rank, value]),
    ).toEqual([
      [1, '0'],
      [1, '0'],
      [1, '0'],
      [4, '3'],
    ]);
    expect(deaths).not.toContain('Players at 0 are not listed.');
    expect(never).toContain('<p class="muted">Nobody has more than 0 yet.</p>');
    // A full page whose next entry is 0: the note, no next page; that page itself, asked for, only the note.
    expect(rows(crafted)).toHaveLength(50);
    expect(crafted).toContain('<p class="muted">Players at 0 are not listed.</p>');
    expect(crafted).not.toContain('rel="next"');
    expect(rows(past)).toEqual([]);
    expect(past).toContain('<p class="muted">Players at 0 are not listed.</p>');
    expect(past).not.toContain('Nobody');
  });
});

describe('a featured rank whose board is being read', () => {
  it('is shown as not counted yet rather than counted with a query, and the page is rendered again next time', async () => {
    const player = players[41]!;
    const url = `${base}/players/${player.username}?season=s1`;
    let firstEtag = '';
    // The database slow to read boards (as a board of 1,000,000 values is): their reads wait until `open`.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const query = ctx.db.query;
    const sent: string[] = [];
    ctx.db.query = (async (sql: string, params?: readonly unknown[]) => {
      sent.push(sql);
      if (sql.includes('SELECT count(*)::int AS n FROM (SELECT 1 FROM')) await gate;
      return query.call(ctx.db, sql, params);
    }) as typeof query;
    try {
      // Every board read again (a change that tells no values).
      ctx.bus.applyLocal({ topic: 'values', workspaceId: fx.workspaceId });
      const first = await page(url);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.body).toContain('Ranks are being counted: reload in a moment.');
      // Not kept here; sent with the header of every page, and a validator that is not the complete page's (a
      // reload revalidates: it gets the ranks).
      expect(first.headers['cache-control']).toBe('public, max-age=30');
      firstEtag = String(first.headers.etag);
      expect(first.body).toMatch(
        />Time Played<\/a><\/td><td class="n">[^<]+<\/td><td class="n"><span class="muted">&mdash;<\/span>/,
      );
      // No rank window was asked of the database for the page.
      expect(sent.filter((sql) => sql.includes('me AS ('))).toEqual([]);
    } finally {
      open();
      ctx.db.query = query;
    }
    const rank = await api<{ total: number; entry: Entry }>(
      `/api/v1/leaderboards/rank?season=s1&stat=${encodeURIComponent(PLAY_TIME)}&player=${player.uuid}&around=0`,
    );
    const again = await settled(url);
    expect(again.headers['cache-control']).toBe('public, max-age=30');
    expect(String(again.headers.etag)).not.toBe(firstEtag);
    const revalidated = await page(url, { 'if-none-match': firstEtag });
    expect(revalidated.statusCode).toBe(200);
    expect(again.body).toContain(
      `>Time Played</a></td><td class="n">${escapeHtml(formatStatValue(rank.entry.value, 'ticks'))}</td><td class="n">#${rank.entry.rank}<span class="muted"> of ${rank.total}</span>`,
    );
  });
});

describe('the 404 page', () => {
  it('is the same for an unknown season or player of a player page and for an embed asked badly', async () => {
    const missing = await page('/p/no-such-workspace/');
    for (const path of [
      `/players/${players[1]!.username}?season=nope`,
      `/players/${HIDDEN.uuid}?season=s1`,
      `/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?limit=-1`,
      `/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?theme=blue`,
      `/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?season=nope`,
      `/leaderboards/${encodeURIComponent(PLAY_TIME)}?page=abc`,
      '/players?page=3',
      '/players?q=Player_0&page=2',
    ]) {
      const res = await page(`${base}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).toBe(missing.body);
    }
    const list = await page(`${base}/players?page=2`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('>Player_59</a>');
    const embed = await page(`${base}/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?limit=25&theme=light`);
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
  });

  it("clamps an embed's limit to 1..25, as the leaderboards clamp theirs", async () => {
    const embed = (limit: string) =>
      page(`${base}/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?season=s1&limit=${limit}`);
    const rowsOf = (html: string) => html.split('<td class="r">').length - 1;
    const most = await embed('25');
    expect(rowsOf(most.body)).toBe(25);
    for (const over of ['26', '100', '999999']) expect((await embed(over)).body, over).toBe(most.body);
    const one = await embed('1');
    expect(rowsOf(one.body)).toBe(1);
    expect((await embed('0')).body).toBe(one.body);
  });
});

describe('pages and new statistics', () => {
  it('keeps its pages for their age when uploads add statistics, and renders them anew when one is renamed', async () => {
    // The active season's page of a player whose values change: an upload's values show within the page's age.
    const url = `${base}/players/${players[0]!.username}?season=s2`;
    // A page is kept from the second time it is asked for.
    const before = await page(url);
    expect(before.statusCode).toBe(200);
    expect((await page(url)).headers.etag).toBe(before.headers.etag);
    // The player's game uploads a higher value and a statistic nobody had (the mod's batch, with a client key).
    const res = await ctx.http({
      method: 'POST',
      url: '/api/v1/ingest/batch',
      headers: { ...bearer(fx.keys.client!), 'content-type': 'application/json' },
      payload: JSON.stringify(
        modBatch({
          uuid: players[0]!.uuid,
          username: players[0]!.username,
          observedAt: new Date().toISOString(),
          stats: [
            { key: PLAY_TIME, value: mainTicks(0) + 2400 },
            { key: 'minecraft.mined:minecraft.dirt', value: 7 },
          ],
        }),
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    await ctx.services.flush();
    const [gain] = await ctx.db.query<{ gain: number }>(
      `SELECT ps.gain FROM player_stats ps JOIN stat_definitions d ON d.id = ps.stat_id
       JOIN players p ON p.id = ps.player_id JOIN seasons s ON s.id = ps.season_id
       WHERE p.uuid = $1 AND d.key = $2 AND s.slug = 's2' AND s.workspace_id = $3`,
      [players[0]!.uuid, PLAY_TIME, fx.workspaceId],
    );
    expect(gain?.gain).toBe(2400);
    // The new statistic did not render the site anew: the page is the one rendered before, for its age.
    expect((await page(url)).headers.etag).toBe(before.headers.etag);
    await ctx.services.stats.update(ACTOR, fx.workspaceId, WALKED, { display_name: 'Distance on Foot' });
    try {
      const renamed = await page(url);
      expect(renamed.headers.etag).not.toBe(before.headers.etag);
      expect(renamed.body).toContain(`<td class="n">${formatStatValue(2400, 'ticks')}</td>`);
    } finally {
      await ctx.services.stats.update(ACTOR, fx.workspaceId, WALKED, { display_name: null });
    }
  });
});

describe('a database that cannot answer', () => {
  it('serves a page up to 5 minutes past its age instead of a 503, then the error', async () => {
    const url = `${base}/players/${players[1]!.username}?season=s1`;
    // Read twice: a page is kept from the second time it is asked for; one read once is not (below).
    const fresh = await page(url);
    expect(fresh.statusCode).toBe(200);
    await page(url);
    const once = `${base}/players/${players[2]!.username}?season=s1`;
    expect((await page(once)).statusCode).toBe(200);
    const query = ctx.db.query;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 40_000 });
    // Every statement is cancelled, as PostgreSQL's statement_timeout does when it is overloaded.
    ctx.db.query = () =>
      Promise.reject(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    try {
      const stale = await page(url);
      expect(stale.statusCode).toBe(200);
      expect(stale.headers.etag).toBe(fresh.headers.etag);
      expect((await page(once)).statusCode).toBe(503);
      vi.setSystemTime(Date.now() + 6 * 60_000);
      expect((await page(url)).statusCode).toBe(503);
    } finally {
      ctx.db.query = query;
      vi.useRealTimers();
    }
  });
});
