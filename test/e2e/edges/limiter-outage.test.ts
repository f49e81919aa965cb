import { randomBytes } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { createRateLimiter, type RateLimiter } from '../../../src/http/rate-limiter';

/**
 * A real Redis made unreachable and back (a TCP proxy in front of it, closed and reopened), with
 * the service's fail-fast client options: a 5/min key gets 5 in a minute across the outage, in
 * both orders (counted in Redis then in memory, and in memory then in Redis), never 10.
 */

const redisUrl = process.env.REDIS_URL;
const T0 = Date.UTC(2030, 0, 1, 12);

/** Forwards a local port to Redis until closed; `open()` again listens on the same port. */
class RedisProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
    this.server = null;
  }
}

(redisUrl ? describe : describe.skip)('the rate limiter across a Redis outage', () => {
  const target = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
  const proxy = new RedisProxy({ host: target.hostname, port: Number(target.port || 6379) });
  const direct = new Redis(redisUrl ?? '');
  let client: Redis;
  let limiter: RateLimiter;
  let realMs = 0;
  const prefix = `outage${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    await proxy.open();
    // The service's options (src/container.ts): no offline queue, commands fail at once while disconnected.
    client = new Redis(`redis://127.0.0.1:${proxy.port}`, { commandTimeout: 200, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 50 });
    client.on('error', () => undefined);
    await new Promise((resolve) => client.once('ready', resolve));
    limiter = createRateLimiter({ keyPrefix: prefix, redis: client, now: () => T0, monotonicNow: () => realMs, probeIntervalMs: 1000 });
  });
  afterAll(async () => {
    client.disconnect();
    await proxy.close();
    const keys = await direct.keys(`${prefix}:*`);
    if (keys.length) await direct.del(...keys);
    direct.disconnect();
  });

  const allowed = async (key: string, n: number) => {
    const out: boolean[] = [];
    for (let i = 0; i < n; i++) out.push((await limiter.consume(key, 5)).allowed);
    return out;
  };
  const down = async () => {
    await proxy.close();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const up = async () => {
    await proxy.open();
    if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
    realMs += 1000; // past the probe interval
  };
  const countedInRedis = async (key: string) => Object.values(await direct.hgetall(`${prefix}:sl1:${key}`)).reduce((n, v) => n + Number(v), 0);

  it('counted in Redis, then in memory, then in Redis again: 5 in all, and Redis holds all 5', async () => {
    expect(await allowed('a', 3)).toEqual([true, true, true]);
    await down();
    expect(await allowed('a', 3)).toEqual([true, true, false]); // memory starts from Redis's 3
    expect(limiter.health().degraded).toBe(true);
    await up();
    expect(await allowed('a', 2)).toEqual([false, false]);
    expect(limiter.health().degraded).toBe(false);
    expect(await countedInRedis('a')).toBe(5);
  });

  it('counted in memory during the outage, then in Redis: the memory counts are carried back, 5 in all', async () => {
    await down();
    expect(await allowed('b', 6)).toEqual([true, true, true, true, true, false]);
    await up();
    const back = await limiter.consume('b', 5);
    expect([back.allowed, back.retryAfter]).toEqual([false, 61]);
    expect(await countedInRedis('b')).toBe(5);
    // Another key, never touched during the outage, is not affected.
    expect(await allowed('c', 5)).toEqual([true, true, true, true, true]);
  });
});
