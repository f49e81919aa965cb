import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * /docs in a real headless browser, offline but for the app on a loopback port: the partner
 * document renders its /rankings operation, and the top-bar selector switches to the TV document.
 */

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`docs.browser.test: skipped, no browser at ${CHROMIUM} (install Debian's chromium to run it)`);
const describeWithBrowser = present ? describe : describe.skip;

describeWithBrowser('the /docs page in a browser', () => {
  let t: TestApp;
  let server: Server;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  test('renders the partner document, then the TV document from the selector', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(base)) foreign.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${base}/docs`);
    await page.locator('.opblock-summary-path', { hasText: /^\/rankings$/ }).first().waitFor();
    await page.locator('.info .title').filter({ hasText: /partner/i }).first().waitFor();

    const select = page.locator('.topbar select');
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(['Partner API (/api/v1)', 'TV API (/api/tv)']);
    await select.selectOption({ label: 'TV API (/api/tv)' });
    await page.locator('.opblock-summary-path', { hasText: /^\/live$/ }).first().waitFor();
    await expect(page.locator('.info .title').first().textContent()).resolves.toMatch(/TV/i);

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
