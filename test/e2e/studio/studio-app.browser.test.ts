import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser, launchBrowser } from '../../helpers/browser';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { studioBuildDir } from '../../../src/ops/studio';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, TV_ENV } from '../../helpers/tv-client';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { runWorker, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * The studio web app (docs/studio.md) in Debian's Chromium, through the real server on a loopback
 * port (HTTP and the graphql-ws socket), a delivery worker and a real webhook receiver that
 * verifies signatures. Each screen is checked with axe-core (no serious or critical violation)
 * and photographed into test-results/studio/. Without a browser the suite is skipped locally and
 * fails in CI.
 */

const ROOT = join(__dirname, '..', '..', '..');
const SHOTS = join(ROOT, 'test-results', 'studio');
const AXE = require.resolve('axe-core/axe.min.js');

describeWithBrowser('studio-app.browser.test')('the studio web app in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let worker: Awaited<ReturnType<typeof runWorker>>;
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  const problems: string[] = [];
  const navigations: string[] = [];

  beforeAll(async () => {
    if (!studioBuildDir()) execFileSync('npm', ['run', '-s', 'build:studio'], { cwd: ROOT, stdio: 'inherit' });
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({ env: { ...TV_ENV, ...WEBHOOK_ENV } });
    await seedTvDemo(t.c);
    base = (await t.listen()).url;
    worker = await runWorker(t.c, t.db);
    receiverUrl = await receiver.start();
    browser = await launchBrowser();
    // axe-core is injected as a script tag, which the studio's CSP (rightly) refuses: this context
    // bypasses it; the first test runs the app under its CSP
    ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await receiver.stop();
    await t?.close();
  });

  /** axe-core in the page: no serious or critical violation; then a screenshot of the screen. */
  async function check(p: Page, name: string): Promise<void> {
    await p.addScriptTag({ path: AXE });
    const violations = await p.evaluate(async () => {
      const r = await (
        globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
      ).axe.run();
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect({ screen: name, violations }).toEqual({ screen: name, violations: [] });
    await p.screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  async function signIn(p: Page, email: string, password: string): Promise<void> {
    await p.goto(`${base}/studio/`);
    await p.getByRole('heading', { name: 'Sign in to your channels' }).waitFor();
    if (email.startsWith('owner')) await check(p, 'sign-in');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Broadcasts' }).waitFor();
  }

  const gql = async (query: string, variables: Record<string, unknown>, token: string) =>
    (await request(t.app).post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables })).body;

  test('runs under its own CSP: sign-in and every section load with no violation and nothing from another origin', async () => {
    const strict = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const p = await strict.newPage();
    const errors: string[] = [];
    const foreign: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(base.replace('http', 'ws')) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await p.goto(`${base}/studio/`);
    await p.getByRole('heading', { name: 'Sign in to your channels' }).waitFor();
    await p.getByLabel('Email').fill('owner@demo.tv');
    await p.getByLabel('Password').fill('wrong-password');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('alert').filter({ hasText: 'The email or the password is wrong.' }).waitFor();
    errors.length = 0; // the refused sign-in's 200-with-errors is no console error, but a browser may log the request
    await p.getByLabel('Password').fill('demo-owner-pass');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Broadcasts' }).waitFor();
    for (const section of ['API keys', 'Webhooks', 'Broadcasts']) {
      await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section }).click();
      await p.getByRole('heading', { level: 1, name: section }).waitFor();
    }
    // a reload of a client route is answered by the app (the SPA fallback)
    await p.goto(`${base}/studio/channels/demo-tv/webhooks`);
    await p.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await strict.close();
  }, 60_000);

  test('the owner creates an API key and sees its secret once, then revokes it', async () => {
    await signIn(page, 'owner@demo.tv', 'demo-owner-pass');
    await check(page, 'broadcasts');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill('Browser CI');
    await dialog.getByRole('checkbox', { name: /broadcasts:write/ }).check();
    await check(page, 'api-key-create');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new key' });
    const secret = (await shown.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^ck_[A-Za-z0-9]{40}$/);
    await shown.getByRole('button', { name: 'Copy api key' }).click();
    expect(
      await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
    ).toBe(secret);
    await check(page, 'api-key-secret');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Browser CI' });
    await row.getByText('Active').waitFor();
    // the key works on the TV API; the secret is nowhere on the page any more
    await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${secret}`).expect(200);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Create an API key' }).getByRole('button', { name: 'Cancel' }).click();
    await check(page, 'api-keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${secret}`).expect(401);
  }, 60_000);

  test('the owner adds an endpoint to a receiver, presses Test, and the delivery appears in the log without a reload, signed', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    const url = receiverUrl;
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Endpoint added' });
    const secret = (await shown.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets = [secret];
    await check(page, 'webhook-secret');
    await shown.getByRole('button', { name: 'Done' }).click();
    await check(page, 'webhooks');
    // The delivery rate the operator sets (docs/decisions.md#delivery-rate) shows under the endpoint's status.
    const [{ id: endpointId }] = await t.c.orm.em.getConnection().execute<{ id: string }[]>(`select id from webhook_endpoint where url = ?`, [url]);
    await t.c.services.webhooks.setRate({ id: 'operator' }, endpointId, 4);
    await page.reload();
    await page.getByRole('row').filter({ hasText: url }).getByText('At most 4 a second (set by the federation)').waitFor();
    await page.getByRole('row').filter({ hasText: url }).getByRole('link', { name: 'Delivery log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery log' }).waitFor();
    await page.getByText('Nothing has been sent to this endpoint yet.').waitFor();
    const loaded = navigations.length;
    await page.getByRole('button', { name: 'Test' }).click();
    const ping = page.locator('[data-testid="delivery"][data-event="ping"]');
    await ping.first().waitFor();
    await page.locator('[data-testid="delivery"][data-event="ping"][data-status="SUCCEEDED"]').waitFor();
    expect(navigations.length).toBe(loaded); // the row arrived over the subscription: no reload, no navigation
    expect(receiver.received.filter((r) => r.json.event === 'ping').map((r) => r.validSignature)).toEqual([true]);
    await ping.getByRole('button', { name: 'Attempts' }).click();
    await page.getByTestId('attempt-status').filter({ hasText: 'HTTP 200' }).waitFor();
    await page.getByText('Request headers').click();
    await page
      .getByText(/x-svc-signature: sha256=/i)
      .first()
      .waitFor();
    await check(page, 'delivery-log');
  }, 60_000);

  test('the owner creates an ingest broadcast (API messages beside the fields), goes live, sees health arrive, ends it, sees the replay', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Broadcasts' }).click();
    await page.getByRole('button', { name: 'New broadcast' }).click();
    const form = page.getByRole('dialog', { name: 'New broadcast' });
    await form.getByLabel('Source URL').fill('http://not-https.example/video.mp4');
    await form.getByRole('button', { name: 'Create broadcast' }).click();
    // the API's own message, next to the field it names
    await form.locator('#b-title-error').waitFor();
    expect(await form.locator('#b-title').getAttribute('aria-invalid')).toBe('true');
    await check(page, 'broadcast-form-errors');
    await form.getByLabel('Title').fill('Studio Browser Night');
    await form.getByLabel('Source', { exact: true }).selectOption('INGEST');
    await form.getByLabel('Discipline').selectOption('MUAY_THAI');
    await form.getByLabel('Tags').fill('main-card, studio');
    await form.getByRole('button', { name: 'Create broadcast' }).click();
    await page.getByRole('heading', { level: 1, name: 'Studio Browser Night' }).waitFor();
    const streamKey = (await page.getByTestId('secret').textContent())!;
    expect(streamKey.length).toBeGreaterThan(20);
    expect(await page.getByTestId('ingest-server').textContent()).toMatch(/^(rtmps?|srt):\/\//);
    await check(page, 'broadcast-ingest');
    await page.getByRole('button', { name: 'Go live' }).click();
    await page.locator('.header-meta').getByText('Live').waitFor();

    await ingest(t.app, 'metrics', { name: streamKey, bitrate_kbps: 4500, resolution: '1280x720', fps: 30, viewers: 42 }).expect(200);
    await page.getByTestId('bitrate').filter({ hasText: '4500 kbps' }).waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('resolution').textContent()).toBe('1280x720');
    expect(await page.getByTestId('viewers').textContent()).toBe('42');
    await page.getByTestId('signal').getByText('Receiving').waitFor();
    await ingest(t.app, 'metrics', { name: streamKey, bitrate_kbps: 300, resolution: '1280x720', fps: 12, viewers: 40 }).expect(200);
    await page.getByTestId('bitrate').filter({ hasText: '300 kbps' }).waitFor({ timeout: 5_000 });
    await page.locator('.warning').first().waitFor();
    await check(page, 'broadcast-live-health');

    await page.getByRole('button', { name: 'End broadcast' }).click();
    await page.getByRole('dialog', { name: 'End this broadcast?' }).getByRole('button', { name: 'End broadcast' }).click();
    await page.locator('.header-meta').getByText('Ended').waitFor();
    await ingest(t.app, 'recording-ready', { name: streamKey, replay_url: 'https://cdn.demo.example/replays/studio-browser-night.m3u8' }).expect(200);
    await page.locator('.header-meta').getByText('Replay').waitFor({ timeout: 5_000 });
    await page.getByTestId('replay-url').filter({ hasText: 'studio-browser-night.m3u8' }).waitFor();
    await page.getByRole('link', { name: '← Broadcasts' }).click();
    await page.getByRole('tab', { name: 'Replays' }).click();
    await page.getByRole('link', { name: 'Studio Browser Night' }).waitFor();
  }, 60_000);

  test('a refusal to go live (no live slot) is explained in words', async () => {
    // fill demo-tv's three slots through the TV API
    for (const title of ['Slot filler A', 'Slot filler B']) {
      const made = await request(t.app)
        .post('/api/tv/broadcasts')
        .set('Authorization', 'Bearer ck_demo_rw')
        .send({ title, source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-01-01T20:00:00Z' })
        .expect(201);
      await request(t.app).post(`/api/tv/broadcasts/${made.body.data.id}/go-live`).set('Authorization', 'Bearer ck_demo_rw').expect(200);
    }
    await page.getByRole('tab', { name: 'Upcoming' }).click();
    await page.getByRole('link', { name: 'Saturday Prelims' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saturday Prelims' }).waitFor();
    await page.getByTestId('live-slots').filter({ hasText: '3 of 3 in use' }).waitFor();
    await page.getByRole('button', { name: 'Go live' }).click();
    await page.getByRole('alert').filter({ hasText: 'Every live slot of this channel is in use' }).waitFor();
    await check(page, 'refusal-no-live-slot');
  }, 60_000);

  test('a viewer finds no control they cannot use', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your channels' }).waitFor();
    await signIn(page, 'viewer@demo.tv', 'demo-viewer-pass');
    const controls =
      /^(New broadcast|Edit|Go live|End broadcast|Rotate stream key|Create key|Revoke|Add endpoint|Test|Disable|Enable|Rotate secret|Delete|Redeliver|Recover failed…)/;
    const none = async (screen: string) => {
      expect({ screen, controls: await page.getByRole('button', { name: controls }).allTextContents() }).toEqual({ screen, controls: [] });
    };
    await none('broadcasts');
    await page.getByRole('link', { name: 'Studio Browser Night' }).click();
    await page.getByRole('heading', { level: 1, name: 'Studio Browser Night' }).waitFor();
    await none('broadcast');
    await check(page, 'viewer-broadcast');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Your role does not manage API keys.').waitFor();
    await none('api keys');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('link', { name: 'Delivery log' }).first().waitFor();
    await none('webhooks');
    await check(page, 'viewer-webhooks');
    await page.getByRole('link', { name: 'Delivery log' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Delivery log' }).waitFor();
    await page.locator('[data-testid="delivery"]').first().waitFor();
    await none('delivery log');
    expect(problems).toEqual([]);
  }, 60_000);

  test('an editor manages broadcasts and sees no key or webhook control', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your channels' }).waitFor();
    await signIn(page, 'editor@demo.tv', 'demo-editor-pass');
    await page.getByRole('button', { name: 'New broadcast' }).waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Your role does not manage API keys.').waitFor();
    expect(await page.getByRole('button', { name: /^(Create key|Revoke)/ }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Delivery log' }).first().waitFor();
    expect(await page.getByRole('button', { name: /^(Add endpoint|Test|Disable|Enable|Rotate secret|Delete)/ }).allTextContents()).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  test('the permissions come from the server: the viewer role on demo-tv may only read', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send({ query: 'mutation { login(email: "viewer@demo.tv", password: "demo-viewer-pass") { token } }' });
    const token = res.body.data.login.token as string;
    const body = await gql('query($s: String!) { channel(slug: $s) { role permissions } }', { s: 'demo-tv' }, token);
    expect(body.data.channel).toEqual({ role: 'VIEWER', permissions: ['READ'] });
  });
});
