import type { Actor } from '../domain/audit/audit.log';
import type { Role } from '../domain/channels/channel.entities';
import type { Clock } from '../domain/clock';
import type { DomainError } from '../domain/errors';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import type { Change, Transactional } from '../domain/unit-of-work';
import type { ChannelWebhookRepository, KeyedRow } from './channel-webhook.repository';
import { ChannelWebhookService } from './channel-webhook.service';
import { CHANNEL_EVENTS } from './event-catalog';
import type { AttemptView, DeliveryView } from './delivery-log.service';
import type { Payload } from './webhook-payloads';
import { WebhookEndpoint } from './webhook.entities';

/**
 * ChannelWebhookService's access and input rules on an in-memory repository (no database). The
 * outbox, delivery and the log's SQL are tested end to end (test/e2e/studio/webhooks.test.ts).
 */
class FakeChannelWebhookRepository implements ChannelWebhookRepository {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly deliveries: { id: string; endpointId: string }[] = [];
  readonly log: string[] = [];
  private added: WebhookEndpoint[] = [];

  async endpointsOfChannels(channelIds: readonly string[]) {
    return this.endpoints
      .filter((e) => channelIds.includes(e.channelId!) && !e.deletedAt)
      .map((e) => ({
        id: e.id,
        channelId: e.channelId!,
        url: e.url,
        events: e.events,
        enabled: e.enabled,
        disabledReason: e.disabledReason,
        disabledAt: e.disabledAt,
        failingSince: e.failingSince,
        ratePerSecond: e.ratePerSecond,
        secretSwitchAt: e.nextSecretFrom,
        createdAt: e.createdAt,
      }));
  }
  async endpoint(id: string) {
    return this.endpoints.find((e) => e.id === id && !e.deletedAt && e.channelId) ?? null;
  }
  async channel() {
    return { slug: 'demo-tv', name: 'Demo TV' };
  }
  async deliveriesOfEndpoints(endpointIds: readonly string[]): Promise<KeyedRow<DeliveryView>[]> {
    return this.endpoints
      .filter((e) => endpointIds.includes(e.id) && !e.deletedAt)
      .flatMap((e): KeyedRow<DeliveryView>[] => {
        const ds = this.deliveries.filter((d) => d.endpointId === e.id);
        return ds.length === 0
          ? [{ key: e.id, channelId: e.channelId!, item: null }]
          : ds.map((d) => ({ key: e.id, channelId: e.channelId!, item: { id: d.id } as DeliveryView }));
      });
  }
  async attemptsOfDeliveries(): Promise<KeyedRow<AttemptView>[]> {
    return [];
  }
  async deliveryEndpoint(deliveryId: string) {
    const d = this.deliveries.find((x) => x.id === deliveryId);
    const e = d && (await this.endpoint(d.endpointId));
    return e ? { endpointId: e.id, channelId: e.channelId!, enabled: e.enabled } : null;
  }
  add(endpoint: WebhookEndpoint) {
    this.added.push(endpoint);
  }
  async failPending(endpointId: string, reason: string) {
    this.log.push(`fail pending ${endpointId}: ${reason}`);
  }
  async rotateSecret(actor: Actor, endpointId: string, switchAt?: Date) {
    const endpoint = (await this.endpoint(endpointId))!;
    return { endpoint, secret: 'whsec_new', switchAt: switchAt ?? NOW };
  }
  async sendTo(endpointId: string, payload: Payload) {
    const deliveryId = `00000000-0000-4000-8000-00000000000${this.deliveries.length + 1}`;
    this.deliveries.push({ id: deliveryId, endpointId });
    this.log.push(`send ${payload.type} to ${endpointId}`);
    return { eventId: 'evt_1', deliveryId };
  }
  async delivery(id: string) {
    return { id, status: 'pending' } as DeliveryView;
  }
  async replay(actor: Actor, deliveryId: string) {
    this.log.push(`replay ${deliveryId} by ${actor.id}`);
    return { id: 'replayed' } as DeliveryView;
  }
  async recover() {
    return [];
  }
  audit(actor: Actor, action: string) {
    this.log.push(`audit ${actor.id} ${action}`);
  }
  async save() {
    this.endpoints.push(...this.added);
    this.added = [];
  }
  async changed(change: Change) {
    this.log.push(...(change.topics ?? []).map((t) => `announce ${t}`));
  }
}

