import { loadConfig } from '../../../src/config/config';
import { createContainer, type Container } from '../../../src/container';
import { fakeResolver, TEST_DNS } from '../../helpers/fake-resolver';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, deliveriesOf, header, registerEndpoint, runWorker, sanctionEvent, seedBasics, sleep, waitUntil } from '../../helpers/webhooks';

/**
 * Endpoint targets (docs/decisions.md#targets): https only unless WEBHOOKS_ALLOW_INSECURE; private, loopback and
 * link-local targets refused unless WEBHOOKS_ALLOW_PRIVATE, at registration and again at send
 * time (a worker whose configuration refuses them does not connect).
 */

let t: TestApp;
const containers: Container[] = [];
const receiver = new WebhookReceiver();
let url: string;
// The test's DNS: hooks.example.com is public; other names are internal or do not resolve.
const dns = fakeResolver(TEST_DNS);

beforeAll(async () => {
  t = await startTestApp({
    resolveHost: dns,
    env: { WEBHOOKS_ALLOW_INSECURE: '0', WEBHOOKS_ALLOW_PRIVATE: '0', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms' },
  });
  await seedBasics(t.c);
  url = await receiver.start();
});
afterAll(async () => {
  for (const c of containers) await c.close();
  await receiver.stop();
  await t?.close();
});

/** The same database and ORM, configured with these flags. */
function containerWith(insecure: boolean, priv: boolean): Container {
  const c = createContainer(
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: t.db.url,
      LOG_LEVEL: 'silent',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms',
      WEBHOOKS_ALLOW_INSECURE: insecure ? '1' : '0',
      WEBHOOKS_ALLOW_PRIVATE: priv ? '1' : '0',
    }),
    t.db.orm,
    { resolveHost: dns },
  );
  containers.push(c);
  return c;
}

