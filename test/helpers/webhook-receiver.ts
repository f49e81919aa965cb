import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/webhooks/signer';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; created_at: string; data: Record<string, unknown> };
  /** Both signatures checked as a partner would, with the secret(s) the receiver knows. */
  validSignature: boolean;
  at: number;
}

/**
 * A real HTTP receiver on loopback that verifies every delivery the way the README tells
 * partners to: HMAC over the raw body, constant-time comparison, 300-second tolerance.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  /** Status codes to answer, one per request; the last one repeats. */
  responses: number[] = [200];
  /** Milliseconds to wait before answering. */
  delayMs = 0;
  private server: Server | null = null;
  private waiters: { n: number; resolve: () => void }[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const h = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
        const validSignature = this.secrets.some((secret) => verifySignature(secret, body, {
          timestamp: h('X-SVC-Timestamp'), signature: h('X-SVC-Signature'), timestamped: h('X-SVC-Signature-Timestamped'),
        }));
        const status = this.responses[Math.min(this.received.length, this.responses.length - 1)];
        this.received.push({ headers: req.headers, body, json: JSON.parse(body), validSignature, at: Date.now() });
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
        setTimeout(() => {
          res.statusCode = status;
          res.setHeader('content-type', 'text/plain');
          res.end(status < 300 ? 'ok' : 'no');
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once `n` deliveries have arrived in all; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs = 15_000): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${n} deliveries, got ${this.received.length}`)), timeoutMs);
      this.waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(); } });
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