const NOW = new Date('2030-06-01T12:00:00Z');
const clock: Clock = { now: () => new Date(NOW), today: () => '2030-06-01' };
const CHANNEL = '11111111-1111-4111-8111-111111111111';
const URL = 'https://hooks.example.com/svc';
// The test's own DNS: one public name, one internal one; any other name does not resolve.
const DNS: Record<string, string> = { 'hooks.example.com': '93.184.215.14', 'build.corp.example.com': '10.1.2.3' };
const dns = async (host: string) => {
  if (!DNS[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address: DNS[host], family: 4 }];
};
let repo: FakeChannelWebhookRepository;
let service: ChannelWebhookService;
beforeEach(() => {
  repo = new FakeChannelWebhookRepository();
  const storage: Transactional<ChannelWebhookRepository> = { run: (_tx, fn) => fn(repo), read: () => repo };
  service = new ChannelWebhookService(storage, clock, { allowInsecure: false, allowPrivate: false, resolve: dns });
});

const user = (role: Role | null): StudioPrincipal => ({
  kind: 'studio',
  sessionId: 's',
  userId: `user-${role}`,
  email: `${role ?? 'stranger'}@demo.tv`,
  roles: new Map(role ? [[CHANNEL, role]] : []),
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );
const make = async () => (await service.create(user('owner'), CHANNEL, { url: URL, events: ['ping'] })).endpoint;

describe('endpoint access per role', () => {
  it('owners and managers create one, shown with its secret once, audited and announced in the transaction', async () => {
    const { endpoint, secret } = await service.create(user('manager'), CHANNEL, { url: URL, events: ['broadcast.live', ' ping ', 'ping'] });
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ channelId: CHANNEL, url: URL, events: ['broadcast.live', 'ping'], enabled: true, createdAt: NOW });
    expect(repo.log).toEqual(['audit studio:manager@demo.tv channel-webhooks.create', 'announce studio']);
  });

  it('a viewer (and an editor) may read, not write', async () => {
    const e = await make();
    for (const role of ['viewer', 'editor'] as const) {
      expect((await service.endpointsOf(user(role), [CHANNEL])).get(CHANNEL)).toEqual([expect.objectContaining({ id: e.id })]);
      expect((await service.deliveriesOf(user(role), [e.id])).get(e.id)).toEqual([]);
      const forbidden = `forbidden: the ${role} role cannot manage webhooks on this channel`;
      expect(await refusal(service.create(user(role), CHANNEL, { url: URL, events: ['ping'] }))).toBe(forbidden);
      expect(await refusal(service.update(user(role), e.id, { enabled: false }))).toBe(forbidden);
      expect(await refusal(service.remove(user(role), e.id))).toBe(forbidden);
      expect(await refusal(service.rotateSecret(user(role), e.id))).toBe(forbidden);
      expect(await refusal(service.ping(user(role), e.id))).toBe(forbidden);
    }
    expect(e.enabled).toBe(true);
  });

  it('a stranger finds nothing: the channel, the endpoint and its deliveries are not found', async () => {
    const e = await make();
    const delivery = await service.ping(user('owner'), e.id);
    const stranger = user(null);
    expect(String((await service.endpointsOf(stranger, [CHANNEL])).get(CHANNEL))).toMatch(/channel not found/);
    expect(await refusal(service.create(stranger, CHANNEL, { url: URL, events: ['ping'] }))).toBe('not_found: channel not found');
    expect(await refusal(service.update(stranger, e.id, { enabled: false }))).toBe('not_found: webhook endpoint not found');
    expect(await refusal(service.remove(stranger, e.id))).toBe('not_found: webhook endpoint not found');
    expect(await refusal(service.ping(stranger, e.id))).toBe('not_found: webhook endpoint not found');
    expect(await refusal(service.redeliver(stranger, delivery.id))).toBe('not_found: webhook delivery not found');
    expect(String((await service.deliveriesOf(stranger, [e.id])).get(e.id))).toMatch(/webhook endpoint not found/);
    // the same words as an endpoint that does not exist
    expect(await refusal(service.update(user('owner'), '22222222-2222-4222-8222-222222222222', { enabled: false }))).toBe(
      'not_found: webhook endpoint not found',
    );
    expect(await refusal(service.update(user('owner'), 'not-a-uuid', { enabled: false }))).toBe('not_found: webhook endpoint not found');
  });

  it('a removed endpoint is disabled, its waiting deliveries fail, and it is found no more', async () => {
    const e = await make();
    await service.remove(user('owner'), e.id);
    expect(repo.endpoints[0]).toMatchObject({ enabled: false, deletedAt: NOW, disabledReason: 'deleted in the studio by owner@demo.tv' });
    expect(repo.log.slice(2)).toEqual([
      `fail pending ${e.id}: the endpoint was deleted`,
      'audit studio:owner@demo.tv channel-webhooks.delete',
      'announce studio',
    ]);
    expect(await refusal(service.ping(user('owner'), e.id))).toBe('not_found: webhook endpoint not found');
  });
});

