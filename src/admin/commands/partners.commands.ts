import { PARTNER_SCOPES } from '../../domain/partners/partner.entities';
import { type Command, integer, lines, list, required, table, time } from '../command';

const partnerJson = (p: { slug: string; name: string; status: string }) => ({ slug: p.slug, name: p.name, status: p.status });

export const partnerCommands: Command[] = [
  {
    name: 'partners:create',
    summary: 'create a partner account',
    options: {
      slug: { type: 'string', arg: 'S', required: true, help: "the partner's identifier (lower case, digits, dashes)" },
      name: { type: 'string', arg: 'N', required: true, help: 'its display name' },
    },
    examples: ['--slug stats-co --name "Stats Co"'],
    async run({ c, actor }, { values }) {
      const p = await c.services.partners.create(actor, { slug: required(values, 'slug'), name: required(values, 'name') });
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:suspend',
    summary: 'suspend a partner: its keys stop working, its webhooks pause',
    args: [{ name: 'slug', help: "the partner's slug" }],
    examples: ['stats-co'],
    async run({ c, actor }, { positionals }) {
      const p = await c.services.partners.setStatus(actor, positionals[0], 'suspended');
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:reinstate',
    summary: 'reinstate a partner: keys work again, paused webhooks resume',
    args: [{ name: 'slug', help: "the partner's slug" }],
    examples: ['stats-co'],
    async run({ c, actor }, { positionals }) {
      const p = await c.services.partners.setStatus(actor, positionals[0], 'active');
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:list',
    summary: 'list partner accounts',
    examples: ['', '--json'],
    async run({ c }) {
      const partners = (await c.services.partners.list()).map(partnerJson);
      return { json: { partners }, text: table(partners, ['slug', 'name', 'status']) };
    },
  },
  {
    name: 'keys:issue',
    summary: 'issue a partner API key (printed once)',
    options: {
      partner: { type: 'string', arg: 'S', required: true, help: "the partner's slug" },
      name: { type: 'string', arg: 'N', required: true, help: 'a name for the key (shown by /me and keys:list)' },
      scopes: { type: 'string', arg: 'a,b', required: true, list: true, values: PARTNER_SCOPES, help: 'what the key may read' },
      limit: { type: 'string', arg: 'N', default: '60', help: 'requests per minute' },
      expires: { type: 'string', arg: 'DATE', help: 'expiry, an ISO 8601 date or time, in the future (none: never expires)' },
    },
    examples: [
      '--partner stats-co --name prod --scopes rankings.read,fighters.read',
      '--partner stats-co --name trial --scopes rankings.read --limit 30 --expires 2027-06-30',
    ],
    async run({ c, actor }, { values }) {
      const { key, token } = await c.services.partners.issueKey(actor, {
        partnerSlug: required(values, 'partner'),
        name: required(values, 'name'),
        scopes: list(required(values, 'scopes')),
        rateLimitPerMinute: integer(values, 'limit'),
        expiresAt: time(values, 'expires') ?? null,
      });
      const out = { id: key.id, key: token, prefix: key.prefix, scopes: key.scopes, rate_limit_per_minute: key.rateLimitPerMinute, expires_at: key.expiresAt };
      return { json: out, text: `${lines(out)}\nThe key is shown once: store it now.` };
    },
  },
  {
    name: 'keys:revoke',
    summary: 'revoke a partner API key',
    args: [{ name: 'key_id', help: "the key's id (keys:list), not the key itself" }],
    examples: ['0e5c7a52-8f0a-4c1e-9a57-6f7d1d2b9c11'],
    async run({ c, actor }, { positionals }) {
      const key = await c.services.partners.revokeKey(actor, positionals[0]);
      return { json: { id: key.id, revoked_at: key.revokedAt }, text: lines({ id: key.id, revoked_at: key.revokedAt }) };
    },
  },
  {
    name: 'keys:list',
    summary: "list a partner's keys (prefixes only)",
    options: { partner: { type: 'string', arg: 'S', required: true, help: "the partner's slug" } },
    examples: ['--partner stats-co'],
    async run({ c }, { values }) {
      const keys = (await c.services.partners.listKeys(required(values, 'partner'))).map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        scopes: k.scopes,
        rate_limit_per_minute: k.rateLimitPerMinute,
        expires_at: k.expiresAt,
        revoked_at: k.revokedAt,
        request_count: k.requestCount,
      }));
      return { json: { keys }, text: table(keys, ['id', 'name', 'prefix', 'scopes', 'rate_limit_per_minute', 'expires_at', 'revoked_at', 'request_count']) };
    },
  },
];
