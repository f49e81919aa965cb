import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { handleClientErrors } from '../../../src/http/client-error';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/** Requests Node's HTTP parser refuses still get a JSON error with X-Request-Id, then the connection closes. */

let t: TestApp;
let server: Server;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  server = createServer(t.app);
  handleClientErrors(server, t.c.logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** Sends raw bytes and reads until the server closes the connection. */
function raw(request: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

function expectJsonError(res: { status: number; headers: Record<string, string>; body: string }, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers.connection).toBe('close');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body);
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe('string');
}

describe('requests refused by the HTTP parser', () => {
  it('a control character in a header value: 400 bad_request', async () => {
    expectJsonError(await raw('GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: pk_\x01abc\r\n\r\n'), 400, 'bad_request');
  });

  it('headers over 16 KiB: 431 headers_too_large', async () => {
    expectJsonError(await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'headers_too_large');
  });

  it('a malformed request line: 400 bad_request', async () => {
    expectJsonError(await raw('GET /healthz HTTP/1.1 extra\r\nHost: x\r\n\r\n'), 400, 'bad_request');
    expectJsonError(await raw('G(T /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'bad_request');
  });

  it('a well-formed request on the same server is answered as usual', async () => {
    const res = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});
