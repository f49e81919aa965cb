import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { handleClientErrors } from '../../../src/http/client-error';
import { createHttpServer } from '../../../src/http/http-server';
import { createLogger } from '../../../src/lib/logger';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * The public server's limits (README, configuration): a client that is slow to send its headers
 * or its body gets 408 and is disconnected, an idle keep-alive connection is closed, and
 * connections beyond the cap are dropped. Short limits here; the test waits for the server to
 * act and asserts what it did, never how fast.
 */

let t: TestApp;
const servers: Server[] = [];
beforeAll(async () => {
  t = await startTestApp({
    env: { HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300', HTTP_MAX_CONNECTIONS: '3' },
  });
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await t?.close();
});

async function listen(limits = t.c.config.http): Promise<number> {
  const server = createHttpServer(t.app, limits);
  handleClientErrors(server, createLogger('silent'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw connection: what the server sent, and a promise of the moment it closed the connection. */
function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('error', () => undefined); // a reset is a close too
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

describe('time-outs', () => {
  it('answers 408 and closes a connection whose headers never finish (slowloris)', async () => {
    const port = await listen();
    const c = await open(port);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\nX-Slow: a');
    const text = await c.closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(text).toContain('"error":"request_timeout"');
    expect(text).toMatch(/X-Request-Id: [0-9a-f-]{36}/);
  });

  it('closes a connection that sends some header bytes now and then, never finishing (the time-out is for the whole head)', async () => {
    const port = await listen();
    const c = await open(port);
    c.socket.write('GET /healthz HTTP/1.1\r\n');
    const drip = setInterval(() => {
      if (!c.socket.destroyed) c.socket.write('X-Drip: 1\r\n');
    }, 50);
    try {
      expect(await c.closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });

  it('answers 408 and closes a connection whose body never arrives', async () => {
    const port = await listen();
    const c = await open(port);
    c.socket.write('POST /graphql HTTP/1.1\r\nHost: svc.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":');
    expect(await c.closed).toMatch(/408 Request Timeout/);
  });

  it('serves a prompt request, then closes the idle keep-alive connection', async () => {
    const port = await listen();
    const c = await open(port);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\n\r\n');
    const text = await c.closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toMatch(/Keep-Alive: timeout=0\r\n|Connection: keep-alive\r\n/);
    expect(text).not.toContain('408');
  });
});

describe('connection cap', () => {
  it('drops connections beyond HTTP_MAX_CONNECTIONS at once, and accepts again when one closes', async () => {
    // Long time-outs here, so that the open connections stay while the cap is tried.
    const port = await listen({ ...t.c.config.http, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000 });
    const server = servers[servers.length - 1];
    const held = [await open(port), await open(port), await open(port)];
    await waitFor(async () => (await connections(server)) === 3);
    const extra = await open(port);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\n\r\n');
    expect(await extra.closed).toBe(''); // closed unanswered
    held[0].socket.destroy();
    await waitFor(async () => (await connections(server)) === 2);
    const next = await open(port);
    next.socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\nConnection: close\r\n\r\n');
    expect(await next.closed).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const h of held) h.socket.destroy();
  });
});

describe('configuration', () => {
  it('has sane defaults: 10 s for the headers, 30 s for the request, 65 s keep-alive, 2,000 connections', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000, maxConnections: 2_000 });
  });

  it('refuses a headers time-out longer than the request time-out, and nonsense values', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0' })).toThrow(/HTTP_MAX_CONNECTIONS/);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});

function connections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}
