import type { StudioPrincipal } from '../../domain/studio/studio-auth.service';
import type { Role } from '../../domain/channels/channel.entities';
import { LiveEvents, MAX_WAITING, type LiveSubject } from './live-events';

const HERE = '11111111-1111-4111-8111-111111111111';
const THERE = '22222222-2222-4222-8222-222222222222';
const B1 = 'b1b1b1b1-0000-4000-8000-000000000001';
const B2 = 'b2b2b2b2-0000-4000-8000-000000000002';

class FakeFeed {
  private listener: ((s: LiveSubject) => void) | null = null;
  onSubject(l: (s: LiveSubject) => void) {
    this.listener = l;
    return () => {
      this.listener = null;
    };
  }
  send(s: LiveSubject) {
    this.listener?.(s);
  }
}

const user = (roles: [string, Role][]): StudioPrincipal => ({ kind: 'studio', sessionId: 's', userId: 'u', email: 'u@example.com', roles: new Map(roles) });
const broadcast = (channelId: string, id: string): LiveSubject => ({ kind: 'broadcast', channelId, id });

function setup() {
  const feed = new FakeFeed();
  const loads: string[] = [];
  let version = 0;
  const events = new LiveEvents<{ id: string; version: number }>(feed, async (s) => {
    loads.push(s.id);
    return { id: s.id, version: ++version };
  });
  return { feed, loads, events };
}

describe('LiveEvents', () => {
  it('hands a change to the matching streams only, loading it once for all of them', async () => {
    const { feed, loads, events } = setup();
    const viewer = user([[HERE, 'viewer']]);
    const mine = () => events.stream({ matches: (s) => s.channelId === HERE, principal: () => viewer });
    const [a, b] = [mine(), mine()];
    const other = events.stream({ matches: (s) => s.channelId === THERE, principal: () => user([[THERE, 'owner']]) });
    feed.send(broadcast(HERE, B1));
    const [ra, rb] = await Promise.all([a.next(), b.next()]);
    expect(ra.value.value).toEqual({ id: B1, version: 1 });
    expect(rb.value.value).toBe(ra.value.value);
    expect(loads).toEqual([B1]);
    // `other` got nothing: its next change is the first it sees
    feed.send(broadcast(THERE, B2));
    expect((await other.next()).value.subject).toEqual(broadcast(THERE, B2));
  });

  it('checks every change against the access rule with the principal of the moment', async () => {
    const { feed, loads, events } = setup();
    let principal = user([]);
    const s = events.stream({ matches: () => true, principal: () => principal });
    const next = s.next();
    feed.send(broadcast(HERE, B1)); // handed out while the user has no role on HERE: skipped
    await new Promise((resolve) => setImmediate(resolve));
    principal = user([[HERE, 'editor']]); // a role granted: the next change is handed out
    feed.send(broadcast(HERE, B2));
    expect((await next).value.subject.id).toBe(B2);
    expect(loads).toEqual([B2]); // the refused change was never even read
  });

  it('keeps one unread change per row (its load reads the row as it is then) and at most MAX_WAITING', async () => {
    const { feed, loads, events } = setup();
    const s = events.stream({ matches: () => true, principal: () => user([[HERE, 'viewer']]) });
    feed.send(broadcast(HERE, B1));
    feed.send(broadcast(HERE, B2));
    feed.send(broadcast(HERE, B1));
    expect((await s.next()).value.subject.id).toBe(B2);
    expect((await s.next()).value.subject.id).toBe(B1);
    expect(loads).toEqual([B2, B1]);
    for (let i = 0; i < MAX_WAITING + 5; i++) feed.send(broadcast(HERE, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    const first = await s.next();
    expect(first.value.subject.id).toBe(`00000000-0000-4000-8000-${String(5).padStart(12, '0')}`);
  });

  it('wakes a subject again without a notification (a health going stale)', async () => {
    const { events } = setup();
    const s = events.stream({ matches: (x) => x.kind === 'health', principal: () => user([[HERE, 'viewer']]) });
    events.wakeAt({ kind: 'health', channelId: HERE, id: B1 }, 0);
    expect((await s.next()).value.subject).toEqual({ kind: 'health', channelId: HERE, id: B1 });
    events.close();
  });

  it('ends a stream on return (and a pending next with it), forgetting its route', async () => {
    const { events } = setup();
    const s = events.stream({ matches: () => true, principal: () => null });
    expect(events.size).toBe(1);
    const pending = s.next();
    await s.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(events.size).toBe(0);
  });
});