async function registrationError(c: Container, target: string): Promise<string | null> {
  try {
    await c.services.webhooks.register(actor, { partnerSlug: 'acme-media', url: target, events: ['event.sanctioned'] });
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

describe('at registration', () => {
  it.each([
    'https://127.0.0.1/hooks',
    'https://127.0.0.1:8443/hooks',
    'https://[::1]/hooks',
    'https://10.1.2.3/hooks',
    'https://172.16.0.9/hooks',
    'https://192.168.1.20/hooks',
    'https://169.254.169.254/latest',
    'https://[fd00::5]/hooks',
    'https://[fe80::1]/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://0.0.0.0/hooks',
    'https://localhost/hooks',
    'https://hooks.localhost/hooks',
    // IPv4-compatible and IPv4-mapped IPv6 in every spelling, port 0, and names that resolve inside.
    'https://[::127.0.0.1]/hooks',
    'https://[::7f00:1]/hooks',
    'https://[::ffff:7f00:1]/hooks',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/hooks',
    'https://hooks.example.com:0/hooks',
    'https://loopback.example.com/hooks',
    'https://intranet.example.com/hooks',
    'https://mixed.example.com/hooks',
    'https://compat.example.com/hooks',
    'https://unknown-name.example.com/hooks',
  ])('refuses the private or loopback target %s with invalid_url', async (target) => {
    expect(await registrationError(t.c, target)).toBe('invalid_url');
  });

  it('refuses http with invalid_url unless WEBHOOKS_ALLOW_INSECURE', async () => {
    expect(await registrationError(t.c, 'http://hooks.example.com/svc')).toBe('invalid_url');
    expect(await registrationError(containerWith(true, false), 'http://hooks.example.com/svc')).toBeNull();
  });

  it('accepts private and loopback targets with WEBHOOKS_ALLOW_PRIVATE (and http ones only with both flags)', async () => {
    expect(await registrationError(containerWith(false, true), 'https://127.0.0.1:8443/hooks')).toBeNull();
    expect(await registrationError(containerWith(false, true), url)).toBe('invalid_url'); // http
    expect(await registrationError(containerWith(true, false), url)).toBe('invalid_url'); // loopback
    expect(await registrationError(containerWith(true, true), url)).toBeNull();
  });

  it('stores nothing for a refused registration, and accepts a public https URL', async () => {
    const count = (await t.c.services.webhooks.list()).length;
    expect(await registrationError(t.c, 'https://10.0.0.1/x')).toBe('invalid_url');
    expect(await registrationError(t.c, 'https://user:pw@hooks.example.com/x')).toBe('invalid_url');
    expect(await registrationError(t.c, 'ftp://hooks.example.com/x')).toBe('invalid_url');
    expect((await t.c.services.webhooks.list()).length).toBe(count);
    expect(await registrationError(t.c, 'https://hooks.example.com/svc')).toBeNull();
    expect((await t.c.services.webhooks.list()).length).toBe(count + 1);
  });
});

it('refuses a name resolving inside and a name that does not resolve with the same message (no oracle for internal names)', async () => {
  const message = (target: string) =>
    t.c.services.webhooks.register(actor, { partnerSlug: 'acme-media', url: target, events: ['event.sanctioned'] }).then(
      () => 'registered',
      (err: Error) => err.message,
    );
  const internal = await message('https://intranet.example.com/hooks');
  expect(internal).toMatch(/public address/);
  expect(await message('https://unknown-name.example.com/hooks')).toBe(internal);
  expect(await message('https://loopback.example.com/hooks')).toBe(internal);
});

describe('at send time', () => {
  beforeAll(async () => {
    // Only the endpoints of this block receive from now on.
    for (const e of await t.c.services.webhooks.list()) if (e.enabled) await t.c.services.webhooks.setEnabled(actor, e.id, false, 'registration tests');
  });

  it.each([
    ['a loopback IP literal', () => url],
    ['a name that resolves to loopback', () => url.replace('127.0.0.1', 'localhost')],
  ])("refuses %s when the worker's configuration does not allow private targets, and nothing reaches it", async (_label, target) => {
    // Registered where private targets were allowed; delivered by a worker where they are not.
    const permissive = containerWith(true, true);
    const endpoint = await registerEndpoint(permissive, target(), ['event.sanctioned']);
    receiver.secrets = [endpoint.secret];
    const before = receiver.received.length;
    const strict = await runWorker(containerWith(true, false), t.db);
    try {
      await sanctionEvent(t.c);
      const [row] = await waitUntil('a refused attempt', async () => {
        const rows = await deliveriesOf(t.c, endpoint.id);
        return rows.length && rows[0].attempt >= 2 && rows[0].status === 'pending' ? rows : null;
      });
      const log = await t.c.services.deliveries.attempts([row.id]);
      expect(log.length).toBeGreaterThanOrEqual(1);
      for (const a of log) {
        expect(a.status_code).toBeNull();
        expect(a.error).toMatch(/refused/);
      }
      expect(row.last_error).toMatch(/refused/);
      expect(receiver.received).toHaveLength(before);
    } finally {
      await strict.close();
    }
    // The same delivery, retried by a worker that allows private targets, arrives.
    const allowed = await runWorker(permissive, t.db);
    try {
      await receiver.waitFor(before + 1);
      const r = receiver.received[before];
      expect(Number(header(r, 'X-SVC-Attempt'))).toBeGreaterThanOrEqual(2);
      expect(r.validSignature).toBe(true);
    } finally {
      await allowed.close();
    }
    await t.c.services.webhooks.setEnabled(actor, endpoint.id, false, 'test over');
    await sleep(50);
  });

  it('logs one neutral message for a refused target and for a name that does not resolve', async () => {
    const permissive = containerWith(true, true);
    const port = new URL(url).port;
    const targets = [url, url.replace('127.0.0.1', 'localhost'), `http://[::127.0.0.1]:${port}/`, `http://no-such-host.invalid:${port}/hooks`];
    const endpoints = [];
    for (const target of targets) endpoints.push(await registerEndpoint(permissive, target, ['event.sanctioned']));
    const strict = await runWorker(containerWith(true, false), t.db);
    const errors = new Set<string | null>();
    try {
      await sanctionEvent(t.c);
      for (const endpoint of endpoints) {
        const [row] = await waitUntil('a failed attempt', async () => {
          const rows = await deliveriesOf(t.c, endpoint.id);
          return rows.length && rows[0].attempt >= 1 && rows[0].last_error ? rows : null;
        });
        errors.add(row.last_error);
        for (const a of await t.c.services.deliveries.attempts([row.id])) errors.add(a.error);
      }
    } finally {
      await strict.close();
      for (const endpoint of endpoints) await t.c.services.webhooks.setEnabled(actor, endpoint.id, false, 'test over');
    }
    expect([...errors]).toEqual(['refused: the target host does not resolve to a public address']);
    expect([...errors].join()).not.toMatch(/ENOTFOUND|ESSRF|EAI_|getaddrinfo|127\.0\.0\.1|localhost|invalid/);
  });
});
