import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, makeEnv, type Service, startService } from './process.ts';

// The service's HTML pages as `npm start` serves them (development login, as without OIDC_ISSUER), in Debian's
// chromium driven by playwright-core: they must still work under their Content-Security-Policy, which a header
// check alone cannot tell.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium`);

describe.skipIf(!haveBrowser)("the API docs and the service's own pages in a browser", () => {
  let env: Env;
  let service: Service;
  let browser: Browser;

  beforeAll(async () => {
    env = await makeEnv();
    service = await startService(env.vars);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await env?.cleanup();
  });

  /** A property of the computed style of the first element matching `selector`, as the browser applied it. */
  function computed(page: Page, selector: string, property: string): Promise<string> {
    type Window = { getComputedStyle(el: unknown): Record<string, string> };
    return page
      .locator(selector)
      .first()
      .evaluate((el, p) => (globalThis as unknown as Window).getComputedStyle(el)[p] ?? '', property);
  }

  /** A new page that records what the browser refused under a Content-Security-Policy. */
  async function watchedPage(): Promise<{ page: Page; refused: string[] }> {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    return { page, refused };
  }

  it('renders the operations under its policy, with nothing refused', async () => {
    const { page, refused } = await watchedPage();
    const res = await page.goto(`${service.url}/api/v1/docs`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await expect(page.locator('.info .title').textContent()).resolves.toContain('Statboard API');
    // An operation opens (Swagger UI's scripts run) and shows its responses.
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/ingest/batch' }).first().click();
    await page.locator('.opblock-body .responses-wrapper').first().waitFor({ timeout: 10_000 });
    // Its stylesheet applied: the operation blocks are laid out by swagger-ui.css, not unstyled.
    const border = await computed(page, '.opblock', 'borderTopStyle');
    expect(border).toBe('solid');
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await page.close();
  });

  it("signs in through the development provider's form, each page styled and nothing refused", async () => {
    const { page, refused } = await watchedPage();
    await page.goto(`${service.url}/auth/login`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Development sign-in');
    // The page's own style applied (the console's look: a card 30rem wide), allowed by its hash.
    expect(await computed(page, 'main', 'maxWidth')).toBe('480px');
    expect(await computed(page, '.card', 'borderTopStyle')).toBe('solid');
    await page.locator('input[name="email"]').fill('ada@example.com');
    // The form posts to this origin and is redirected within it (form-action 'self') back to the console.
    await page.locator('input[name="email"]').press('Enter');
    await page.waitForURL(`${service.url}/`);
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await page.close();
  });

  it("shows login's error page styled under the default policy", async () => {
    const { page, refused } = await watchedPage();
    const res = await page.goto(`${service.url}/auth/callback?state=x`);
    expect(res?.status()).toBe(400);
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign-in problem');
    expect(await computed(page, 'main', 'maxWidth')).toBe('480px');
    expect(refused).toEqual([]);
    await page.close();
  });

  it('refuses to be framed by another page, as the console does', async () => {
    for (const path of ['/api/v1/docs', '/']) {
      const { page, refused } = await watchedPage();
      await page.setContent(`<iframe src="${service.url}${path}" width="600" height="400"></iframe>`);
      await expect.poll(() => refused.some((m) => /frame-ancestors/.test(m)), { timeout: 10_000 }).toBe(true);
      const framed = page.frames().find((f) => f.url().startsWith(service.url));
      expect(framed, path).toBeUndefined();
      await page.close();
    }
  });
});
