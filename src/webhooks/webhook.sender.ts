import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { Agent, request } from 'undici';
import { guardedLookup, isPublicAddress, TARGET_REFUSED, type TargetPolicy } from './ssrf-guard';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
}

const EXCERPT_BYTES = 4096;

/**
 * POSTs one signed delivery. Redirects are not followed (a 3xx is a failure), the whole exchange
 * is bounded by the time-out, private targets are refused at connection time, and only the first
 * 4 KiB of the answer are kept for the log.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(policy), timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4000,
      connections: 64,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = new URL(url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      // An IP literal never goes through the DNS lookup, so it is checked here.
      if (target.port === '0' || (!this.policy.allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host))) {
        return { statusCode: null, error: TARGET_REFUSED, durationMs: elapsed(), excerpt: null };
      }
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const excerpt = await readExcerpt(res.body);
      return { statusCode: res.statusCode, error: null, durationMs: elapsed(), excerpt };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string } };
      const message =
        e.code === 'ETARGET' || e.cause?.code === 'ETARGET'
          ? TARGET_REFUSED
          : e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT'
            ? `timed out after ${this.timeoutMs} ms`
            : `${e.code ? `${e.code}: ` : ''}${e.message}`;
      return { statusCode: null, error: message.slice(0, 500), durationMs: elapsed(), excerpt: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } finally {
    body.destroy();
  }
  // Cut at a character boundary (a decoder holds back a split character), and replace NUL,
  // which a PostgreSQL text column refuses: an excerpt that cannot be stored would leave the
  // attempt unrecorded, and sent again after every lease.
  return new StringDecoder('utf8').write(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES)).replace(/\u0000/g, '\uFFFD');
}
