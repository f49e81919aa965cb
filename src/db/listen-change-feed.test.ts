import { createLogger } from '../lib/logger';
import { VersionedCache } from '../lib/versioned-cache';
import { CHANGE_TOPICS } from '../ports/change-feed';
import { ListenChangeFeed, type ListenTransport } from './listen-change-feed';

/** A LISTEN session the test drives: deliver notifications, drop the connection, refuse connects. */
function fakeTransport() {
  const sessions: { notify(payload: string): void; lose(): void; closed: boolean }[] = [];
  let refuse = 0;
  const transport: ListenTransport = async ({ onNotify, onLost }) => {
    if (refuse > 0) {
      refuse--;
      throw new Error('connection refused');
    }
    const s = { notify: onNotify, lose: () => onLost(new Error('terminated')), closed: false };
    sessions.push(s);
    return {
      close: async () => {
        s.closed = true;
      },
    };
  };
  return {
    transport,
    sessions,
    refuseNext: (n: number) => {
      refuse = n;
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(condition()).toBe(true);
}

const logger = createLogger('silent');

describe('ListenChangeFeed', () => {
  it('is live once listening, bumps every topic on connecting and the named topic on each notification', async () => {
    const { transport, sessions } = fakeTransport();
    const feed = await new ListenChangeFeed(transport, logger).start();
    expect(feed.live).toBe(true);
    for (const t of CHANGE_TOPICS) expect(feed.version(t)).toBe(1);
    const heard: string[] = [];
    feed.on('tv', () => heard.push('tv'));
    sessions[0].notify('tv');
    sessions[0].notify('not-a-topic');
    expect(feed.version('tv')).toBe(2);
    expect(feed.version('partner_keys')).toBe(1);
    expect(heard).toEqual(['tv']);
    await feed.close();
    expect(sessions[0].closed).toBe(true);
  });

  it('hands a subject notification (live:<kind>:<channel>:<id>) to onSubject listeners, bumping no topic', async () => {
    const { transport, sessions } = fakeTransport();
    const feed = await new ListenChangeFeed(transport, logger).start();
    const subjects: unknown[] = [];
    feed.onSubject((s) => subjects.push(s));
    const channel = '11111111-1111-4111-8111-111111111111';
    const id = '22222222-2222-4222-8222-222222222222';
    sessions[0].notify(`live:health:${channel}:${id}`);
    sessions[0].notify(`live:delivery:${channel}:${id}`);
    sessions[0].notify(`live:unknown:${channel}:${id}`);
    sessions[0].notify('live:broadcast:not-a-uuid:x');
    expect(subjects).toEqual([
      { kind: 'health', channelId: channel, id },
      { kind: 'delivery', channelId: channel, id },
    ]);
    for (const t of CHANGE_TOPICS) expect(feed.version(t)).toBe(1);
    await feed.close();
  });

  it('when the connection is lost: not live (caches fall back to the short TTL), reconnects with backoff, bumps every topic', async () => {
    const { transport, sessions, refuseNext } = fakeTransport();
    const feed = await new ListenChangeFeed(transport, logger, { minBackoffMs: 1, maxBackoffMs: 4 }).start();
    let now = 0;
    const cache = new VersionedCache<number>({ feed, topics: ['partner_keys'], fallbackTtlMs: 1000, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    await cache.get('k', load);
    now += 5000;
    expect(await cache.get('k', load)).toBe(1);

    refuseNext(2);
    sessions[0].lose();
    expect(feed.live).toBe(false);
    expect(await cache.get('k', load)).toBe(2);
    now += 999;
    expect(await cache.get('k', load)).toBe(2);
    now += 1;
    expect(await cache.get('k', load)).toBe(3);

    await until(() => feed.live);
    expect(sessions).toHaveLength(2);
    expect(feed.version('partner_keys')).toBe(2);
    expect(await cache.get('k', load)).toBe(4);
    now += 5000;
    expect(await cache.get('k', load)).toBe(4);
    await feed.close();
  });

  it('starts even when the database refuses, and becomes live when it accepts', async () => {
    const { transport, refuseNext } = fakeTransport();
    refuseNext(1);
    const feed = await new ListenChangeFeed(transport, logger, { minBackoffMs: 1 }).start();
    expect(feed.live).toBe(false);
    await until(() => feed.live);
    await feed.close();
  });
});
