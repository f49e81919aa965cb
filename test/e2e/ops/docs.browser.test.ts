import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { describeWithBrowser, launchBrowser } from '../../helpers/browser';
import { adminWithInput } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * /docs in a real headless browser, offline but for the app on a loopback port: the partner
 * reference renders its /rankings operation and the navigation reaches the TV reference; search
 * finds an operation; an operation shows copy-ready samples with a demo key; the webhooks page
 * shows an event's payload schema; the studio's GraphQL schema is browsable in GraphiQL, which
 * also signs in through /graphql. No page asks anything of another origin or logs an error.
 */

describeWithBrowser('docs.browser.test')('the /docs pages in a browser', () => {
  let t: TestApp;
  let server: Server;
  let browser: Browser;
  let base: string;
  let foreign: string[];
  let problems: string[];

  beforeAll(async () => {
    t = await startTestApp();
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  /** A page that records requests to any other origin (Redoc's search worker is a blob of this one) and errors. */
  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(`blob:${base}/`)) foreign.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}${path}`);
    return page;
  }

  beforeEach(() => {
    foreign = [];
    problems = [];
  });
  afterEach(() => {
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('renders the partner reference, then the TV reference from the navigation', async () => {
    const page = await open('/docs');
    await page.locator('h1', { hasText: /Ranking partner API/ }).waitFor();
    await page.locator('[data-section-id="tag/Rankings/operation/getRanking"] h2', { hasText: 'Ranking table of one division' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'References' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Partner API', 'TV API', 'Webhooks', 'Studio GraphQL']);
    await nav.getByRole('link', { name: 'TV API' }).click();
    await page.locator('h1', { hasText: /TV API/ }).waitFor();
    await page.locator('[data-section-id*="/operation/"] h2', { hasText: /live/i }).first().waitFor();
    expect(page.url()).toBe(`${base}/docs/tv`);
    await page.close();
  });

  test('search finds an operation and goes to it', async () => {
    const page = await open('/docs');
    await page.getByRole('textbox', { name: 'Search' }).fill('licence number');
    const hit = page.locator('[data-role="search:results"] li[data-item-id^="tag/Verification/operation/"]').first();
    await hit.waitFor();
    const target = await hit.getAttribute('data-item-id');
    await hit.click();
    await page.waitForURL((url) => url.hash === `#${target}`);
    await page.locator(`[data-section-id="${target}"] h2`).waitFor();
    await page.close();
  });

  test('an operation shows copy-ready curl and Node samples with a demo key', async () => {
    const page = await open('/docs#tag/Rankings/operation/getRanking');
    const section = page.locator('[data-section-id="tag/Rankings/operation/getRanking"]');
    const samples = section
      .locator('div')
      .filter({ has: page.locator('h3', { hasText: 'Request samples' }) })
      .last();
    await samples.waitFor();
    const shown = samples.locator('.react-tabs__tab-panel--selected').first();
    await samples.getByRole('tab', { name: 'curl' }).click();
    await expect(shown.innerText()).resolves.toMatch(
      /curl "http:\/\/localhost:3000\/api\/v1\/rankings\?[^"]*wc=67kg[^"]*"\s*\\\s*-H "Authorization: Bearer pk_demo_full"/,
    );
    await samples.getByRole('tab', { name: 'Node.js' }).click();
    await expect(shown.innerText()).resolves.toContain("headers: { Authorization: 'Bearer pk_demo_full' }");
    await expect(samples.getByText('Copy').first().isVisible()).resolves.toBe(true);
    await page.close();
  });

  test('the webhooks page shows an event with its headers and payload schema, and the verification recipe', async () => {
    const page = await open('/docs/webhooks');
    await page.locator('[data-section-id="section/Verifying-a-delivery"]', { hasText: 'X-SVC-Signature-Timestamped' }).waitFor();
    await page.locator('[data-item-id="tag/Partner-events"]').click();
    await page.locator('[data-item-id="tag/Partner-events/operation/resultVerified"]').click();
    const event = page.locator('[data-section-id="tag/Partner-events/operation/resultVerified"]');
    await event.getByText(/request body schema/i).waitFor();
    for (const field of ['X-SVC-Signature-Timestamped', 'id', 'event', 'created_at', 'data']) await event.getByText(field, { exact: true }).first().waitFor();
    await event.getByText('result.verified', { exact: false }).first().waitFor();
    await page.close();
  });

  test("the studio GraphQL schema is browsable, and GraphiQL's first query signs a demo user in through /graphql", async () => {
    // The demo's owner, as `npm start` seeds it: the page's first query signs in with it.
    expect((await adminWithInput(t.c, 'demo-owner-pass\n', 'studio-users:create', '--email', 'owner@demo.tv', '--password-stdin')).code).toBe(0);
    const page = await open('/docs/graphql');
    const explorer = page.locator('.graphiql-doc-explorer');
    await explorer.getByText('Root Types').waitFor();
    await explorer
      .getByRole('button', { name: 'Query' })
      .or(explorer.locator('a', { hasText: 'Query' }))
      .first()
      .click();
    await explorer.getByText('viewer', { exact: true }).waitFor();
    await explorer.getByText('channel', { exact: true }).waitFor();

    // Ctrl+Enter runs the operation under the cursor: the SignIn mutation.
    // The cursor is put there through CodeMirror itself: a click on the line can land on whatever
    // GraphiQL draws over it at the moment (its toolbar, its tab panel) on a slow machine.
    await page.locator('.graphiql-query-editor .CodeMirror-line', { hasText: 'login(' }).waitFor();
    await page.evaluate(() => {
      const cm = (globalThis as any).document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror;
      const line = (cm.getValue() as string).split('\n').findIndex((l) => l.includes('login('));
      cm.focus();
      cm.setCursor({ line, ch: 0 });
    });
    await Promise.all([page.waitForResponse((r) => r.url() === `${base}/graphql`), page.keyboard.press('Control+Enter')]);
    const response = page.locator('.graphiql-response');
    // CodeMirror draws the answer line by line: wait for its whole text to hold an answer.
    // (A function, not a string: the page's CSP forbids eval.)
    await page.waitForFunction(() => /"(data|errors)"/.test((globalThis as any).document.querySelector('.graphiql-response')?.innerText ?? ''));
    await expect(response.innerText()).resolves.toMatch(/"token": "st_[0-9A-Za-z]{40}"/);
    await page.close();
  });
});
