import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../statboard/src/app.ts';
import { WebhookDispatcher } from '../../statboard/src/modules/webhooks/dispatcher.ts';
import { buildServices, type Services } from '../../statboard/src/services.ts';
import { startTestIdp, type TestIdp } from '../../statboard/test/admin/support/idp.ts';
import { ACTOR, createTestDb, modBatch, type TestDb, testConfig } from '../../statboard/test/helpers.ts';
import { Receiver } from '../../statboard/test/integrations/support/receiver.ts';
import { PAGES } from '../src/pages.ts';

// The console as an operator uses it: the service as it ships (its own built console at /), a real OpenID
// provider, Debian's chromium driven by playwright-core. Every page is checked with axe-core (no serious or
// critical violation) and photographed at desktop and phone width into test/screenshots/ (ignored by git).
// A flow looks at several pages (axe and two screenshots each, in both themes): its timeout is twice the 60 s (90 s
// for the longest flows) that was once not enough on a machine busy with the whole suite.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium`);

/** A flow's timeout (every test's in this file), and the longest flows'. */
const FLOW_MS = 2 * 60_000;
const LONG_FLOW_MS = 2 * 90_000;
vi.setConfig({ testTimeout: FLOW_MS });

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A box on the page, as `getBoundingClientRect` gives it. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface PageNode {
  textContent: string | null;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): Iterable<PageNode>;
}
/**
 * What the scripts these tests run in the page use of it: the tests are type-checked without the DOM's types,
 * so each script names the page `(globalThis as unknown as PageWindow)`.
 */
interface PageWindow {
  document: {
    documentElement: { scrollWidth: number };
    querySelectorAll(selector: string): Iterable<PageNode>;
    getElementById(id: string): PageNode | null;
  };
  innerWidth: number;
  requestAnimationFrame(callback: () => void): void;
  getComputedStyle(element: unknown): { backgroundColor: string };
}

/** How far the page reaches past the window's right edge (more than 0: it scrolls sideways). */
function overflow(p: Page): Promise<number> {
  return p.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    return w.document.documentElement.scrollWidth - w.innerWidth;
  });
}

/**
 * The labels of the page's charts that overlap another label of the same chart, or stick out of it (as the
 * browser laid them out): none is the rule.
 */
function chartLabelClashes(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    const clashes: string[] = [];
    for (const svg of w.document.querySelectorAll('.chart svg')) {
      const box = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll('text')].map((t) => ({
        text: t.textContent ?? '',
        r: t.getBoundingClientRect(),
      }));
      for (const [i, a] of labels.entries()) {
        if (a.r.left < box.left - 0.5 || a.r.right > box.right + 0.5) clashes.push(`"${a.text}" leaves the chart`);
        for (const b of labels.slice(i + 1)) {
          const apart =
            a.r.right <= b.r.left || b.r.right <= a.r.left || a.r.bottom <= b.r.top || b.r.bottom <= a.r.top;
          if (!apart) clashes.push(`"${a.text}" overlaps "${b.text}"`);
        }
      }
    }
    return clashes;
  });
}

describe('the console bundle', () => {
  it('loads under 200 KB of JavaScript (gzipped) on the first page; the other pages load when visited', async () => {
    const html = await readFile(join(DIST, 'index.html'), 'utf8');
    const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    let bytes = 0;
    for (const f of initial) bytes += gzipSync(await readFile(join(DIST, f))).length;
    expect(bytes).toBeLessThan(200 * 1024);
    // Pages are separate chunks.
    const chunks = (await readdir(join(DIST, 'assets'))).filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(initial.length + 5);
  });
});

