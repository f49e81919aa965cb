import type { Container } from '../../src/container';
import type { Actor } from '../../src/domain/audit/audit.log';
import { operator } from '../../src/domain/channels/channel-access';

const actor: Actor = { id: 'test' };
const testOperator = operator(actor);

export const CK = {
  rw: 'ck_test_rw',
  ro: 'ck_test_ro',
  other: 'ck_test_other',
  free: 'ck_test_free',
  pastDue: 'ck_test_pastdue',
  unapproved: 'ck_test_unapproved',
};

export interface TvWorld {
  channelIds: Record<'pro' | 'other' | 'free' | 'pastDue' | 'unapproved', string>;
}

/**
 * Channels for the TV tests, through the domain services: a pro channel (3 live slots) with a
 * read-write and a read-only key, another broadcaster channel, a free one, one past due, and
 * one not approved.
 */
export async function buildTvWorld(c: Container): Promise<TvWorld> {
  const s = c.services.channels;
  const mk = async (slug: string, name: string, plan: string, billing: string, approve = true) => {
    const ch = await s.create(testOperator, { slug, name, plan, billing });
    if (approve) await s.approve(testOperator, slug);
    return ch.id;
  };
  const ids = {
    pro: await mk('fight-tv', 'Fight TV', 'pro', 'active'),
    other: await mk('rival-tv', 'Rival TV', 'broadcaster', 'trialing'),
    free: await mk('garage-tv', 'Garage TV', 'free', 'active'),
    pastDue: await mk('late-tv', 'Late TV', 'pro', 'past_due'),
    unapproved: await mk('new-tv', 'New TV', 'pro', 'active', false),
  };
  await s.createKey(testOperator, { channelId: ids.pro, name: 'automation', scopes: ['read', 'broadcasts:write'], fixedToken: CK.rw });
  await s.createKey(testOperator, { channelId: ids.pro, name: 'dashboard', scopes: ['read'], fixedToken: CK.ro });
  await s.createKey(testOperator, { channelId: ids.other, name: 'automation', scopes: ['read', 'broadcasts:write'], fixedToken: CK.other });
  await s.createKey(testOperator, { channelId: ids.free, name: 'automation', scopes: ['read', 'broadcasts:write'], fixedToken: CK.free });
  await s.createKey(testOperator, { channelId: ids.pastDue, name: 'automation', scopes: ['read', 'broadcasts:write'], fixedToken: CK.pastDue });
  await s.createKey(testOperator, { channelId: ids.unapproved, name: 'automation', scopes: ['read', 'broadcasts:write'], fixedToken: CK.unapproved });
  return { channelIds: ids };
}
