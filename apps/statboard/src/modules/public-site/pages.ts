import type { Static } from '@sinclair/typebox';
import { formatStatValue } from '@statboard/sdk/format';
import type { AuthKey } from '#src/access/auth-key.ts';
import { AppError } from '#src/errors.ts';
import type { Services } from '#src/feature.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { isUuid } from '#src/lib/uuid.ts';
import type { History } from '#src/modules/history/service.ts';
import type { DefinitionRow } from '#src/modules/leaderboards/repo.ts';
import type { Leaderboard, RankedValue } from '#src/modules/leaderboards/service.ts';
import type { PlayerStatsResponse } from '#src/modules/players/schemas.ts';
import type { PlayerPage, ValueUse } from '#src/modules/players/service.ts';
import type { Season } from '#src/modules/seasons/service.ts';
import { categoryName, compareCategories } from '#src/modules/stats/game-catalog.ts';
import type { PublicStat } from '#src/modules/stats/schemas.ts';
import { type ChartPoint, chartSummary, lineChart } from './chart.ts';
import { embedPage, h, type PageHead, siteHeader, sitePage } from './html.ts';
import { type PublicSite, siteKey } from './service.ts';

/** Entries of a leaderboard page, and of the home page's boards. */
export const BOARD_PAGE_SIZE = 50;
const HOME_TOP = 10;
/**
 * Public statistics a workspace has at most for its player pages to rank every value whose board is small (see
 * `player`): the boards pages may have read and held for ranks are that many at most.
 */
const MAX_RANKED_STATS = 100;
/** Statistics a page of the leaderboards' index lists. */
const BOARDS_PAGE_SIZE = 200;
/** Pages past the top that the key routes serve (`offset` ≤ 10,000). */
export const MAX_BOARD_PAGE = 201;
/** Players listed as online on the home page (the rest are counted). */
const ONLINE_SHOWN = 100;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What a page is, from its address: what the renderer needs, and the page cache's key. */
export type PageRequest =
  | { kind: 'home' }
  | { kind: 'seasons' }
  | { kind: 'players'; q: string; page: number }
  | { kind: 'boards'; q: string; page: number }
  | { kind: 'player'; ref: string; season: string | null; stat: string | null }
  | { kind: 'board'; stat: string; season: string | null; page: number }
  | { kind: 'embed'; stat: string; season: string | null; limit: number; theme: 'light' | 'dark' | null };

/** A rendered page: 200 with its HTML, or null: the one 404 page. */
export type RenderedHtml = string | null;

type OnlineAnswer = {
  data: { player: { uuid: string; username: string }; server: { name: string } }[];
};
type StatsAnswer = Static<typeof PlayerStatsResponse>;
/**
 * What a player page shows of `GET /players/{uuid}/stats`: the player, its public values' keys and numbers (and
 * their statistics' ids, when read with them).
 */
type PageValues = {
  player: { uuid: string; username: string };
  stats: { key: string; value: number; id?: string }[];
  /** Values already left out of `stats` and counted (see `ValueUse`). */
  left?: number;
};

const dates = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const shortDates = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function day(iso: string | null): string {
  return iso === null ? '' : dates.format(new Date(iso));
}

/** Days `shortDay` wrote, by UTC day number: a chart's two labels change once a day, and formatting is costly. */
const shortDays = new Map<number, string>();

/** "Nov 28": the day of `at` (milliseconds since the epoch), UTC. */
function shortDay(at: number): string {
  const d = Math.floor(at / DAY_MS);
  let text = shortDays.get(d);
  if (text === undefined) {
    if (shortDays.size >= 64) shortDays.clear();
    text = shortDates.format(new Date(at));
    shortDays.set(d, text);
  }
  return text;
}

function parse<T>(buffer: Buffer): T {
  return JSON.parse(buffer.toString('utf8')) as T;
}

/**
 * Answers the services keep (the catalog, the seasons), parsed once per answer: a service makes a new buffer when
 * what it holds changes, so a parse kept by the buffer lasts exactly as long as that answer. What is kept here
 * is shared by the pages that read it, and never changed.
 */
const parsed = new WeakMap<Buffer, unknown>();

function parseKept<T>(buffer: Buffer, make: (json: T) => unknown = (json) => json): unknown {
  let value = parsed.get(buffer);
  if (value === undefined) {
    value = make(parse<T>(buffer));
    parsed.set(buffer, value);
  }
  return value;
}

/**
 * What a cell with nothing to show holds (no rank, no date). Markup of our own is ASCII (the entity, not the
 * character), and text is written in ASCII by `h`: a page is copied into bytes rather than encoded (`pageBytes`).
 */
const NONE = '&mdash;';
/** The rank cell of a value without one on this page. */
const UNRANKED = `<span class="muted">${NONE}</span>`;

/** A public statistic with the parts of the pages that show it, escaped once per catalog. */
interface StatParts {
  def: PublicStat;
  /** `key`, for HTML. */
  key: string;
  /** `display_name`, for HTML. */
  name: string;
  /** `key` in a path, for HTML. */
  path: string;
  /** Its `<option>` in a player page's chart picker, when not the one selected (made when first needed). */
  option?: string;
  /** The start of its row on a player page, to its board of a site (`base`) and season (`season`): made when needed. */
  row?: { base: string; season: string; open: string };
}

