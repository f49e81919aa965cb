import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { payloadProblems } from '../../src/webhooks/event-catalog';
import { verifySignature } from '../../src/webhooks/signer';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; created_at: string; data: Record<string, unknown> };
  /** Both signatures checked as a partner would, with the secret(s) the receiver knows. */
  validSignature: boolean;
  /** The Standard Webhooks headers checked by the `standardwebhooks` library with the same secret(s). */
  validStandardSignature: boolean;
  at: number;
}

/** How to answer one request; anything left out falls back to `responses`, `delayMs` and `responseBody`. */
export interface Reply {
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Whether the `standardwebhooks` library accepts the delivery with `secret`, as a receiver using it would. */
export function standardVerified(secret: string, body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/**
 * A real HTTP receiver on loopback that verifies every delivery the way the README tells
 * partners to: HMAC over the raw body, constant-time comparison, 300-second tolerance; and with
 * the `standardwebhooks` library. Every body is checked against its event's schema in the event
 * catalog: `stop()` fails (and with it the test file) when one did not match.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Payloads that did not match their event's schema (event-catalog.ts). */
  readonly schemaProblems: string[] = [];
  secrets: string[] = [];
  /** Status codes to answer, one per request; the last one repeats. */
  responses: number[] = [200];
  /** Milliseconds to wait before answering. */
  delayMs = 0;
  /** The body of every answer (default "ok" for 2xx, "no" otherwise). */
  responseBody: string | Buffer | null = null;
  /** Decides the answer to one request (its index counts from 0); overrides the fields above. */
  reply: ((r: Received, index: number) => Reply | undefined) | null = null;
  private server: Server | null = null;
  private waiters: { n: number; resolve: () => void }[] = [];
  private timers = new Set<NodeJS.Timeout>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const h = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
        const validSignature = this.secrets.some((secret) =>
          verifySignature(secret, body, {
            timestamp: h('X-SVC-Timestamp'),
            signature: h('X-SVC-Signature'),
            timestamped: h('X-SVC-Signature-Timestamped'),
          }),
        );
        const index = this.received.length;
        const status = this.responses[Math.min(index, this.responses.length - 1)];
        const validStandardSignature = this.secrets.some((secret) => standardVerified(secret, body, req.headers));
        this.schemaProblems.push(...payloadProblems(body));
        const record: Received = { headers: req.headers, body, json: JSON.parse(body), validSignature, validStandardSignature, at: Date.now() };
        this.received.push(record);
        const custom = this.reply?.(record, index) ?? {};
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
        const answer = () => {
          if (res.destroyed) return;
          res.statusCode = custom.status ?? status;
          res.setHeader('content-type', 'text/plain; charset=utf-8');
          for (const [k, v] of Object.entries(custom.headers ?? {})) res.setHeader(k, v);
          res.end(custom.body ?? this.responseBody ?? (res.statusCode < 300 ? 'ok' : 'no'));
        };
        const delay = custom.delayMs ?? this.delayMs;
        if (delay <= 0) return answer();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          answer();
        }, delay);
        this.timers.add(timer);
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
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async stop(): Promise<void> {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    if (this.schemaProblems.length) throw new Error(`payloads that do not match the event catalog:\n${this.schemaProblems.join('\n')}`);
  }
}
