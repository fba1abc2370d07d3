import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type Team } from '../admin/support/team.ts';
import { createWorld, type World } from '../admin/support/world.ts';
import { PLAY_TIME, type SiteData, STONE, seedSiteData, WALKED } from './support.ts';

// The public site in Debian's chromium (playwright-core), served over a real port: every page in the light and
// the dark theme passes axe-core (no serious or critical violation), does not scroll sideways at 390 px, and is
// photographed into test/screenshots/ (ignored by git); the embed is framed by a page of another origin, with and
// without `embed_origins`.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium`);

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface PageWindow {
  document: {
    documentElement: { scrollWidth: number };
    body: object;
    querySelectorAll(selector: string): Iterable<{ scrollWidth: number; clientWidth: number; textContent: string }>;
  };
  innerWidth: number;
  getComputedStyle(element: object): { marginTop: string };
}

/** Cards whose content is wider than they are (a table running past the card's border), by their first words. */
function overflowingCards(): string[] {
  const win = globalThis as unknown as PageWindow;
  return [...win.document.querySelectorAll('.card')]
    .filter((c) => c.scrollWidth > c.clientWidth)
    .map((c) => c.textContent.trim().slice(0, 40));
}

describe.skipIf(!haveBrowser)('the public site in a browser', () => {
  let w: World;
  let t: Team;
  let data: SiteData;
  let browser: Browser;
  let base = '';
  /** A page of another origin (another port of 127.0.0.1) that frames the embed. */
  let other: Server;
  let otherOrigin = '';

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    w = await createWorld({ env: { PUBLIC_URL: base } });
    await w.app.listen({ port, host: '127.0.0.1' });
    t = await buildTeam(w);
    data = await seedSiteData(w, t);
    other = createServer((req, res) => {
      const src = decodeURIComponent(new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Club</title><h1>Our club</h1><iframe title="Leaderboard" src="${src}" width="420" height="480"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const res = await t.browsers.admin.app('PUT', '/api/v1/admin/public-site', {
      body: {
        enabled: true,
        title: 'Blocky Club',
        description: 'Survival since 2019: who played, walked and mined the most.',
        featured_stats: [PLAY_TIME, WALKED, STONE],
        embed_origins: [],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
    await w?.close();
  });

  /** axe in both themes, no sideways scroll at 390 px, screenshots at 1280 and 390 px. */
  async function look(name: string, path: string, status = 200): Promise<Page> {
    // A context of its own: axe-core needs one to check the page's frames.
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    const res = await page.goto(`${base}${path}`);
    expect(res?.status(), path).toBe(status);
    // The site's style applied (a body without it keeps the browser's margin of 8px).
    const margin = await page.evaluate(() => {
      const win = globalThis as unknown as PageWindow;
      return win.getComputedStyle(win.document.body).marginTop;
    });
    expect(margin, `${path}: the style applied`).toBe('0px');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const suffix = theme === 'dark' ? '-dark' : '';
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
        `${name}, ${theme}`,
      ).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `site-${name}${suffix}-desktop.png`), fullPage: true });
      expect(await page.evaluate(overflowingCards), `${name}, ${theme}: a card overflows at 1280 px`).toEqual([]);
      await page.setViewportSize(PHONE);
      const sideways = await page.evaluate(() => {
        const win = globalThis as unknown as PageWindow;
        return win.document.documentElement.scrollWidth - win.innerWidth;
      });
      expect(sideways, `${name}, ${theme}: scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
      expect(await page.evaluate(overflowingCards), `${name}, ${theme}: a card overflows at 390 px`).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `site-${name}${suffix}-phone.png`), fullPage: true });
      await page.setViewportSize(DESKTOP);
    }
    // The inline style applied under the page's policy (no 'unsafe-inline'), and nothing was refused.
    expect(refused).toEqual([]);
    return page;
  }

  it('shows the home page; its search form works without JavaScript', { timeout: 120_000 }, async () => {
    const home = await look('home', '/p/team/');
    expect(await home.locator('h1').textContent()).toBe('Blocky Club');
    expect(await home.getByRole('heading', { name: 'Time Played' }).count()).toBe(1);
    await home.getByLabel('Find a player').fill('miner');
    await home.getByRole('button', { name: 'Search' }).click();
    await home.waitForURL(`${base}/p/team/players?q=miner`);
    await home.getByRole('link', { name: 'Miner_Max' }).click();
    await home.waitForURL(`${base}/p/team/players/Miner_Max`);
    expect(await home.locator('h1').textContent()).toBe('Miner_Max');
    await home.context().close();
  });

  const PAGES: [string, () => string, number][] = [
    ['leaderboard', () => `/p/team/leaderboards/${encodeURIComponent(PLAY_TIME)}`, 200],
    ['player', () => `/p/team/players/${data.players[0]!.username}`, 200],
    ['players', () => '/p/team/players?q=e', 200],
    ['leaderboards', () => '/p/team/leaderboards', 200],
    ['seasons', () => '/p/team/seasons', 200],
    ['embed', () => `/p/team/embed/leaderboard/${encodeURIComponent(STONE)}?limit=5`, 200],
    ['not-found', () => '/p/team/players/Nobody', 404],
  ];
  it.each(PAGES)(
    'shows the %s page accessibly in both themes, without sideways scrolling at 390 px',
    { timeout: 120_000 },
    async (name, path, status) => {
      await (await look(name, path(), status)).context().close();
    },
  );

  it('switches the season and the charted statistic with plain forms', async () => {
    await w.services.seasons.create({ userId: null, label: 'test', ip: null, requestId: null }, t.workspaceId, {
      name: 'Season 0',
      slug: 's0',
    });
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${base}/p/team/leaderboards/${encodeURIComponent(PLAY_TIME)}`);
    await page.getByLabel('Season').selectOption('s0');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/season=s0/);
    expect(await page.getByText('No values yet.').count()).toBe(1);
    await page.goto(`${base}/p/team/players/Alex`);
    await page.getByLabel('Chart another statistic').selectOption(WALKED);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/stat=/);
    expect(await page.getByRole('heading', { name: 'Distance Walked, last 30 days' }).count()).toBe(1);
    await page.close();
  });

  /** Whether a page of the other origin shows the embed inside its frame. */
  async function framed(src: string): Promise<boolean> {
    const page = await browser.newPage();
    await page.goto(`${otherOrigin}/?src=${encodeURIComponent(src)}`);
    const frame = page.frameLocator('iframe');
    let shown = false;
    try {
      await frame.locator('table').waitFor({ timeout: 5_000 });
      shown = true;
    } catch {
      shown = false;
    }
    await page.screenshot({ path: join(SHOTS, `site-framed-${shown ? 'shown' : 'refused'}.png`) });
    await page.close();
    return shown;
  }

  it('lets a page of another origin frame the embed (any origin, or a listed one) and nothing else', async () => {
    const embed = `${base}/p/team/embed/leaderboard/${encodeURIComponent(PLAY_TIME)}?limit=5&theme=dark`;
    expect(await framed(embed)).toBe(true);
    // Another public page is refused in a frame.
    expect(await framed(`${base}/p/team/leaderboards/${encodeURIComponent(PLAY_TIME)}`)).toBe(false);
    const save = (origins: string[]) =>
      t.browsers.admin.app('PUT', '/api/v1/admin/public-site', {
        body: {
          enabled: true,
          title: 'Blocky Club',
          description: '',
          featured_stats: [PLAY_TIME],
          embed_origins: origins,
        },
      });
    expect((await save(['https://club.example'])).statusCode).toBe(200);
    expect(await framed(embed)).toBe(false);
    expect((await save([otherOrigin])).statusCode).toBe(200);
    expect(await framed(embed)).toBe(true);
  }, 90_000);
});