/** `stat`'s `<option>` in a player page's chart picker, not selected: made once per catalog. */
function statOption(stat: StatParts): string {
  stat.option ??= `<option value="${stat.key}">${stat.name}</option>`;
  return stat.option;
}

/**
 * The start of `stat`'s row on a player page up to its value: its name linked to its board on the site at `base`
 * in the season of `seasonQuery` (both for HTML), at the player's place on it (`spot`: see `boardSpot`). The link's
 * start is made once per catalog, site and season (most pages show the running season).
 */
function rowStart(stat: StatParts, base: string, seasonQuery: string, spot: string): string {
  let row = stat.row;
  if (row === undefined || row.base !== base || row.season !== seasonQuery) {
    row = { base, season: seasonQuery, open: `<tr><td><a href="${base}/leaderboards/${stat.path}${seasonQuery}` };
    stat.row = row;
  }
  return `${row.open}${spot}">${stat.name}</a></td><td class="n">`;
}

interface Catalog {
  defs: Map<string, PublicStat>;
  parts: Map<string, StatParts>;
}

function toCatalog(list: { data: PublicStat[] }): Catalog {
  const defs = new Map<string, PublicStat>();
  const parts = new Map<string, StatParts>();
  for (const d of list.data) {
    defs.set(d.key, d);
    parts.set(d.key, { def: d, key: h(d.key), name: h(d.display_name), path: h(encodeURIComponent(d.key)) });
  }
  return { defs, parts };
}

/** The index of the leaderboards of a catalog, made once per catalog (see `boardIndex`). */
const boardIndexes = new WeakMap<Map<string, StatParts>, { stat: StatParts; text: string }[]>();

/**
 * A catalog's statistics in the order of the index of the leaderboards (by category as the game's statistics
 * screen orders them, by name within one), each with the text a search looks in (its name and key, lower case):
 * sorted once per catalog, not per page (thousands of statistics, with a search per address).
 */
function boardIndex(parts: Map<string, StatParts>): { stat: StatParts; text: string }[] {
  let index = boardIndexes.get(parts);
  if (index === undefined) {
    index = [...parts.values()]
      .sort(
        (a, b) =>
          compareCategories(a.def.category, b.def.category) ||
          a.def.display_name.localeCompare(b.def.display_name) ||
          a.def.key.localeCompare(b.def.key),
      )
      .map((stat) => ({ stat, text: `${stat.def.display_name}\n${stat.def.key}`.toLowerCase() }));
    boardIndexes.set(parts, index);
  }
  return index;
}

/** What every page of a site starts from: the site's key, path and header, made once per site's settings. */
interface SiteParts {
  key: AuthKey;
  base: string;
  header: string;
}

const siteParts = new WeakMap<PublicSite, SiteParts>();

function partsOf(site: PublicSite): SiteParts {
  let parts = siteParts.get(site);
  if (!parts) {
    const base = `/p/${encodeURIComponent(site.slug)}`;
    parts = { key: siteKey(site.workspaceId), base, header: siteHeader({ title: site.title, base }) };
    siteParts.set(site, parts);
  }
  return parts;
}

