import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { Agent, type Dispatcher } from 'undici';
import { guardedLookup, isPublicAddress, TARGET_REFUSED, type TargetPolicy } from './ssrf-guard';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
}

const EXCERPT_BYTES = 4096;

/** An endpoint URL as the sender uses it: parsed and checked once, not once a delivery. */
interface Target {
  /** Null when the URL names port 0 or a non-public address literal (refused before any connection). */
  origin: string | null;
  path: string;
}

/** The most endpoint URLs kept parsed; past it the cache starts over (a worker serves far fewer). */
const TARGETS_KEPT = 10_000;

/**
 * POSTs one signed delivery. Redirects are not followed (a 3xx is a failure), the whole exchange
 * is bounded by the time-out, private targets are refused at connection time, and only the first
 * 4 KiB of the answer are kept for the log.
 *
 * Each request is dispatched on the agent with a handler of its own (`Exchange`) that keeps the
 * first 4 KiB and settles one promise: no response stream, no abort signal. Every exchange has
 * the same time-out, so their deadlines come in the order they started: one list, oldest first,
 * and one timer for its head bound them all (`Deadlines`).
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly targets = new Map<string, Target>();
  private readonly deadlines: Deadlines;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(policy), timeout: timeoutMs },
      // The exchange's own deadline bounds headers and body (Deadlines): no parser timers a request.
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: 4000,
      connections: 64,
    });
    this.deadlines = new Deadlines(timeoutMs);
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    let target: Target;
    try {
      target = this.target(url);
    } catch (err) {
      return Promise.resolve(failure(errorMessage(err, this.timeoutMs), started));
    }
    // An IP literal never goes through the DNS lookup, so it is checked here (target()).
    if (target.origin === null) return Promise.resolve(failure(TARGET_REFUSED, started));
    return new Promise<SendResult>((resolve) => {
      const exchange = new Exchange(started, this.timeoutMs, this.deadlines, resolve);
      this.deadlines.add(exchange);
      this.agent.dispatch({ origin: target.origin!, path: target.path, method: 'POST', headers, body }, exchange);
    });
  }

  private target(url: string): Target {
    let target = this.targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const refused = parsed.port === '0' || (!this.policy.allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host));
      target = { origin: refused ? null : parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  async close(): Promise<void> {
    await this.agent.close();
    this.deadlines.close();
  }
}

function failure(error: string, started: number): SendResult {
  return { statusCode: null, error: error.slice(0, 500), durationMs: Math.round(performance.now() - started), excerpt: null };
}

/** The log's words for an error of the exchange (the same as the request API's errors gave). */
function errorMessage(err: unknown, timeoutMs: number): string {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  return e.code === 'ETARGET' || e.cause?.code === 'ETARGET'
    ? TARGET_REFUSED
    : e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT'
      ? `timed out after ${timeoutMs} ms`
      : `${e.code ? `${e.code}: ` : ''}${e.message}`;
}

/** The reasons an exchange is aborted with once it has settled (never logged). */
const TIMED_OUT = Object.assign(new Error('the webhook time-out ran out'), { name: 'TimeoutError' });
const EXCERPT_FULL = new Error('the first 4 KiB of the answer are in');

/**
 * One request: undici's handler (the callback API undici runs natively), the answer's first
 * 4 KiB, and its place in the list of deadlines. Settles once: with the answer, an error, or the
 * time-out, whichever comes first; what undici reports after that is ignored.
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly deadline: number;
  prev: Exchange | null = null;
  next: Exchange | null = null;
  private abort: ((err?: Error) => void) | null = null;
  private settled = false;
  private statusCode = 0;
  private chunks: Buffer[] | null = null;
  private size = 0;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly deadlines: Deadlines,
    private readonly resolve: (result: SendResult) => void,
  ) {
    this.deadline = started + timeoutMs;
  }

  onConnect(abort: (err?: Error) => void): void {
    // Timed out while waiting for a connection: never sent.
    if (this.settled) abort(TIMED_OUT);
    else this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    // 1xx answers (103 Early Hints) come before the final one.
    if (statusCode >= 200) this.statusCode = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    (this.chunks ??= []).push(chunk);
    this.size += chunk.length;
    if (this.size < EXCERPT_BYTES) return true;
    // Enough for the log: the rest is not read (the connection is closed, as the stream's destroy did).
    this.succeed();
    this.abort?.(EXCERPT_FULL);
    return false;
  }

  onComplete(): void {
    if (!this.settled) this.succeed();
  }

  onError(err: Error): void {
    if (!this.settled) this.settle({ statusCode: null, error: errorMessage(err, this.timeoutMs).slice(0, 500), excerpt: null });
  }

  /** Called by Deadlines when the time-out ran out. */
  expire(): void {
    if (this.settled) return;
    this.settle({ statusCode: null, error: `timed out after ${this.timeoutMs} ms`, excerpt: null });
    this.abort?.(TIMED_OUT);
  }

  private succeed(): void {
    this.settle({ statusCode: this.statusCode, error: null, excerpt: excerptOf(this.chunks, this.size) });
  }

  private settle(result: Omit<SendResult, 'durationMs'>): void {
    this.settled = true;
    this.chunks = null;
    this.deadlines.remove(this);
    this.resolve({ ...result, durationMs: Math.round(performance.now() - this.started) });
  }
}

/**
 * The deadlines of the exchanges in flight, oldest first (one time-out for all, so the order they
 * started in), and one unref'd timer for the head. An exchange leaves the list when it settles
 * (O(1)); the timer is re-armed only when it fires, for the new head.
 */
class Deadlines {
  private head: Exchange | null = null;
  private tail: Exchange | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly timeoutMs: number) {}

  add(x: Exchange): void {
    x.prev = this.tail;
    if (this.tail) this.tail.next = x;
    else this.head = x;
    this.tail = x;
    if (this.timer === null) this.arm(this.timeoutMs);
  }

  remove(x: Exchange): void {
    if (x.prev) x.prev.next = x.next;
    else if (this.head === x) this.head = x.next;
    else return; // not in the list
    if (x.next) x.next.prev = x.prev;
    else this.tail = x.prev;
    x.prev = x.next = null;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const now = performance.now();
    while (this.head && this.head.deadline <= now) {
      const x = this.head;
      this.remove(x);
      x.expire();
    }
    if (this.head) this.arm(Math.max(1, Math.ceil(this.head.deadline - now)));
  }
}

/**
 * The first 4 KiB of the answer, cut at a character boundary (a decoder holds back a split
 * character), with NUL replaced, which a PostgreSQL text column refuses: an excerpt that cannot be
 * stored would leave the attempt unrecorded, and sent again after every lease.
 */
function excerptOf(chunks: Buffer[] | null, size: number): string {
  if (chunks === null) return '';
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
  return new StringDecoder('utf8').write(bytes.subarray(0, EXCERPT_BYTES)).replace(/\u0000/g, '\uFFFD');
}