describe.skipIf(!haveBrowser)('the console in a browser', () => {
  let db: TestDb;
  let idp: TestIdp;
  let services: Services;
  let app: FastifyInstance;
  let dispatcher: WebhookDispatcher;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let base = '';
  let bootstrapToken = '';
  const receiver = new Receiver();
  let clientSecret = '';

  /** The paths of every page `look` saw, to check that no page of the console went unseen. */
  const seen = new Set<string>();

  /**
   * Checks the page as it is, in the light and the dark theme (the console follows the system's): axe-core finds
   * no serious or critical violation, at 390 px nothing scrolls sideways, no chart's labels overlap or leave the
   * chart; and photographs it at 1280 and 390 px in both themes into test/screenshots/.
   */
  async function look(name: string, p: Page = page): Promise<void> {
    // Quiet network first; a page that embeds a frame (the public site's preview) may never be quiet in
    // Chromium's sense, and is looked at after a few seconds all the same.
    await p.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    seen.add(new URL(p.url()).pathname);
    for (const theme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: theme });
      const suffix = theme === 'dark' ? '-dark' : '';
      const axe = await new AxeBuilder({ page: p }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
        `${name}, ${theme}`,
      ).toEqual([]);
      expect(await chartLabelClashes(p), `${name}, ${theme}, desktop`).toEqual([]);
      await p.screenshot({ path: join(SHOTS, `${name}${suffix}-desktop.png`), fullPage: true });
      await p.setViewportSize(PHONE);
      // Two frames: the tables and charts have measured their new width.
      await p.evaluate(
        () =>
          new Promise<void>((r) => {
            const w = globalThis as unknown as PageWindow;
            w.requestAnimationFrame(() => w.requestAnimationFrame(r));
          }),
      );
      const sideways = await overflow(p);
      expect(sideways, `${name}, ${theme}: the page scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
      expect(await chartLabelClashes(p), `${name}, ${theme}, phone`).toEqual([]);
      await p.screenshot({ path: join(SHOTS, `${name}${suffix}-phone.png`), fullPage: true });
      await p.setViewportSize(DESKTOP);
    }
    await p.emulateMedia({ colorScheme: 'light' });
  }

  async function signIn(context: BrowserContext, email: string): Promise<Page> {
    const p = await context.newPage();
    await p.goto(`${base}/`);
    await p.getByRole('link', { name: 'Sign in' }).click();
    await p.locator('input[name="email"]').fill(email);
    await p.locator('input[name="email"]').press('Enter');
    await p.waitForURL(`${base}/**`);
    return p;
  }

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    await receiver.start();
    // The service's port first: its public URL is the provider's redirect target and the Origin it checks.
    const probe = await freePort();
    base = `http://127.0.0.1:${probe}`;
    idp = await startTestIdp({ redirectUri: `${base}/auth/callback`, names: { 'bob@example.com': 'Bob' } });
    db = await createTestDb();
    const config = testConfig({
      PUBLIC_URL: base,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      WEBHOOK_ALLOW_PRIVATE: '1',
    });
    services = buildServices(db.db, config);
    app = await buildApp({ config, services });
    await app.listen({ port: probe, host: '127.0.0.1' });
    dispatcher = new WebhookDispatcher(db.db, services.outbox, {
      timeoutMs: 2_000,
      allowPrivate: true,
      pollMs: 50,
      log: { info: () => undefined, warn: () => undefined },
    });
    dispatcher.start();
    bootstrapToken = (await services.setup.createStartupToken()).token;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    owner = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  }, LONG_FLOW_MS);

  // A failed step leaves a picture of what the browser showed.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) {
      await page.screenshot({ path: join(SHOTS, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) });
    }
  });

  const workspaceId = () => services.db.query<{ id: string }>('SELECT id FROM workspaces').then((r) => r[0]!.id);

  /** A link of the console's navigation. */
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });

  afterAll(async () => {
    await browser?.close();
    await dispatcher?.stop();
    await app?.close();
    await services?.flush().catch(() => undefined);
    await idp?.close();
    await db?.drop();
    await receiver.stop();
  });

  it('shows the sign-in page to a visitor, then the setup page, and bootstraps the workspace', async () => {
    const visitor = await owner.newPage();
    await visitor.goto(`${base}/keys`);
    await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
    await look('sign-in', visitor);
    await visitor.close();

    page = await signIn(owner, 'owner@example.com');
    await page.getByRole('heading', { name: 'Set up Statboard' }).waitFor();
    await look('setup');
    await page.getByLabel('Bootstrap token').fill('stb_bootstrap_wrong');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/INVALID_BOOTSTRAP_TOKEN/);
    await page.getByLabel('Bootstrap token').fill(bootstrapToken);
    await page.getByLabel('Workspace name (optional)').fill('Blocky Network');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // What to do next, each step a link to its page; nothing done yet.
    const checklist = page.getByRole('region', { name: 'Get your first statistics' });
    await checklist.waitFor();
    expect(await checklist.getByText('(to do)').count()).toBe(4);
    for (const link of ['Register a server', 'Create a season', 'Create a client key']) {
      await checklist.getByRole('link', { name: link }).waitFor();
    }
    await look('overview-empty');
  });

  it('registers a server and activates a season, with a confirmation that says what changes', async () => {
    // From the checklist's first step: the form opens on the servers page.
    await page.getByRole('link', { name: 'Register a server' }).click();
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    const form = page.getByRole('dialog', { name: 'Register a server' });
    // A 422 names the field, marks it invalid and reads its problem with it.
    await page.getByLabel('Hostname').fill('   ');
    await form.getByRole('button', { name: 'Register server' }).click();
    await form.getByRole('alert').waitFor();
    expect(await page.getByLabel('Hostname').getAttribute('aria-invalid')).toBe('true');
    const described = (await page.getByLabel('Hostname').getAttribute('aria-describedby')) ?? '';
    const problem = await page.evaluate(
      (ids) =>
        ids
          .split(' ')
          .map((id) => (globalThis as unknown as PageWindow).document.getElementById(id)?.textContent ?? '')
          .join(' '),
      described,
    );
    expect(problem).toMatch(/^Hostname must /);
    expect(await form.getByRole('alert').getByRole('button', { name: 'Hostname' }).count()).toBe(1);
    await look('servers-invalid');
    expect(await page.getByLabel('Port').getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('Hostname').fill('mc.example.com');
    await page.getByLabel('Port').fill('25565');
    await page.getByLabel('Display name (optional)').fill('Survival');
    await page.getByRole('dialog').getByRole('button', { name: 'Register server' }).click();
    await page.getByRole('cell', { name: 'mc.example.com:25565' }).waitFor();
    await look('servers');

    await nav('Seasons').click();
    await page.getByRole('button', { name: 'Create season' }).click();
    await page.getByLabel('Name').fill('Season 1');
    expect(await page.getByLabel('Slug').inputValue()).toBe('season-1');
    await page.getByRole('dialog').getByRole('button', { name: 'Create season' }).click();
    await page.getByRole('rowheader', { name: 'Season 1' }).waitFor();
    await page.getByRole('button', { name: 'Create season' }).click();
    await page.getByLabel('Name').fill('Season 2');
    await page.getByLabel(/Activate it now/).uncheck();
    await page.getByRole('dialog').getByRole('button', { name: 'Create season' }).click();
    await page.getByRole('button', { name: 'Activate Season 2' }).click();
    const confirm = page.getByRole('dialog', { name: 'Activate Season 2?' });
    expect(await confirm.textContent()).toMatch(/instead of Season 1, which stops collecting/);
    await look('seasons-activate');
    await confirm.getByRole('button', { name: 'Activate season' }).click();
    await page.getByRole('button', { name: 'Activate Season 1' }).waitFor();
    expect((await services.seasons.active(await workspaceId()))?.slug).toBe('season-2');
    // And back: the uploads below count toward Season 1.
    await page.getByRole('button', { name: 'Activate Season 1' }).click();
    await page
      .getByRole('dialog', { name: 'Activate Season 1?' })
      .getByRole('button', { name: 'Activate season' })
      .click();
    await page.getByRole('button', { name: 'Activate Season 2' }).waitFor();
    // The scoring dialog asks the question the operator can answer.
    await page.getByRole('button', { name: 'Edit Season 2' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Season 2' });
    const question = edit.getByRole('group', { name: 'Did this season start on a fresh world?' });
    expect(
      await question.getByRole('radio', { name: /^Yes: rank the values as the game reports them/ }).isChecked(),
    ).toBe(true);
    await question.getByRole('radio', { name: /^No: rank what each player gains during the season/ }).check();
    await look('seasons-edit');
    await edit.getByRole('button', { name: 'Save season' }).click();
    await page
      .getByRole('row', { name: /Season 2/ })
      .getByText('gains since the start')
      .waitFor();
    // A season with a start ahead says when it begins.
    await page.getByRole('button', { name: 'Create season' }).click();
    await page.getByLabel('Name').fill('Season 3');
    await page.getByLabel(/Activate it now/).uncheck();
    // The date three days on, whatever the time of day now.
    await page.getByLabel('Starts (optional)').fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole('dialog').getByRole('button', { name: 'Create season' }).click();
    await page
      .getByRole('row', { name: /Season 3/ })
      .getByText('starts in 3 days', { exact: true })
      .waitFor();
    // Season 2 ended when Season 1 took its place again; Season 1 runs.
    await page
      .getByRole('row', { name: /Season 2/ })
      .getByText('ended', { exact: true })
      .waitFor();
    await page
      .getByRole('row', { name: /Season 1/ })
      .getByText('active', { exact: true })
      .waitFor();
    await look('seasons');
    // The checklist ticks what is done.
    await nav('Overview').click();
    const steps = page.getByRole('region', { name: 'Get your first statistics' }).getByRole('listitem');
    await steps.filter({ hasText: 'Register your server (done)' }).waitFor();
    await steps.filter({ hasText: 'Start a season (done)' }).waitFor();
    await steps.filter({ hasText: 'Create the mod’s key (to do)' }).waitFor();
  });

  it('creates a client key, shows its secret once with the mod config, and the upload appears', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Mod uploads');
    await look('keys-create');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your key is ready' });
    await reveal.waitFor();
    clientSecret = await reveal.getByLabel('Secret of Mod uploads').inputValue();
    expect(clientSecret).toMatch(/^stb_client_/);
    expect(await reveal.getByLabel('config/hm-stats.json').inputValue()).toContain(clientSecret);
    // The URL is PUBLIC_URL; here a loopback one, which the dialog says players cannot reach, and what to set.
    expect(JSON.parse(await reveal.getByLabel('config/hm-stats.json').inputValue()).api.url).toBe(base);
    expect(await reveal.getByText(`Players cannot reach ${base}.`).isVisible()).toBe(true);
    expect(await reveal.getByText(/Set PUBLIC_URL to the address players use/).count()).toBe(1);
    expect(await reveal.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true);
    await look('keys-reveal');
    await reveal.getByLabel('I have stored the secret').check();
    await reveal.getByRole('button', { name: 'Done' }).click();
    // The secret is gone from the page for good.
    expect(await page.content()).not.toContain(clientSecret);
    await page.getByRole('rowheader', { name: /Mod uploads/ }).waitFor();
    await look('keys');
    await nav('Overview').click();
    const waiting = page.getByRole('region', { name: 'Get your first statistics' }).getByRole('listitem');
    await waiting.filter({ hasText: 'Create the mod’s key (done)' }).waitFor();
    expect(await waiting.filter({ hasText: 'Wait for the first upload (to do)' }).textContent()).toMatch(
      /join mc\.example\.com:25565/,
    );

    const upload = await fetch(`${base}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        modBatch({
          uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          username: 'Alex',
          observedAt: new Date().toISOString(),
          stats: [
            { key: 'minecraft.custom:minecraft.play_time', value: 72_000 },
            { key: 'minecraft.mined:minecraft.stone', value: 420 },
            { key: 'minecraft.custom:minecraft.walk_one_cm', value: 14_412_345 },
            { key: 'minecraft.custom:minecraft.damage_dealt', value: 150 },
          ],
        }),
      ),
    });
    expect(upload.status).toBe(200);
    // An upload for a server nobody registered: the overview says how to fix it.
    const refused = await fetch(`${base}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(modBatch({ hostname: 'creative.example.com' })),
    });
    expect(refused.status).toBe(404);
    await services.flush();

    // Loaded afresh, the overview does not move once it shows (cumulative layout shift under 0.1, "good").
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Register creative.example.com:25565' }).waitFor();
    await page.waitForLoadState('networkidle');
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) sum += (e as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true } as never);
          setTimeout(() => resolve(sum), 500);
        }),
    );
    expect(shift).toBeLessThan(0.1);
    expect(await page.getByText('Uploads accepted, last 24 hours').locator('..').textContent()).toMatch(/^1/);
    // The first upload arrived: the checklist has done its work.
    expect(await page.getByRole('region', { name: 'Get your first statistics' }).count()).toBe(0);
    // A refused upload says why in words, and its code.
    await page.getByRole('rowheader', { name: /server .*creative\.example\.com.* NOT_FOUND/i }).waitFor();
    await look('overview');
    await page.getByRole('radio', { name: '30 days' }).check();
    await page.waitForLoadState('networkidle');
    await look('overview-month');
    await page.getByRole('radio', { name: '24 hours' }).check();

    await nav('Players').click();
    await page.getByRole('link', { name: 'Alex' }).click();
    await page.getByRole('heading', { name: 'Alex' }).waitFor();
    // Names and formatted values (72,000 ticks are an hour), and the chart opens on Time Played.
    await page.getByRole('rowheader', { name: 'Time Played' }).waitFor();
    await page.getByRole('cell', { name: '1 hour' }).waitFor();
    expect(await page.getByRole('cell', { name: '1 hour' }).textContent()).toContain('1 h');
    await page.getByRole('rowheader', { name: 'Stone Mined' }).waitFor();
    await page.getByRole('cell', { name: '420', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: '144 kilometers' }).textContent()).toContain('144 km');
    expect(await page.getByRole('cell', { name: '7.5 hearts' }).textContent()).toContain('7.5 ♥');
    expect(await page.getByRole('combobox', { name: 'Statistic' }).inputValue()).toBe('Time Played');
    // At 1280 px the values are a table with every column, not cards.
    const values = page.getByRole('table', { name: /^Values of Alex/ }).locator('..');
    expect(await values.getAttribute('data-layout')).toBe('table');
    expect(await page.getByRole('columnheader', { name: 'Changed' }).isVisible()).toBe(true);
    await look('player');
    await nav('Players').click();
    await look('players');
  });

  it('restricts a website key to a player picked by name', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Alex page');
    await page.getByRole('radio', { name: /Website/ }).check();
    await page.getByLabel('Find a player').fill('ale');
    await page.getByRole('button', { name: 'Add Alex' }).click();
    await page.getByRole('list', { name: 'Chosen players' }).getByText('Alex').waitFor();
    await look('keys-restrict');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your key is ready' });
    await reveal.getByLabel('I have stored the secret').check();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: '1 player(s)' }).waitFor();
  });

  it('creates the agent’s key: an integration key with ingest:server, which needs exactly one server', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Agent');
    await page.getByRole('radio', { name: /Integration/ }).check();
    const scope = page.getByRole('checkbox', { name: /ingest:server/ });
    expect(await page.getByText(/For statboard-agent on the game server/).count()).toBe(1);
    await scope.check();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog
      .getByText('a key with ingest:server must be restricted to exactly one server', { exact: true })
      .waitFor();
    await dialog.getByRole('checkbox', { name: /Survival/ }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your key is ready' });
    expect(await reveal.getByLabel('Secret of Agent').inputValue()).toMatch(/^stb_integration_/);
    await reveal.getByLabel('I have stored the secret').check();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('rowheader', { name: /Agent/ }).waitFor();
  });

  it(
    'removes a value and resets a season after confirmations that say what goes, erases and blocks a player, and unblocks them',
    async () => {
      const uuid = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
      const send = async (stats: { key: string; value: number }[]) => {
        const res = await fetch(`${base}/api/v1/ingest/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' },
          body: JSON.stringify(modBatch({ uuid, username: 'Griefer', observedAt: new Date().toISOString(), stats })),
        });
        return res.status;
      };
      expect(
        await send([
          { key: 'minecraft.custom:minecraft.play_time', value: 36_000 },
          { key: 'minecraft.mined:minecraft.stone', value: 999_999 },
          { key: 'minecraft.custom:minecraft.walk_one_cm', value: 10_000 },
        ]),
      ).toBe(200);
      await page.goto(`${base}/players/${uuid}`);
      await page.getByRole('heading', { name: 'Griefer' }).waitFor();

      // The statistic picked in the table: its chart, and the button that removes its value.
      await page.getByRole('button', { name: 'Stone Mined', exact: true }).click();
      await page.getByRole('button', { name: 'Remove value Stone Mined' }).click();
      const one = page.getByRole('dialog', { name: 'Remove Stone Mined of Griefer?' });
      expect(await one.textContent()).toMatch(/Removes the value of Stone Mined \(999,999\) of Griefer in Season 1/);
      await look('player-remove-value');
      await one.getByRole('button', { name: 'Remove value' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed the value of Stone Mined of Griefer.' }).waitFor();
      await page.getByRole('rowheader', { name: 'Stone Mined' }).waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Reset season' }).click();
      const reset = page.getByRole('dialog', { name: 'Reset Griefer in Season 1?' });
      expect(await reset.textContent()).toMatch(/Removes 2 values of Griefer in Season 1/);
      await look('player-reset-season');
      await reset.getByRole('button', { name: 'Reset season' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed 2 values of Griefer in Season 1.' }).waitFor();

      // Back with a value; then erased for good, and blocked.
      expect(await send([{ key: 'minecraft.mined:minecraft.stone', value: 5 }])).toBe(200);
      await page.reload();
      await page.getByRole('rowheader', { name: 'Stone Mined' }).waitFor();
      await page.getByRole('button', { name: 'Erase player' }).click();
      const erase = page.getByRole('dialog', { name: 'Erase Griefer?' });
      expect(await erase.textContent()).toMatch(/Removes Griefer for good: 1 value in Season 1 and every value/);
      expect(await erase.textContent()).toMatch(/cannot be undone/);
      await erase.getByRole('checkbox', { name: 'Also block their uploads' }).check();
      await look('player-erase');
      await erase.getByRole('button', { name: 'Erase player' }).click();
      await page.waitForURL(`${base}/players`);
      await page.getByRole('status').filter({ hasText: 'Erased Griefer' }).waitFor();
      expect(await page.getByRole('link', { name: 'Griefer' }).count()).toBe(0);
      await page.getByRole('table', { name: 'Blocked players' }).getByRole('rowheader', { name: uuid }).waitFor();
      // Their mod keeps uploading: answered as usual, discarded.
      expect(await send([{ key: 'minecraft.mined:minecraft.stone', value: 6 }])).toBe(200);
      const [row] = await services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM players WHERE uuid = $1', [
        uuid,
      ]);
      expect(row!.n).toBe(0);
      await look('players-blocked');

      await page.goto(`${base}/players/${uuid}`);
      await page.getByText('This player is blocked').waitFor();
      await page.getByRole('button', { name: 'Unblock' }).click();
      const unblock = page.getByRole('dialog', { name: `Unblock ${uuid}?` });
      expect(await unblock.textContent()).toMatch(/accepted again/);
      await unblock.getByRole('button', { name: 'Unblock player' }).click();
      await page.getByText('This player is blocked').waitFor({ state: 'detached' });
    },
    LONG_FLOW_MS,
  );

  it('revokes a key after a confirmation; uploads with it fail from then on', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'Revoke Mod uploads' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Mod uploads?' });
    expect(await confirm.textContent()).toMatch(/cannot be undone/);
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('rowheader', { name: /Mod uploads/ }).waitFor({ state: 'detached' });
    const after = await fetch(`${base}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(modBatch()),
    });
    expect(after.status).toBe(401);
  });

  it('changes a role with the rules explained, and a lesser role sees what it may do', async () => {
    const bobContext = await browser.newContext({ viewport: DESKTOP });
    const bob = await signIn(bobContext, 'bob@example.com');
    await bob.getByRole('heading', { name: 'No access yet' }).waitFor();
    await look('no-access', bob);

    await nav('Users and roles').click();
    await page.getByRole('textbox', { name: 'Email' }).fill('bob@example.com');
    await page.getByRole('button', { name: 'Give role' }).click();
    await expect.poll(() => page.getByLabel('Role of Bob').inputValue()).toBe('readonly');
    await page.getByLabel('Role of Bob').selectOption('analyst');
    const confirm = page.getByRole('dialog', { name: 'Change the role of Bob?' });
    expect(await confirm.textContent()).toMatch(/Analyst/);
    await confirm.getByRole('button', { name: 'Change role' }).click();
    await expect.poll(() => page.getByLabel('Role of Bob').inputValue()).toBe('analyst');
    await look('users');

    await bob.reload();
    await bob.getByRole('heading', { name: 'Overview' }).waitFor();
    await bob.getByRole('link', { name: 'API keys' }).click();
    await bob.getByText('Your role reads keys').waitFor();
    expect(await bob.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await bob.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    // Signing out ends the session: the console asks to sign in again.
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.getByRole('heading', { name: 'Sign in' }).waitFor();
    await bobContext.close();
  });

  it('reads the audit log in words, with filters by the raw action, a diff of each change, and a CSV export', async () => {
    await nav('Audit log').click();
    // What happened, by name: no action code or bare id in its place.
    await page.getByRole('rowheader', { name: /^Revoked API key Mod uploads/ }).waitFor();
    await page.getByRole('rowheader', { name: /^Gave bob@example\.com the role Read-only/ }).waitFor();
    await page.getByRole('rowheader', { name: /^Changed the role of bob@example\.com to Analyst/ }).waitFor();
    await page.getByRole('rowheader', { name: /^Activated season Season 2/ }).waitFor();
    await look('audit-log-all');
    await page.getByLabel('Action', { exact: true }).selectOption('SERVER_CREATED');
    await page.getByRole('rowheader', { name: /^Registered server Survival/ }).waitFor();
    await expect.poll(() => page.getByRole('rowheader', { name: /Revoked API key/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show changes' }).first().click();
    await page.getByRole('rowheader', { name: /hostname/ }).waitFor();
    await look('audit-log');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    const csv = await readFile((await file.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'created_at,action,actor,actor_user_id,target_type,target_id,ip,request_id,before,after,summary,target_name',
    );
    expect(csv).toContain(',Registered server Survival,Survival');
    expect(csv).toContain('SERVER_CREATED');
    expect(csv).not.toContain('API_KEY_REVOKED');
  });

  it('creates a webhook with its secret shown once, tests it, and shows the delivery', async () => {
    await nav('Webhooks').click();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Discord relay');
    await page.getByRole('dialog').getByRole('button', { name: 'Create webhook' }).click();
    const reveal = page.getByRole('dialog', { name: 'Signing secret' });
    expect(await reveal.getByLabel(/Secret of/).inputValue()).toMatch(/^whsec_/);
    await reveal.getByLabel('I have stored the secret').check();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await look('webhooks');
    await page.getByRole('link', { name: 'Discord relay' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('delivered').waitFor({ timeout: 15_000 });
    expect(receiver.accepted.length).toBeGreaterThan(0);
    await look('webhook');
  });

  it('shows statistics by name with their units, renames one and sets a unit, and back to the defaults', async () => {
    await nav('Statistics').click();
    await page.getByRole('rowheader', { name: 'Time Played' }).waitFor();
    await page.getByRole('cell', { name: 'Time (ticks, 20 a second)' }).waitFor();
    // The search matches names as well as keys.
    await page.getByLabel('Search statistics').fill('stone mi');
    await expect.poll(() => page.getByRole('rowheader', { name: 'Time Played' }).count()).toBe(0);
    await page.getByRole('rowheader', { name: 'Stone Mined' }).waitFor();
    await page.getByLabel('Search statistics').fill('');
    await page.getByRole('button', { name: 'Edit Time Played' }).click();
    await page.getByLabel('Display name').fill('Play time');
    await page.getByLabel('Unit').selectOption('count');
    await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('rowheader', { name: 'Play time (renamed)' }).waitFor();
    await look('stats');
    await page.getByRole('button', { name: 'Edit Play time' }).click();
    await page.getByRole('button', { name: 'Use the default name' }).click();
    await page.getByLabel('Unit').selectOption('default');
    await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('rowheader', { name: 'Time Played', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Time (ticks, 20 a second)', exact: true }).waitFor();
    // How fast a client upload may raise it: set, then cleared (no limit).
    const stone = page.getByRole('row', { name: /^Stone Mined/ });
    await stone.getByRole('cell', { name: '72,000 an hour', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Stone Mined' }).click();
    await page.getByLabel('Max per hour').fill('500');
    await look('stats-edit');
    await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
    await stone.getByRole('cell', { name: '500 an hour', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Stone Mined' }).click();
    expect(await page.getByLabel('Max per hour').inputValue()).toBe('500');
    await page.getByLabel('Max per hour').fill('');
    await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
    await stone.getByRole('cell', { name: 'no limit', exact: true }).waitFor();
  });

  it('opens leaderboards on Time Played with formatted values; the picker filters by name as you type', async () => {
    await nav('Leaderboards').click();
    await page.getByLabel('Season').selectOption('season-1');
    const picker = page.getByRole('combobox', { name: 'Statistic' });
    await expect.poll(() => picker.inputValue()).toBe('Time Played');
    await page.getByRole('link', { name: 'Alex' }).waitFor();
    await page.getByRole('cell', { name: '1 hour' }).waitFor();
    await picker.fill('ston');
    const list = page.getByRole('listbox', { name: 'Statistic' });
    await list.getByRole('option', { name: 'Stone Mined' }).waitFor();
    expect(await list.getByRole('option', { name: 'Time Played' }).count()).toBe(0);
    await look('leaderboards-picker');
    await list.getByRole('option', { name: 'Stone Mined' }).click();
    await page.getByRole('cell', { name: '420', exact: true }).waitFor();
    expect(await picker.inputValue()).toBe('Stone Mined');
    // By keyboard: type, move, pick.
    await picker.fill('played');
    await picker.press('ArrowDown');
    await picker.press('Enter');
    await expect.poll(() => picker.inputValue()).toBe('Time Played');
    await page.getByRole('cell', { name: '1 hour' }).waitFor();
    await look('leaderboards');
  });

  it("shows the network totals, and one server's values with the Server picker", async () => {
    const ws = await workspaceId();
    const lobby = await services.servers.create(ACTOR, ws, {
      name: 'Lobby',
      hostname: 'lobby.example.com',
      port: 25565,
    });
    // The console's client key was revoked above: another one uploads through the second server.
    const key = await services.keys.create(ACTOR, ws, {
      name: 'Lobby uploads',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const upload = await fetch(`${base}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        modBatch({
          uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          username: 'Alex',
          hostname: 'lobby.example.com',
          sessionId: '5b1e2d3c-4a59-4687-9786-a5b4c3d2e1f0',
          observedAt: new Date().toISOString(),
          stats: [{ key: 'minecraft.custom:minecraft.play_time', value: 36_000 }],
        }),
      ),
    });
    expect(upload.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: '1 hour 30 minutes' }).waitFor();
    const picker = page.getByLabel('Server');
    expect(await picker.inputValue()).toBe('');
    await picker.selectOption({ label: 'Lobby' });
    await page.getByRole('cell', { name: '30 minutes', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('server')).toBe(lobby.id);
    await look('leaderboards-server');
    await page.getByRole('link', { name: 'Alex' }).click();
    await page.getByRole('cell', { name: '1 hour 30 minutes' }).waitFor();
    // The network total with each server's value beside it.
    for (const heading of ['Network total', 'Survival', 'Lobby']) {
      await page.getByRole('columnheader', { name: heading, exact: true }).waitFor();
    }
    const played = page.getByRole('row', { name: /^Time Played/ });
    await played.getByRole('cell', { name: '1 hour', exact: true }).waitFor();
    await played.getByRole('cell', { name: '30 minutes', exact: true }).waitFor();
    // Beside the servers, the values take the page's width: a table still.
    expect(
      await page
        .getByRole('table', { name: /^Values of Alex/ })
        .locator('..')
        .getAttribute('data-layout'),
    ).toBe('table');
    await look('player-servers');
    await page.getByLabel('Server').selectOption({ label: 'Lobby' });
    await page.getByRole('cell', { name: '30 minutes', exact: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Network total' }).count()).toBe(0);
    // With one server picked, a correction removes that server's value alone, and says so.
    await page.getByRole('button', { name: 'Remove value Time Played' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove Time Played of Alex on Lobby?' });
    expect(await remove.textContent()).toMatch(/\(30 min\) of Alex in Season 1 on Lobby \(other servers keep theirs\)/);
    await look('player-remove-on-server');
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Reset season' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset Alex in Season 1 on Lobby?' });
    expect(await reset.textContent()).toMatch(/Other seasons and other servers keep theirs/);
    await reset.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Server').selectOption({ label: 'All servers' });
    await page.getByRole('cell', { name: '1 hour 30 minutes' }).waitFor();
  });

  it('shows who is online', async () => {
    await nav('Online now').click();
    await page.getByRole('heading', { name: /Survival/ }).waitFor();
    await look('online');
  });

  it('shows held values with their evidence on the Review page, the open count in the navigation; approve stores them', async () => {
    const key = await services.keys.create(ACTOR, await workspaceId(), {
      name: 'Mod (players)',
      type: 'client',
      scopes: ['ingest:write'],
    });
    const herobrine = '0b6a5c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d';
    for (const value of [100, 100 + 40 * 72_000]) {
      const res = await fetch(`${base}/api/v1/ingest/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          modBatch({
            uuid: herobrine,
            username: 'Herobrine',
            observedAt: new Date().toISOString(),
            stats: [{ key: 'minecraft.custom:minecraft.play_time', value }],
          }),
        ),
      });
      expect(res.status).toBe(200);
    }
    await page.goto(`${base}/`);
    await nav('Review (1 open)').click();
    await page.getByRole('heading', { name: /Herobrine on/ }).waitFor();
    await page.getByText(/Time Played rose 1 d 16 h in .+; at most 6 min.* allowed/).waitFor();
    await look('review');
    await page.getByRole('button', { name: 'Approve Herobrine' }).click();
    await page.getByText('Nothing waits for review.').waitFor();
    await nav('Review').waitFor();
    await page.getByLabel('Show').selectOption('approved');
    await page.getByRole('heading', { name: /Herobrine on/ }).waitFor();
    // Another jump is held again; rejected, it is discarded.
    const res = await fetch(`${base}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        modBatch({
          uuid: herobrine,
          username: 'Herobrine',
          observedAt: new Date().toISOString(),
          stats: [{ key: 'minecraft.custom:minecraft.play_time', value: 100 + 80 * 72_000 }],
        }),
      ),
    });
    expect(res.status).toBe(200);
    await page.goto(`${base}/`);
    await nav('Review (1 open)').click();
    await page.getByRole('button', { name: 'Reject Herobrine' }).click();
    await page.getByText('Nothing waits for review.').waitFor();
    await nav('Review').waitFor();
    await page.getByLabel('Show').selectOption('rejected');
    await page
      .getByRole('heading', { name: /Herobrine on/ })
      .getByText('rejected')
      .waitFor();
    await look('review-rejected');
  });

  it('publishes the public site with a featured statistic; its link, the embed snippet and a live preview', async () => {
    await nav('Public site').click();
    await page.getByRole('heading', { name: 'Public site', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: /^Enabled: publish the public site/ }).check();
    await page.getByLabel('Title', { exact: true }).fill('Survival Club');
    await page.getByLabel('Description', { exact: true }).fill('Who mined the most this season.');
    const add = page.getByRole('combobox', { name: 'Add a statistic' });
    await add.fill('played');
    await add.press('ArrowDown');
    await add.press('Enter');
    await page.getByRole('list', { name: 'Featured statistics' }).getByText('Time Played').waitFor();
    const origins = page.getByLabel(/allowed embedding origins/);
    await origins.fill('club.example/page');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByText(/must be an origin/)
      .first()
      .waitFor();
    await look('public-site-invalid');
    await origins.fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The site is published at').waitFor();
    const preview = page.frameLocator('iframe[title="Preview of the embedded leaderboard"]');
    await preview.getByRole('link', { name: 'Alex' }).waitFor();
    expect(await page.getByLabel('Embed snippet').inputValue()).toContain(
      '/embed/leaderboard/minecraft.custom%3Aminecraft.play_time',
    );
    await page.getByRole('button', { name: 'Copy link' }).waitFor();
    await page.getByRole('button', { name: 'Copy embed snippet' }).waitFor();
    await look('public-site');
    const link = await page.getByRole('link', { name: /\/p\/.+\/$/ }).getAttribute('href');
    const visitor = await browser.newPage();
    await visitor.goto(link!);
    expect(await visitor.locator('h1').textContent()).toBe('Survival Club');
    await visitor.getByText('Who mined the most this season.').first().waitFor();
    await visitor.getByRole('heading', { name: 'Time Played' }).waitFor();
    await visitor.close();
  });

  it('lets a member of two workspaces pick one in the header; every page then shows that one, remembered', async () => {
    const actor = { userId: null, label: 'cli', ip: null, requestId: null };
    const second = await services.workspaces.create(actor, { name: 'Creative Realm', slug: 'creative' });
    const ownerId = (
      await services.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'owner@example.com'")
    )[0]!.id;
    await services.users.setRole({ ...actor, role: 'owner' }, second.id, ownerId, { role: 'readonly' }, 'anyone');
    await services.servers.create(actor, second.id, { hostname: 'creative.example.com', port: 25565 });

    await nav('Servers').click();
    await page.reload();
    const picker = page.getByRole('combobox', { name: 'Workspace' });
    await picker.waitFor();
    expect(await picker.inputValue()).toBe(await workspaceId());
    await look('workspace-picker');
    await picker.selectOption({ label: 'Creative Realm' });
    await page.getByRole('cell', { name: 'creative.example.com:25565' }).waitFor();
    expect(await page.getByRole('cell', { name: 'mc.example.com:25565' }).count()).toBe(0);
    // A read-only member there: what the role allows comes from the service.
    expect(await page.getByRole('button', { name: 'Register server' }).count()).toBe(0);
    expect(await nav('Audit log').count()).toBe(0);

    await page.reload();
    await page.getByRole('cell', { name: 'creative.example.com:25565' }).waitFor();
    expect(await picker.inputValue()).toBe(second.id);
    await picker.selectOption({ label: 'Blocky Network' });
    await page.getByRole('cell', { name: 'mc.example.com:25565' }).waitFor();
    await page.getByRole('button', { name: 'Register server' }).waitFor();
    await nav('Audit log').waitFor();
  });

  it('takes a token for another workspace at /setup: its owner too, and the console then shows that workspace', async () => {
    const other = await services.workspaces.create(ACTOR, { name: 'Second Realm' });
    const { token } = await services.setup.createToken(ACTOR, { workspace_id: other.id });
    await page.goto(`${base}/setup`);
    await page.getByRole('heading', { name: 'Join a workspace with a token' }).waitFor();
    await look('join-workspace');
    await page.getByLabel('Bootstrap token').fill(token);
    await page.getByRole('button', { name: 'Join workspace' }).click();
    await page.getByRole('status').filter({ hasText: 'you are an owner of Second Realm' }).waitFor();
    const roles = await services.db.query<{ role: string }>(
      "SELECT m.role FROM workspace_memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@example.com' AND m.workspace_id = $1",
      [other.id],
    );
    expect(roles.map((r) => r.role)).toEqual(['owner']);
    // The console acts in the workspace joined (remembered by the service, as a choice in the header would be).
    const picker = page.getByRole('combobox', { name: 'Workspace' });
    expect(await picker.inputValue()).toBe(other.id);
    await nav('Servers').click();
    await page.getByText('No servers yet.').waitFor();
    await page.reload();
    await page.getByText('No servers yet.').waitFor();
    // The header leads back to the page; the picker back to the first workspace.
    await page.getByRole('link', { name: 'Join a workspace with a token' }).click();
    await page.getByRole('heading', { name: 'Join a workspace with a token' }).waitFor();
    await picker.selectOption({ label: 'Blocky Network' });
    await nav('Servers').click();
    await page.getByRole('cell', { name: 'mc.example.com:25565' }).waitFor();
  });

  it('answers an address it has no page for with a page that says so', async () => {
    await page.goto(`${base}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await look('not-found');
  }, 30_000);

  it('has looked at every page of the console, in both themes and at both widths', () => {
    const unseen = PAGES.filter((p) => {
      const pattern = new RegExp(`^${p.path.replace(/:[^/]+/g, '[^/]+')}$`);
      return ![...seen].some((path) => pattern.test(path));
    });
    expect(unseen.map((p) => p.path)).toEqual([]);
  });

  it('sends a visitor whose session ended back to the sign-in page', async () => {
    await owner.clearCookies();
    await nav('Players').click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  }, 30_000);
});

describe.skipIf(!haveBrowser)('the development sign-in page (no OIDC_ISSUER)', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let browser: Browser;
  let base = '';

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await createTestDb();
    // Without OIDC_ISSUER (and not in production) the service signs people in with its own provider.
    const config = testConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base });
    app = await buildApp({ config, services: buildServices(db.db, config) });
    await app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  }, LONG_FLOW_MS);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await db?.drop();
  });

  it('has the console’s look in both themes, fits a phone, and marks a refused email', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${base}/auth/login`);
    await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      const suffix = theme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: join(SHOTS, `dev-sign-in${suffix}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `dev-sign-in${suffix}-phone.png`), fullPage: true });
      await page.setViewportSize(DESKTOP);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // Styled by the page's own stylesheet (allowed by its hash): the console's card and primary button.
    const button = page.getByRole('button', { name: 'Sign in' });
    expect(
      await button.evaluate((b) => (globalThis as unknown as PageWindow).getComputedStyle(b).backgroundColor),
    ).toBe('rgb(47, 111, 78)');
    // A refused email is marked on its field and read with it.
    await page.getByLabel('Email').evaluate((input) => {
      (input as { type: string }).type = 'text';
    });
    await page.getByLabel('Email').fill('not an email');
    await button.click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').getAttribute('aria-describedby')).toBe('email-error');
    await page.screenshot({ path: join(SHOTS, 'dev-sign-in-invalid-desktop.png'), fullPage: true });
    expect(refused).toEqual([]);
    await context.close();
  });
});