describe('url and events', () => {
  it.each([
    ['not a url', 'the endpoint URL is not a valid absolute URL'],
    ['http://hooks.example.com/svc', 'the endpoint URL must use https'],
    ['https://user:pw@hooks.example.com/svc', 'the endpoint URL must not carry credentials'],
    ['https://127.0.0.1/svc', 'the endpoint URL points at a private, loopback or link-local address'],
    ['https://[::127.0.0.1]/svc', 'the endpoint URL points at a private, loopback or link-local address'],
    ['https://hooks.example.com:0/svc', 'the endpoint URL must not name port 0'],
    // A name that resolves to a private address and one that does not resolve read the same.
    [
      'https://build.corp.example.com/svc',
      "the endpoint URL's host must resolve to public addresses only (refused: the target host does not resolve to a public address)",
    ],
    [
      'https://no-such-name.example.com/svc',
      "the endpoint URL's host must resolve to public addresses only (refused: the target host does not resolve to a public address)",
    ],
  ])('refuses the url %s', async (url, message) => {
    expect(await refusal(service.create(user('owner'), CHANNEL, { url, events: ['ping'] }))).toBe(`invalid_url: ${message}`);
    const e = await make();
    expect(await refusal(service.update(user('owner'), e.id, { url }))).toBe(`invalid_url: ${message}`);
  });

  it('refuses no events and unknown events', async () => {
    const among = `events must be among ${CHANNEL_EVENTS.join(', ')}`;
    expect(await refusal(service.create(user('owner'), CHANNEL, { url: URL, events: [' '] }))).toBe(`invalid_events: ${among}`);
    expect(await refusal(service.create(user('owner'), CHANNEL, { url: URL, events: ['ping', 'fighter.updated'] }))).toBe(
      `invalid_events: ${among}; unknown: fighter.updated`,
    );
    expect(repo.endpoints).toHaveLength(0);
  });

  it('an update needs something to change; who may act is checked before the input', async () => {
    const e = await make();
    expect(await refusal(service.update(user('owner'), e.id, { url: null, events: null }))).toBe(
      'invalid_patch: nothing to change: give url, events or enabled',
    );
    expect(await refusal(service.update(user('viewer'), e.id, { url: 'not a url' }))).toBe('forbidden: the viewer role cannot manage webhooks on this channel');
    expect(await refusal(service.update(user(null), e.id, { events: [] }))).toBe('not_found: webhook endpoint not found');
    const off = await service.update(user('owner'), e.id, { enabled: false, events: ['broadcast.ended'] });
    expect(off).toMatchObject({ enabled: false, disabledReason: 'disabled in the studio by owner@demo.tv', events: ['broadcast.ended'] });
    expect(await refusal(service.ping(user('owner'), e.id))).toBe('invalid_state: the endpoint is disabled: enable it to send a test');
  });
});
