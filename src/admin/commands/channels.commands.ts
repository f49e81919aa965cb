import type { Channel } from '../../domain/channels/channel.entities';
import { operator } from '../../domain/channels/channel-access';
import { type Command, lines, list, optional, required, table } from '../command';

const channelJson = (c: Channel) => ({ slug: c.slug, name: c.name, plan: c.plan, billing_state: c.billingState, approved: c.approvedAt !== null });

export const channelCommands: Command[] = [
  {
    name: 'channels:create', summary: 'create a TV channel', usage: '--slug S --name N [--plan free|pro|broadcaster] [--billing active|trialing|past_due|canceled]',
    options: { slug: { type: 'string' }, name: { type: 'string' }, plan: { type: 'string' }, billing: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const ch = await c.services.channels.create(operator(actor), { slug: required(values, 'slug'), name: required(values, 'name'), plan: optional(values, 'plan'), billing: optional(values, 'billing') });
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:approve', summary: 'approve a channel: it is listed publicly', usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const ch = await c.services.channels.approve(operator(actor), positionals[0]);
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:set-plan', summary: "change a channel's plan (live slots: free 1, pro 3, broadcaster 10)", usage: 'SLUG --plan P', args: ['slug'], options: { plan: { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const ch = await c.services.channels.setPlan(operator(actor), positionals[0], required(values, 'plan'));
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:set-billing', summary: "change a channel's billing state", usage: 'SLUG --billing B', args: ['slug'], options: { billing: { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const ch = await c.services.channels.setBilling(operator(actor), positionals[0], required(values, 'billing'));
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:list', summary: 'list channels', usage: '',
    async run({ c }) {
      const channels = (await c.services.channels.list()).map(channelJson);
      return { json: { channels }, text: table(channels, ['slug', 'name', 'plan', 'billing_state', 'approved']) };
    },
  },
  {
    name: 'channel-keys:create', summary: 'create a channel API key (printed once; owners and managers do this in the studio)', usage: '--channel S --name N --scopes read,broadcasts:write',
    options: { channel: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const channel = await c.services.channels.bySlug(required(values, 'channel'));
      const { key, token } = await c.services.channels.createKey(operator(actor), { channelId: channel.id, name: required(values, 'name'), scopes: list(required(values, 'scopes')) });
      const out = { id: key.id, key: token, prefix: key.prefix, scopes: key.scopes };
      return { json: out, text: `${lines(out)}\nThe key is shown once: store it now.` };
    },
  },
  {
    name: 'studio-users:create', summary: 'create a studio user (password hashed with scrypt)', usage: '--email E --password P',
    options: { email: { type: 'string' }, password: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const u = await c.services.studioUsers.create(operator(actor), { email: required(values, 'email'), password: required(values, 'password') });
      return { json: { user: { id: u.id, email: u.email } }, text: lines({ id: u.id, email: u.email }) };
    },
  },
  {
    name: 'studio-users:grant', summary: 'give a studio user a role on a channel (owner, manager, editor, viewer)', usage: '--email E --channel S --role R',
    options: { email: { type: 'string' }, channel: { type: 'string' }, role: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const m = await c.services.studioUsers.grant(operator(actor), { email: required(values, 'email'), channelSlug: required(values, 'channel'), role: required(values, 'role') });
      const out = { email: required(values, 'email'), channel: required(values, 'channel'), role: m.role };
      return { json: out, text: lines(out) };
    },
  },
];
