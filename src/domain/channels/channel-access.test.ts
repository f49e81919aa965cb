import type { StudioPrincipal } from '../studio/studio-auth.service';
import { accessError, auditActor, operator, type Permission, type Principal } from './channel-access';
import type { ChannelPrincipal } from './channel-key-authenticator';
import type { Role } from './channel.entities';

const HERE = '11111111-1111-4111-8111-111111111111';
const ELSEWHERE = '22222222-2222-4222-8222-222222222222';
const PERMISSIONS: Permission[] = ['read', 'broadcasts', 'keys', 'webhooks'];

const key = (scopes: string[]): ChannelPrincipal => ({ kind: 'channel', keyId: 'k-1', keyName: 'automation', keyPrefix: 'ck_test', channelId: HERE, scopes });
const user = (role: Role): StudioPrincipal => ({
  kind: 'studio',
  sessionId: 's-1',
  userId: 'u-1',
  email: `${role}@example.com`,
  roles: new Map([[HERE, role]]),
});

/** The outcome of each permission on `channelId`: ok, or the refusal's code. */
const table = (p: Principal, channelId = HERE) => Object.fromEntries(PERMISSIONS.map((perm) => [perm, accessError(p, channelId, perm)?.code ?? 'ok']));

describe('channel access, one rule for every door', () => {
  it('studio roles (docs/decisions.md#studio-roles): owners and managers everything, editors broadcasts, viewers read', () => {
    expect(table(user('owner'))).toEqual({ read: 'ok', broadcasts: 'ok', keys: 'ok', webhooks: 'ok' });
    expect(table(user('manager'))).toEqual({ read: 'ok', broadcasts: 'ok', keys: 'ok', webhooks: 'ok' });
    expect(table(user('editor'))).toEqual({ read: 'ok', broadcasts: 'ok', keys: 'forbidden', webhooks: 'forbidden' });
    expect(table(user('viewer'))).toEqual({ read: 'ok', broadcasts: 'forbidden', keys: 'forbidden', webhooks: 'forbidden' });
    expect(accessError(user('viewer'), HERE, 'keys')?.message).toBe('the viewer role cannot manage keys on this channel');
  });

  it("channel keys: their scopes on their own channel; keys and webhooks are the studio's", () => {
    expect(table(key(['read', 'broadcasts:write']))).toEqual({ read: 'ok', broadcasts: 'ok', keys: 'forbidden', webhooks: 'forbidden' });
    expect(table(key(['read']))).toEqual({ read: 'ok', broadcasts: 'insufficient_scope', keys: 'forbidden', webhooks: 'forbidden' });
    expect(table(key(['broadcasts:write']))).toEqual({ read: 'insufficient_scope', broadcasts: 'ok', keys: 'forbidden', webhooks: 'forbidden' });
  });

  it('a channel the principal has nothing to do with is not found, named as asked', () => {
    for (const p of [key(['read', 'broadcasts:write']), user('owner')]) {
      expect(table(p, ELSEWHERE)).toEqual({ read: 'not_found', broadcasts: 'not_found', keys: 'not_found', webhooks: 'not_found' });
      expect(accessError(p, ELSEWHERE, 'read')?.message).toBe('channel not found');
      expect(accessError(p, ELSEWHERE, 'broadcasts', 'broadcast')?.message).toBe('broadcast not found');
    }
  });

  it('the operator may do anything, anywhere', () => {
    expect(table(operator({ id: 'operator:alice' }), ELSEWHERE)).toEqual({ read: 'ok', broadcasts: 'ok', keys: 'ok', webhooks: 'ok' });
  });

  it("audits each principal as before: studio:<email>, the operator's actor, and a key by its id", () => {
    expect(auditActor(user('manager'))).toEqual({ id: 'studio:manager@example.com' });
    expect(auditActor(operator({ id: 'operator:alice' }))).toEqual({ id: 'operator:alice' });
    expect(auditActor(operator({ id: 'demo-seed' }))).toEqual({ id: 'demo-seed' });
    expect(auditActor(key(['read']))).toEqual({ id: 'channel-key:k-1' });
  });
});