/** `answer()`, or null for an expected refusal (unknown season, statistic or player). */
async function refusedAsNull<T>(answer: () => T | Promise<T>): Promise<T | null> {
  try {
    return await answer();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
}

/** A service's answer, parsed; an expected refusal (unknown season, statistic or player) is null. */
function read<T>(answer: () => Buffer | Promise<Buffer>): Promise<T | null> {
  return refusedAsNull(async () => parse<T>(await answer()));
}

/**
 * Renders the public pages from the services the key routes use (leaderboards, players, history, online), read
 * with the site's key ({@link siteKey}): the same numbers (network totals, season scoring) and the same rule that
 * only public players and statistics show. Anything a page needs that is not there makes it the 404 page.
 */
export class PageRenderer {
  constructor(
    private readonly s: Services,
    /** PUBLIC_URL, without a trailing slash. */
    private readonly publicUrl: string,
    /** The clock of the 30-day charts. */
    private readonly now: () => number = Date.now,
  ) {}

  /** A page's HTML (null: the 404 page), and whether it lacks a part for now (then it is not to be kept). */
  async render(site: PublicSite, req: PageRequest): Promise<{ html: RenderedHtml; provisional: boolean }> {
    const { key, base, header } = partsOf(site);
    const { defs, parts } = await this.catalog(site.workspaceId);
    const ctx: Ctx = { site, key, catalog: defs, parts, base, header, htmlBase: h(base), provisional: false };
    const html = await this.renderPage(ctx, req);
    return { html, provisional: ctx.provisional };
  }

  private renderPage(ctx: Ctx, req: PageRequest): Promise<RenderedHtml> {
    switch (req.kind) {
      case 'home':
        return this.home(ctx);
      case 'seasons':
        return this.seasons(ctx);
      case 'players':
        return this.players(ctx, req.q, req.page);
      case 'boards':
        return Promise.resolve(this.boards(ctx, req.q, req.page));
      case 'player':
        return this.player(ctx, req.ref, req.season, req.stat);
      case 'board':
        return this.board(ctx, req.stat, req.season, req.page);
      case 'embed':
        return this.embed(ctx, req.stat, req.season, req.limit, req.theme);
    }
  }

  private async catalog(workspaceId: string): Promise<Catalog> {
    return parseKept(await this.s.stats.publicJson(workspaceId), toCatalog) as Catalog;
  }

  private head(ctx: Ctx, path: string, title: string, description: string): PageHead {
    const full = title === ctx.site.title ? title : `${title} · ${ctx.site.title}`;
    return { title: full, description, url: `${this.publicUrl}${ctx.base}${path}` };
  }

  private page(ctx: Ctx, head: PageHead, body: string): string {
    return sitePage(head, { title: ctx.site.title, base: ctx.base }, body, ctx.header);
  }

  /** The workspace's seasons, from the cached answer of `GET /seasons`. */
  private async seasonList(ctx: Ctx): Promise<Season[]> {
    return (parseKept(await this.s.seasons.listJson(ctx.key)) as { data: Season[] }).data;
  }

  private async activeSeason(workspaceId: string): Promise<Season | null> {
    return this.s.seasons.active(workspaceId);
  }

  private readableSeason(ctx: Ctx, ref: string | null): Promise<Season | null> {
    return refusedAsNull(() => this.s.seasons.readable(ctx.key, ref ?? undefined));
  }

  private top(ctx: Ctx, season: Season, stat: string, limit: number, offset = 0): Promise<Leaderboard | null> {
    return read<Leaderboard>(() => this.s.leaderboards.json(ctx.key, { season: season.id, stat, limit, offset }));
  }

  private async home(ctx: Ctx): Promise<RenderedHtml> {
    const { site, catalog } = ctx;
    const season = await this.activeSeason(site.workspaceId);
    const featured = site.settings.featured_stats.filter((k) => catalog.has(k));
    const boards = season
      ? await Promise.all(
          featured.map(async (k) => ({ stat: catalog.get(k)!, board: await this.top(ctx, season, k, HOME_TOP) })),
        )
      : [];
    const online = (await read<OnlineAnswer>(() => this.s.online.json(ctx.key)))?.data ?? [];
    const intro = site.settings.description ? `<p class="lead">${h(site.settings.description)}</p>` : '';
    const seasonLine = season
      ? `<p>Season: <strong>${h(season.name)}</strong>${season.started_at ? `, since ${h(day(season.started_at))}` : ''}. <a href="${ctx.base}/seasons">All seasons</a></p>`
      : `<p>No season is running right now. <a href="${ctx.base}/seasons">All seasons</a></p>`;
    const search = searchForm(ctx, '');
    // What each board lists (see `listed`): its cards, and the leaders the description names.
    const shownBoards = boards.map(({ stat, board }) => ({ stat, rows: listed(board?.entries ?? [], stat).entries }));
    const cards = shownBoards
      .map(({ stat, rows }, i) => {
        const link = `${ctx.base}/leaderboards/${encodeURIComponent(stat.key)}`;
        return `<section class="card" aria-labelledby="b${i}"><h2 id="b${i}"><a href="${h(link)}">${h(stat.display_name)}</a></h2>
${rows.length ? entriesTable(ctx, rows, stat, `Top ${HOME_TOP}: ${stat.display_name}`) : '<p class="muted">No values yet.</p>'}
<p><a href="${h(link)}">Full leaderboard<span class="sr">: ${h(stat.display_name)}</span></a></p></section>`;
      })
      .join('\n');
    const shown = online.slice(0, ONLINE_SHOWN);
    const onlineList = shown.length
      ? `<ul class="plain">${shown.map((o) => `<li><a href="${playerLink(ctx, o.player.username)}">${h(o.player.username)}</a> <span class="muted">on ${h(o.server.name)}</span></li>`).join('')}</ul>${online.length > shown.length ? `<p class="muted">and ${fmtCount(online.length - shown.length)} more</p>` : ''}`
      : '<p class="muted">Nobody is online right now.</p>';
    const top = shownBoards
      .filter((b) => b.rows.length > 0)
      .slice(0, 2)
      .map((b) => `${b.stat.display_name}: ${b.rows[0]!.player.username} (${fmt(b.stat, b.rows[0]!.value)})`);
    const description = [
      site.settings.description || `Leaderboards and player statistics of ${site.title}.`,
      top.length ? `Leading: ${top.join('; ')}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return this.page(
      ctx,
      this.head(ctx, '/', site.title, description),
      `<h1>${h(site.title)}</h1>${intro}${seasonLine}${search}
${cards ? `<div class="grid">${cards}</div>` : catalog.size ? `<p>See <a href="${ctx.htmlBase}/leaderboards">all leaderboards</a>.</p>` : ''}
<section class="card" aria-labelledby="online"><h2 id="online">Online now (${fmtCount(online.length)})</h2>${onlineList}</section>`,
    );
  }

  private async seasons(ctx: Ctx): Promise<RenderedHtml> {
    const list = await this.seasonList(ctx);
    const first = ctx.site.settings.featured_stats.find((k) => ctx.catalog.has(k)) ?? null;
    const rows = list
      .map((s) => {
        const name = first
          ? `<a href="${ctx.base}/leaderboards/${h(encodeURIComponent(first))}?season=${h(encodeURIComponent(s.slug))}">${h(s.name)}</a>`
          : h(s.name);
        const status = s.active
          ? 'Running'
          : s.ended_at && Date.parse(s.ended_at) <= this.now()
            ? 'Ended'
            : s.started_at && Date.parse(s.started_at) > this.now()
              ? 'Starts later'
              : 'Not running';
        return `<tr><td>${name}</td><td>${h(status)}</td><td>${h(day(s.started_at)) || NONE}</td><td>${h(day(s.ended_at)) || NONE}</td></tr>`;
      })
      .join('');
    const table = list.length
      ? `<table><caption class="sr">Seasons</caption><thead><tr><th scope="col">Season</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Ends</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p class="muted">No seasons yet.</p>';
    return this.page(
      ctx,
      this.head(
        ctx,
        '/seasons',
        'Seasons',
        `The seasons of ${ctx.site.title}: ${list.map((s) => s.name).join(', ') || 'none yet'}.`,
      ),
      `<h1>Seasons</h1><div class="card">${table}</div>`,
    );
  }

  private async players(ctx: Ctx, q: string, pageNo: number): Promise<RenderedHtml> {
    const found = await read<PlayerPage>(() =>
      this.s.players.listJson(ctx.key, { ...(q ? { search: q } : {}), page: pageNo, perPage: BOARD_PAGE_SIZE }),
    );
    // Past the last page: the 404 page, as a leaderboard's.
    if (!found || (found.data.length === 0 && pageNo > 1)) return null;
    const items = found.data
      .map((p) => `<li><a href="${playerLink(ctx, p.username)}">${h(p.username)}</a></li>`)
      .join('');
    const total = found.meta.total;
    const heading = q ? `Players matching “${q}”` : 'Players';
    const query = q ? `q=${encodeURIComponent(q)}&` : '';
    const pager = pagerLinks(ctx, `/players?${query}`, pageNo, pageNo * BOARD_PAGE_SIZE < total);
    return this.page(
      ctx,
      this.head(ctx, '/players', heading, `${countOf(total, 'player')} of ${ctx.site.title}.`),
      `<h1>${h(heading)}</h1>${searchForm(ctx, q)}
<div class="card">${items ? `<ul class="plain">${items}</ul>` : '<p>No public player by that name.</p>'}</div>${pager}`,
    );
  }

  /**
   * The index of the leaderboards: every public statistic (or those whose name or key holds `q`), by category in
   * the order of the game's statistics screen, by name within one, BOARDS_PAGE_SIZE a page.
   */
  private boards(ctx: Ctx, q: string, pageNo: number): RenderedHtml {
    const needle = q.toLowerCase();
    const all = boardIndex(ctx.parts);
    const found = needle ? all.filter((e) => e.text.includes(needle)).map((e) => e.stat) : all.map((e) => e.stat);
    const shown = found.slice((pageNo - 1) * BOARDS_PAGE_SIZE, pageNo * BOARDS_PAGE_SIZE);
    // Past the last page: the 404 page, as a leaderboard's.
    if (shown.length === 0 && pageNo > 1) return null;
    let groups = '';
    let items = '';
    for (let i = 0; i < shown.length; i++) {
      const stat = shown[i]!;
      items += `<li><a href="${ctx.htmlBase}/leaderboards/${stat.path}">${stat.name}</a></li>`;
      const next = shown[i + 1];
      if (next === undefined || next.def.category !== stat.def.category) {
        const id = `c${groups.length}`;
        groups += `<section class="card" aria-labelledby="${id}"><h2 id="${id}">${h(categoryName(stat.def.category))}</h2><ul class="plain cols">${items}</ul></section>`;
        items = '';
      }
    }
    const heading = q ? `Leaderboards matching “${q}”` : 'Leaderboards';
    const query = q ? `q=${encodeURIComponent(q)}&` : '';
    const pager = pagerLinks(ctx, `/leaderboards?${query}`, pageNo, pageNo * BOARDS_PAGE_SIZE < found.length);
    const count = countOf(found.length, 'statistic');
    return this.page(
      ctx,
      this.head(ctx, '/leaderboards', heading, `The leaderboards of ${ctx.site.title}: ${count}.`),
      `<h1>${h(heading)}</h1><form method="get" action="${ctx.htmlBase}/leaderboards" role="search"><label for="sq">Find a statistic</label><input id="sq" name="q" type="search" maxlength="64" autocomplete="off" value="${h(q)}"><button type="submit">Search</button></form>
${groups || '<div class="card"><p>No public statistic by that name.</p></div>'}${pager}`,
    );
  }

  private async findPlayer(ctx: Ctx, ref: string): Promise<{ uuid: string; username: string } | null> {
    if (isUuid(ref)) return refusedAsNull(() => this.s.players.get(ctx.key, ref));
    if (ref.length > 64) return null;
    const found = await read<PlayerPage>(() =>
      this.s.players.listJson(ctx.key, { username: ref, page: 1, perPage: 1 }),
    );
    return found?.data[0] ?? null;
  }

  private async player(ctx: Ctx, ref: string, seasonRef: string | null, statRef: string | null): Promise<RenderedHtml> {
    // A UUID is looked up with the values (one read: its answer names the player, and refuses one that is not
    // there or hidden); a name is found first.
    const named = isUuid(ref) ? null : await this.findPlayer(ctx, ref);
    if (!named && !isUuid(ref)) return null;
    const season = await this.readableSeason(ctx, seasonRef);
    if (!season) return null;
    // The values, and in the same statement the points of the statistic the chart most likely shows (the one asked
    // for, else the first featured one): one round trip for a page rather than two. A chart of another statistic
    // (the player has no value of that one) reads its points after.
    const guess =
      statRef !== null && ctx.parts.has(statRef)
        ? statRef
        : (ctx.site.settings.featured_stats.find((k) => ctx.parts.has(k)) ?? null);
    const guessed = { points: null as ChartPoint[] | null };
    // The public statistics of the answer, by key (in its order). A value of 0 of a statistic where more is better
    // is counted, not shown: the game's client uploads every statistic of the game at a session's start, thousands
    // of them 0 ("Acacia Boat Dropped"). Where less is better (`asc`), 0 is a value to show ("Deaths: 0, #1").
    const use: ValueUse = (k, value) => {
      const stat = ctx.parts.get(k);
      return stat === undefined ? 'skip' : unlisted(stat.def, value) ? 'count' : 'list';
    };
    const values: PageValues | null =
      guess === null
        ? await read<StatsAnswer>(() => this.s.players.statsJson(ctx.key, named?.uuid ?? ref, season.id))
        : await refusedAsNull(async () => {
            const both = await this.s.history.pageRead(ctx.key, named?.uuid ?? ref, season, guess);
            guessed.points = both.points;
            return this.s.players.publicValuesOf(ctx.key, both.row, use);
          });
    if (!values) return null;
    const player = values.player;
    const username = player.username;
    const stats = new Map<string, { value: number; stat: StatParts; id: string | undefined }>();
    let zeros = values.left ?? 0;
    for (const v of values.stats) {
      const u = use(v.key, v.value);
      if (u === 'count') zeros++;
      else if (u === 'list') stats.set(v.key, { value: v.value, stat: ctx.parts.get(v.key)!, id: v.id });
    }
    // Ranks of the featured statistics (each a lookup in a rank board): what the home page ranks players by.
    const ranked = ctx.site.settings.featured_stats.filter((k) => stats.has(k));
    // Every value's rank, from the boards in memory when they are there (no query: the rank of the value just
    // read), else asked: a featured statistic's always, any other's when its board is small (a network of up to
    // RANK_CACHE_MB's full entries: read once and held) and the workspace has at most MAX_RANKED_STATS public
    // statistics (the boards pages may have read are that many at most). A board being read is never counted with a
    // query: the page then shows no rank yet, says so, and is rendered again next time. The rest are counted in one
    // statement on a small network (below); on a larger one left to their leaderboards ("—" and a note): a page of
    // 100 values must not cost 100 rank reads, nor thousands of statistics thousands of boards.
    const ranks = new Map<string, { rank: number; total: number }>();
    const asked: { def: DefinitionRow; value: number; featured: boolean; small: Maybe<boolean> }[] = [];
    const inMemory = this.s.leaderboards.mayRankInMemory(ctx.key, season);
    // Boards counted large lately are not asked again (most statistics' boards, on a large network).
    const large = ctx.parts.size <= MAX_RANKED_STATS ? this.s.leaderboards.largeBoards(ctx.key, season) : null;
    const now = Date.now();
    for (const [stat, { value, id }] of stats) {
      const maybeHeld = id === undefined || inMemory.has(id);
      const featured = ranked.includes(stat);
      if (!maybeHeld && !featured && (large === null || (id !== undefined && (large.get(id) ?? 0) > now))) continue;
      const found = this.s.leaderboards.definition(ctx.key.workspaceId, stat);
      const def = found instanceof Promise ? await found : found;
      // Boards that are not in memory at all are not looked for (most statistics' boards, on a large site).
      const held = maybeHeld ? this.s.leaderboards.rankInMemory(ctx.key, season, def, player.uuid, value) : null;
      if (held) ranks.set(stat, held);
      else if (featured) asked.push({ def, value, featured: true, small: true });
      else if (large !== null) {
        const small = this.s.leaderboards.smallBoard(ctx.key, season, def);
        if (small !== false) asked.push({ def, value, featured: false, small });
      }
    }
    await Promise.all(
      asked.map(async ({ def, value, featured, small }) => {
        if (!(await small)) return;
        const r = await refusedAsNull(() =>
          this.s.leaderboards.pageRank(ctx.key, season, def, player.uuid, value, featured),
        );
        if (r === 'later') ctx.provisional = true;
        else if (r) ranks.set(def.key, r);
      }),
    );
    // The values still without a rank, counted in one statement on a small network (the workspace's players times
    // these statistics at most PUBLIC_RANK_VALUES): a small server's page ranks every value it shows.
    if (ranks.size < stats.size) {
      const unranked: (RankedValue & { key: string })[] = [];
      for (const [key, { id, value, stat }] of stats) {
        if (id !== undefined && !ranks.has(key)) unranked.push({ key, statId: id, value, order: stat.def.sort_order });
      }
      // At once (no promise) on a network too large to count.
      const counting = this.s.leaderboards.networkRanks(ctx.key, season, unranked);
      const counted = counting instanceof Promise ? await refusedAsNull(() => counting) : counting;
      for (const { key, statId } of unranked) {
        const r = counted?.get(statId);
        if (r) ranks.set(key, r);
      }
    }
    // The player's address, for HTML (escaped once: a name with `'` must still lead to its page).
    const link = playerLink(ctx, username);
    const seasonQuery = h(`?season=${encodeURIComponent(season.slug)}`);
    const chartKey =
      statRef && stats.has(statRef) ? statRef : (ranked[0] ?? (stats.size ? stats.keys().next().value! : null));
    let chart = '';
    if (chartKey) {
      const def = ctx.catalog.get(chartKey)!;
      let points: ChartPoint[] = [];
      if (chartKey === guess && guessed.points) points = guessed.points;
      else {
        const history = await read<History>(() =>
          this.s.history.historyJson(ctx.key, player.uuid, { stat: chartKey, season: season.id, interval: 'day' }),
        );
        for (const p of history?.points ?? []) points.push({ at: Date.parse(p.at), value: p.value });
      }
      // The chart ends at the hour: its points are days, and a page rendered again within the hour with the same
      // values is the same page (the same ETag, so a reader's browser revalidates it with a 304).
      const to = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
      const from = to - 30 * DAY_MS;
      const summary = chartSummary(def.display_name, points, (v) => fmt(def, v), shortDay);
      let options = '';
      for (const [key, { stat }] of stats) {
        options += key === chartKey ? `<option value="${stat.key}" selected>${stat.name}</option>` : statOption(stat);
      }
      chart = `<section class="card" aria-labelledby="chart-h"><h2 id="chart-h">${ctx.parts.get(chartKey)!.name}, last 30 days</h2>
${lineChart({ id: 'chart', title: `${def.display_name} of ${username}, last 30 days`, summary, points, from, to, format: (v) => formatStatValue(v, def.unit, { style: 'axis' }), day: shortDay })}
<p class="muted">${h(summary)}</p>
<form method="get" action="${link}"><input type="hidden" name="season" value="${h(season.slug)}"><label for="stat">Chart another statistic</label><select id="stat" name="stat">${options}</select><button type="submit">Show</button></form></section>`;
    }
    // The rows by category (the answer's order within one); more than one category: each a group of rows under its
    // name, in the order of the game's statistics screen.
    const groups = new Map<string, string>();
    for (const [key, { value, stat }] of stats) {
      const r = ranks.get(key);
      const start = rowStart(stat, ctx.htmlBase, seasonQuery, r ? boardSpot(r.rank, player.uuid) : '');
      const row = `${start}${h(fmt(stat.def, value))}</td><td class="n">${r ? `#${h(fmtCount(r.rank))}<span class="muted"> of ${h(fmtCount(r.total))}</span>` : UNRANKED}</td></tr>`;
      const category = stat.def.category;
      const before = groups.get(category);
      groups.set(category, before === undefined ? row : before + row);
    }
    let rows = '';
    if (groups.size === 1) rows = `<tbody>${groups.values().next().value}</tbody>`;
    else {
      for (const c of [...groups.keys()].sort(compareCategories)) {
        rows += `<tbody><tr><th scope="rowgroup" colspan="3">${h(categoryName(c))}</th></tr>${groups.get(c)}</tbody>`;
      }
    }
    const table = stats.size
      ? `<table><caption class="sr">Statistics of ${h(username)} in ${h(season.name)}</caption><thead><tr><th scope="col">Statistic</th><th scope="col" class="n">Value</th><th scope="col" class="n">Rank</th></tr></thead>${rows}</table>`
      : '<p class="muted">No values in this season.</p>';
    const zeroNote = zeros
      ? `<p class="muted">${zeros === 1 ? 'One' : fmtCount(zeros)} ${stats.size ? 'more ' : ''}${zeros === 1 ? 'statistic is' : 'statistics are'} at 0, not shown.</p>`
      : '';
    // A value without a rank here (a statistic whose board is not in memory, see above; `ranks` holds statistics of
    // `stats` only) still has one on its leaderboard: the page says where, so that a player does not read the dash
    // as "not ranked".
    const counting =
      ranks.size === stats.size
        ? ''
        : ctx.provisional
          ? '<p class="muted">Ranks are being counted: reload in a moment.</p>'
          : `<p class="muted">${NONE} means the rank is on the statistic's leaderboard: follow its name.</p>`;
    let others = '';
    for (const s of await this.seasonList(ctx)) {
      if (s.id === season.id) continue;
      others += `<li><a href="${link}${h(`?season=${encodeURIComponent(s.slug)}`)}">${h(s.name)}</a>${s.active ? ' <span class="muted">(running)</span>' : ''}</li>`;
    }
    if (others) {
      others = `<section class="card" aria-labelledby="seasons-h"><h2 id="seasons-h">Other seasons</h2><ul class="plain">${others}</ul></section>`;
    }
    let highlights = '';
    for (const k of ranked.length > 3 ? ranked.slice(0, 3) : ranked) {
      const r = ranks.get(k);
      const { value, stat } = stats.get(k)!;
      highlights += `${highlights ? ', ' : ''}${stat.def.display_name} ${fmt(stat.def, value)}${r ? ` (#${fmtCount(r.rank)})` : ''}`;
    }
    const description = `${username} in ${season.name} on ${ctx.site.title}${highlights ? `: ${highlights}` : ''}.`;
    return this.page(
      ctx,
      this.head(ctx, `/players/${encodeURIComponent(username)}`, username, description),
      `<h1>${h(username)}</h1><p class="lead">${h(season.name)}${season.active ? ' (running)' : ''}</p>
${chart}<section class="card" aria-labelledby="values-h"><h2 id="values-h">Statistics</h2>${table}${counting}${zeroNote}</section>${others}`,
    );
  }

  private async boardParts(ctx: Ctx, statKey: string, seasonRef: string | null) {
    const stat = ctx.catalog.get(statKey);
    if (!stat) return null;
    const season = await this.readableSeason(ctx, seasonRef);
    if (!season) return null;
    return { stat, season };
  }

  private async board(ctx: Ctx, statKey: string, seasonRef: string | null, pageNo: number): Promise<RenderedHtml> {
    const parts = await this.boardParts(ctx, statKey, seasonRef);
    if (!parts) return null;
    const { stat, season } = parts;
    const offset = (pageNo - 1) * BOARD_PAGE_SIZE;
    const board = await this.top(ctx, season, stat.key, BOARD_PAGE_SIZE + 1, offset);
    if (!board) return null;
    const page = board.entries.slice(0, BOARD_PAGE_SIZE);
    if (page.length === 0 && pageNo > 1) return null;
    const { entries, zeros } = listed(page, stat);
    const seasons = await this.seasonList(ctx);
    const path = `/leaderboards/${encodeURIComponent(stat.key)}`;
    const switcher = `<form method="get" action="${h(ctx.base + path)}"><label for="season">Season</label><select id="season" name="season">${seasons.map((s) => `<option value="${h(s.slug)}"${s.id === season.id ? ' selected' : ''}>${h(s.name)}${s.active ? ' (running)' : ''}</option>`).join('')}</select><button type="submit">Show</button></form>`;
    // Where more is better, players at 0 come last (only 0 or below after them): none of them is listed, nor is a
    // page after them offered.
    const after = board.entries[BOARD_PAGE_SIZE];
    const zerosNext = zeros || (after !== undefined && unlisted(stat, after.value));
    const table = entries.length
      ? `${entriesTable(ctx, entries, stat, `${stat.display_name}, ${season.name}`, '', true)}${zerosNext ? AT_ZERO : ''}`
      : pageNo > 1
        ? AT_ZERO
        : `<p class="muted">${zeros ? 'Nobody has more than 0 yet.' : 'No values yet.'}</p>`;
    const more = MAX_BOARD_PAGE > pageNo && board.entries.length > BOARD_PAGE_SIZE && !zerosNext;
    const pager = pagerLinks(ctx, `${path}?season=${encodeURIComponent(season.slug)}&`, pageNo, more);
    const leaders = entries
      .slice(0, 3)
      .map((e) => `${fmtCount(e.rank)}. ${e.player.username} ${fmt(stat, e.value)}`)
      .join(', ');
    const title = pageNo > 1 ? `${stat.display_name} (page ${pageNo})` : stat.display_name;
    return this.page(
      ctx,
      this.head(
        ctx,
        `${path}?season=${encodeURIComponent(season.slug)}${pageNo > 1 ? `&page=${pageNo}` : ''}`,
        title,
        `${stat.display_name} in ${season.name}${leaders ? `: ${leaders}` : ''}.`,
      ),
      `<h1>${h(stat.display_name)}</h1><p class="lead">${h(season.name)}${pageNo > 1 ? `, page ${pageNo}` : ''}</p>${switcher}
<div class="card">${table}</div>${pager}`,
    );
  }

  private async embed(
    ctx: Ctx,
    statKey: string,
    seasonRef: string | null,
    limit: number,
    theme: 'light' | 'dark' | null,
  ): Promise<RenderedHtml> {
    const parts = await this.boardParts(ctx, statKey, seasonRef);
    if (!parts) return null;
    const { stat, season } = parts;
    const board = await this.top(ctx, season, stat.key, limit);
    if (!board) return null;
    const link = `${this.publicUrl}${ctx.base}/leaderboards/${encodeURIComponent(stat.key)}?season=${encodeURIComponent(season.slug)}`;
    const rows = listed(board.entries, stat).entries;
    const table = rows.length
      ? entriesTable(ctx, rows, stat, `${stat.display_name}, ${season.name}`, this.publicUrl)
      : '<p class="muted">No values yet.</p>';
    return embedPage(
      {
        title: `${stat.display_name} · ${ctx.site.title}`,
        description: `${stat.display_name} in ${season.name}.`,
        url: link,
      },
      theme,
      `<h1><a href="${h(link)}" target="_blank" rel="noopener">${h(stat.display_name)}</a> <span class="muted">${h(season.name)}</span></h1>${table}
<p class="muted"><a href="${h(link)}" target="_blank" rel="noopener">Full leaderboard on ${h(ctx.site.title)}</a></p>`,
    );
  }
}

interface Ctx {
  site: PublicSite;
  key: AuthKey;
  catalog: Map<string, PublicStat>;
  /** The same statistics with their escaped parts. */
  parts: Map<string, StatParts>;
  /** The site's header (`siteHeader`). */
  header: string;
  /** `base`, for HTML. */
  htmlBase: string;
  /** The site's path: `/p/<slug>`. */
  base: string;
  /** Set by a page rendered without some of its parts (a rank whose board is being read): not to be kept. */
  provisional: boolean;
}

/**
 * The entries of a board that its pages list: where more is better, not the players at 0 (most of the game's
 * statistics are 0 for most players: see `PageRenderer.player`), which come last; and whether some were left out.
 */
function listed(
  entries: Leaderboard['entries'],
  stat: PublicStat,
): { entries: Leaderboard['entries']; zeros: boolean } {
  const last = entries[entries.length - 1];
  if (last === undefined || !unlisted(stat, last.value)) return { entries, zeros: false };
  return { entries: entries.filter((e) => !unlisted(stat, e.value)), zeros: true };
}

/**
 * Whether the pages leave `value` of `stat` out of their lists: 0 where more is better (most of the game's
 * statistics are 0 for most players); where less is better (`asc`), 0 leads and is listed.
 */
function unlisted(stat: PublicStat, value: number): boolean {
  return value === 0 && stat.sort_order !== 'asc';
}

/**
 * The end of a link to a player's place on a board (for HTML), after its season: the page where its rank begins
 * (`&page=N` past the first) and the row's id (see `entriesTable`); nothing past the pages a board has.
 */
function boardSpot(rank: number, uuid: string): string {
  const page = Math.ceil(rank / BOARD_PAGE_SIZE);
  if (page > MAX_BOARD_PAGE) return '';
  return `${page > 1 ? `&amp;page=${page}` : ''}#p-${uuid}`;
}

/** Under a board that leaves its players at 0 out. */
const AT_ZERO = '<p class="muted">Players at 0 are not listed.</p>';

/** A count for people ("8,123"). */
function fmtCount(n: number): string {
  return formatStatValue(n, 'count');
}

/** A count with its noun ("1 player", "8,123 players"). */
function countOf(n: number, noun: string): string {
  return `${fmtCount(n)} ${n === 1 ? noun : `${noun}s`}`;
}

function fmt(stat: PublicStat, value: number): string {
  return formatStatValue(value, stat.unit);
}

function playerLink(ctx: Ctx, username: string, origin = ''): string {
  return h(`${origin}${ctx.base}/players/${encodeURIComponent(username)}`);
}

function searchForm(ctx: Ctx, q: string): string {
  return `<form method="get" action="${ctx.base}/players" role="search"><label for="q">Find a player</label><input id="q" name="q" type="search" maxlength="64" autocomplete="off" value="${h(q)}"><button type="submit">Search</button></form>`;
}

/**
 * A board's entries as a table. `anchors`: each row with the id a player page's link to its place on the board ends
 * with (`boardSpot`), on a board's page only (a player may be on several boards of one page).
 */
function entriesTable(
  ctx: Ctx,
  entries: Leaderboard['entries'],
  stat: PublicStat,
  caption: string,
  origin = '',
  anchors = false,
): string {
  const target = origin ? ' target="_blank" rel="noopener"' : '';
  const rows = entries
    .map(
      (e) =>
        `<tr${anchors ? ` id="p-${e.player.uuid}"` : ''}><td class="r">${h(fmtCount(e.rank))}</td><td><a href="${playerLink(ctx, e.player.username, origin)}"${target}>${h(e.player.username)}</a></td><td class="n">${h(fmt(stat, e.value))}</td></tr>`,
    )
    .join('');
  return `<table><caption class="sr">${h(caption)}</caption><thead><tr><th scope="col" class="r">Rank</th><th scope="col">Player</th><th scope="col" class="n">${h(stat.display_name)}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function pagerLinks(ctx: Ctx, pathWithQuery: string, pageNo: number, more: boolean): string {
  if (pageNo <= 1 && !more) return '';
  const prev =
    pageNo > 1
      ? `<a href="${h(`${ctx.base}${pathWithQuery}page=${pageNo - 1}`)}" rel="prev">Previous page</a>`
      : '<span></span>';
  const next = more
    ? `<a href="${h(`${ctx.base}${pathWithQuery}page=${pageNo + 1}`)}" rel="next">Next page</a>`
    : '<span></span>';
  return `<nav class="pager" aria-label="Pages">${prev}${next}</nav>`;
}
