import { BILLING_STATES, CHANNEL_SCOPES, type Channel, PLANS, ROLES } from '../../domain/channels/channel.entities';
import { operator } from '../../domain/channels/channel-access';
import { type Command, lines, list, optional, required, table } from '../command';

const channelJson = (c: Channel) => ({ slug: c.slug, name: c.name, plan: c.plan, billing_state: c.billingState, approved: c.approvedAt !== null });

export const channelCommands: Command[] = [
  {
    name: 'channels:create',
    summary: 'create a TV channel (listed publicly once approved)',
    options: {
      slug: { type: 'string', arg: 'S', required: true, help: "the channel's identifier in URLs" },
      name: { type: 'string', arg: 'N', required: true, help: 'its display name' },
      plan: { type: 'string', arg: 'P', values: PLANS, default: 'free', help: 'live slots: free 1, pro 3, broadcaster 10; ingest needs pro or broadcaster' },
      billing: { type: 'string', arg: 'B', values: BILLING_STATES, default: 'active', help: 'billing state; going live needs active or trialing' },
    },
    examples: ['--slug fight-tv --name "Fight TV" --plan pro'],
    async run({ c, actor }, { values }) {
      const ch = await c.services.channels.create(operator(actor), {
        slug: required(values, 'slug'),
        name: required(values, 'name'),
        plan: optional(values, 'plan'),
        billing: optional(values, 'billing'),
      });
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:approve',
    summary: 'approve a channel: it is listed publicly',
    args: [{ name: 'slug', help: "the channel's slug" }],
    examples: ['fight-tv'],
    async run({ c, actor }, { positionals }) {
      const ch = await c.services.channels.approve(operator(actor), positionals[0]);
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:set-plan',
    summary: "change a channel's plan (live slots: free 1, pro 3, broadcaster 10)",
    args: [{ name: 'slug', help: "the channel's slug" }],
    options: { plan: { type: 'string', arg: 'P', required: true, values: PLANS, help: 'the new plan' } },
    examples: ['fight-tv --plan broadcaster'],
    async run({ c, actor }, { values, positionals }) {
      const ch = await c.services.channels.setPlan(operator(actor), positionals[0], required(values, 'plan'));
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:set-billing',
    summary: "change a channel's billing state",
    args: [{ name: 'slug', help: "the channel's slug" }],
    options: { billing: { type: 'string', arg: 'B', required: true, values: BILLING_STATES, help: 'the new state; going live needs active or trialing' } },
    examples: ['fight-tv --billing past_due'],
    async run({ c, actor }, { values, positionals }) {
      const ch = await c.services.channels.setBilling(operator(actor), positionals[0], required(values, 'billing'));
      return { json: { channel: channelJson(ch) }, text: lines(channelJson(ch)) };
    },
  },
  {
    name: 'channels:list',
    summary: 'list channels',
    examples: ['', '--json'],
    async run({ c }) {
      const channels = (await c.services.channels.list()).map(channelJson);
      return { json: { channels }, text: table(channels, ['slug', 'name', 'plan', 'billing_state', 'approved']) };
    },
  },
  {
    name: 'channel-keys:create',
    summary: 'create a channel API key (printed once; owners and managers do this in the studio)',
    options: {
      channel: { type: 'string', arg: 'S', required: true, help: "the channel's slug" },
      name: { type: 'string', arg: 'N', required: true, help: 'a name for the key' },
      scopes: { type: 'string', arg: 'a,b', required: true, list: true, values: CHANNEL_SCOPES, help: 'what the key may do on the TV API' },
    },
    examples: ['--channel fight-tv --name automation --scopes read,broadcasts:write'],
    async run({ c, actor }, { values }) {
      const channel = await c.services.channels.bySlug(required(values, 'channel'));
      const { key, token } = await c.services.channels.createKey(operator(actor), {
        channelId: channel.id,
        name: required(values, 'name'),
        scopes: list(required(values, 'scopes')),
      });
      const out = { id: key.id, key: token, prefix: key.prefix, scopes: key.scopes };
      return { json: out, text: `${lines(out)}\nThe key is shown once: store it now.` };
    },
  },
  {
    name: 'studio-users:create',
    summary: 'create a studio user (the password, 10 to 200 characters, is hashed with scrypt)',
    options: {
      email: { type: 'string', arg: 'E', required: true, help: 'the sign-in email' },
      password: { type: 'secret', confirm: true, help: 'password' },
    },
    examples: ['--email producer@fight-tv.example   # asks for the password twice', '--email producer@fight-tv.example --password-stdin < password.txt'],
    async run({ c, actor }, { values }) {
      const u = await c.services.studioUsers.create(operator(actor), { email: required(values, 'email'), password: String(values.password ?? '') });
      return { json: { user: { id: u.id, email: u.email } }, text: lines({ id: u.id, email: u.email }) };
    },
  },
  {
    name: 'studio-users:grant',
    summary: 'give a studio user a role on a channel (owner and manager: keys, webhooks, broadcasts; editor: broadcasts; viewer: reads)',
    options: {
      email: { type: 'string', arg: 'E', required: true, help: "the studio user's email" },
      channel: { type: 'string', arg: 'S', required: true, help: "the channel's slug" },
      role: { type: 'string', arg: 'R', required: true, values: ROLES, help: 'the role on that channel' },
    },
    examples: ['--email producer@fight-tv.example --channel fight-tv --role editor'],
    async run({ c, actor }, { values }) {
      const m = await c.services.studioUsers.grant(operator(actor), {
        email: required(values, 'email'),
        channelSlug: required(values, 'channel'),
        role: required(values, 'role'),
      });
      const out = { email: required(values, 'email'), channel: required(values, 'channel'), role: m.role };
      return { json: out, text: lines(out) };
    },
  },
];
