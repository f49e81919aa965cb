import type { Redis } from 'ioredis';
import type { CarriedCount, WindowStore } from './rate-limit-memory.store';
import { COUNTED_SECONDS, WINDOW_SECONDS, type Bucket } from './rate-limit-window';

/**
 * One HASH per key, a field per Unix second holding that second's count. Each call is one Lua
 * script, so one round trip, and atomic: concurrent requests of every API instance sharing the
 * Redis can never overshoot a limit. Buckets older than the window are deleted as they are met;
 * the key expires once its newest bucket has left the window (plus slack for clock skew between
 * instances), so idle keys cost nothing.
 */
const CONSUME = `
local first = tonumber(ARGV[1]) - ${WINDOW_SECONDS}
local limit = tonumber(ARGV[2])
local flat = redis.call('HGETALL', KEYS[1])
local total = 0
local stale = {}
local live = {}
for i = 1, #flat, 2 do
  local s = tonumber(flat[i])
  local c = tonumber(flat[i + 1])
  if s < first or c <= 0 then
    stale[#stale + 1] = flat[i]
  else
    total = total + c
    live[#live + 1] = s
    live[#live + 1] = c
  end
end
if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
if total + 1 > limit then return {0, live} end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, live}
`;

const REFUND = `
local first = tonumber(ARGV[1]) - ${WINDOW_SECONDS}
local flat = redis.call('HGETALL', KEYS[1])
local newest = nil
for i = 1, #flat, 2 do
  local s = tonumber(flat[i])
  if s >= first and tonumber(flat[i + 1]) > 0 and (newest == nil or s > tonumber(newest)) then newest = flat[i] end
end
if newest == nil then return 0 end
if redis.call('HINCRBY', KEYS[1], newest, -1) <= 0 then redis.call('HDEL', KEYS[1], newest) end
return 1
`;

// ARGV: the first counted second, the TTL, then (second, total, added) per carried second.
const MERGE = `
local first = tonumber(ARGV[1])
local changed = false
for i = 3, #ARGV, 3 do
  local s = tonumber(ARGV[i])
  if s >= first then
    local had = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
    local want = math.max(had + tonumber(ARGV[i + 2]), tonumber(ARGV[i + 1]))
    if want > had then
      redis.call('HSET', KEYS[1], ARGV[i], want)
      changed = true
    end
  end
end
if changed then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

/** Seconds a key outlives its newest bucket's counted span, for clock skew between instances. */
const EXPIRY_SLACK_SECONDS = 5;
const TTL_MS = (COUNTED_SECONDS + 1 + EXPIRY_SLACK_SECONDS) * 1000;

/** Key namespace of this layout (the hashes must never meet keys of another layout). */
const LAYOUT = 'sl1';

interface WindowCommands {
  rateLimitWindowConsume(key: string, second: number, limit: number, ttlMs: number): Promise<[number, number[]]>;
  rateLimitWindowRefund(key: string, second: number): Promise<number>;
  rateLimitWindowMerge(key: string, first: number, ttlMs: number, ...triples: number[]): Promise<number>;
}

export class RedisWindowStore implements WindowStore {
  readonly kind = 'redis';
  private readonly commands: WindowCommands;
  /** Settles once the client has connected, failed to, or waited long enough; then null. */
  private firstConnect: Promise<void> | null;

  /**
   * @param firstConnectWaitMs until the client has connected once, a call waits for the
   *   connection up to this long rather than failing at once (a freshly started process
   *   would otherwise decide its first requests in memory).
   */
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    firstConnectWaitMs = 1000,
  ) {
    redis.defineCommand('rateLimitWindowConsume', { numberOfKeys: 1, lua: CONSUME });
    redis.defineCommand('rateLimitWindowRefund', { numberOfKeys: 1, lua: REFUND });
    redis.defineCommand('rateLimitWindowMerge', { numberOfKeys: 1, lua: MERGE });
    this.commands = redis as unknown as WindowCommands;
    this.firstConnect =
      redis.status === 'ready'
        ? null
        : waitForFirstConnect(redis, firstConnectWaitMs).then(() => {
            this.firstConnect = null;
          });
  }

  async consume(key: string, second: number, limit: number): Promise<{ allowed: boolean; buckets: Bucket[] }> {
    if (this.firstConnect) await this.firstConnect;
    const [allowed, flat] = await this.commands.rateLimitWindowConsume(this.redisKey(key), second, limit, TTL_MS);
    const buckets: Bucket[] = [];
    for (let i = 0; i < flat.length; i += 2) buckets.push([Number(flat[i]), Number(flat[i + 1])]);
    if (allowed === 1) buckets.push([second, 1]); // the script's list is from before the increment
    return { allowed: allowed === 1, buckets: merge(buckets) };
  }

  async refund(key: string, second: number): Promise<void> {
    if (this.firstConnect) await this.firstConnect;
    await this.commands.rateLimitWindowRefund(this.redisKey(key), second);
  }

  async merge(key: string, entries: readonly CarriedCount[], second: number): Promise<void> {
    if (entries.length === 0) return;
    if (this.firstConnect) await this.firstConnect;
    const triples = entries.flatMap((e) => [e.second, e.total, e.added]);
    await this.commands.rateLimitWindowMerge(this.redisKey(key), second - WINDOW_SECONDS, TTL_MS, ...triples);
  }

  /** Calls `listener(false)` when the connection is lost (not on a deliberate disconnect) and
   *  `listener(true)` when it is back. */
  watch(listener: (up: boolean) => void): void {
    this.redis.on('reconnecting', () => listener(false));
    this.redis.on('ready', () => listener(true));
  }

  private redisKey(key: string): string {
    return `${this.keyPrefix}:${LAYOUT}:${key}`;
  }
}

/** Buckets of one second added together (the script's list plus this request). */
function merge(buckets: Bucket[]): Bucket[] {
  const bySecond = new Map<number, number>();
  for (const [s, c] of buckets) bySecond.set(s, (bySecond.get(s) ?? 0) + c);
  return [...bySecond];
}

function waitForFirstConnect(redis: Redis, waitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of ['ready', 'error', 'end'] as const) redis.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    timer.unref();
    for (const event of ['ready', 'error', 'end'] as const) redis.once(event, done);
  });
}
