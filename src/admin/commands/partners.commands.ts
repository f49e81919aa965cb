import { type Command, integer, lines, list, required, table, time } from '../command';

const partnerJson = (p: { slug: string; name: string; status: string }) => ({ slug: p.slug, name: p.name, status: p.status });

export const partnerCommands: Command[] = [
  {
    name: 'partners:create', summary: 'create a partner account', usage: '--slug S --name N',
    options: { slug: { type: 'string' }, name: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const p = await c.services.partners.create(actor, { slug: required(values, 'slug'), name: required(values, 'name') });
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:suspend', summary: "suspend a partner: its keys stop working, its webhooks pause", usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const p = await c.services.partners.setStatus(actor, positionals[0], 'suspended');
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:reinstate', summary: 'reinstate a partner: keys work again, paused webhooks resume', usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const p = await c.services.partners.setStatus(actor, positionals[0], 'active');
      return { json: { partner: partnerJson(p) }, text: lines(partnerJson(p)) };
    },
  },
  {
    name: 'partners:list', summary: 'list partner accounts', usage: '',
    async run({ c }) {
      const partners = (await c.services.partners.list()).map(partnerJson);
      return { json: { partners }, text: table(partners, ['slug', 'name', 'status']) };
    },
  },
  {
    name: 'keys:issue', summary: 'issue a partner API key (printed once)', usage: '--partner S --name N --scopes a,b [--limit 60] [--expires DATE]',
    options: { partner: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, limit: { type: 'string' }, expires: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const { key, token } = await c.services.partners.issueKey(actor, {
        partnerSlug: required(values, 'partner'), name: required(values, 'name'), scopes: list(required(values, 'scopes')),
        rateLimitPerMinute: integer(values, 'limit'), expiresAt: time(values, 'expires') ?? null,
      });
      const out = { id: key.id, key: token, prefix: key.prefix, scopes: key.scopes, rate_limit_per_minute: key.rateLimitPerMinute, expires_at: key.expiresAt };
      return { json: out, text: `${lines(out)}\nThe key is shown once: store it now.` };
    },
  },
  {
    name: 'keys:revoke', summary: 'revoke a partner API key', usage: 'KEY_ID', args: ['key_id'],
    async run({ c, actor }, { positionals }) {
      const key = await c.services.partners.revokeKey(actor, positionals[0]);
      return { json: { id: key.id, revoked_at: key.revokedAt }, text: lines({ id: key.id, revoked_at: key.revokedAt }) };
    },
  },
  {
    name: 'keys:list', summary: "list a partner's keys (prefixes only)", usage: '--partner S', options: { partner: { type: 'string' } },
    async run({ c }, { values }) {
      const keys = (await c.services.partners.listKeys(required(values, 'partner'))).map((k) => ({
        id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, rate_limit_per_minute: k.rateLimitPerMinute,
        expires_at: k.expiresAt, revoked_at: k.revokedAt, request_count: k.requestCount,
      }));
      return { json: { keys }, text: table(keys, ['id', 'name', 'prefix', 'scopes', 'rate_limit_per_minute', 'expires_at', 'revoked_at', 'request_count']) };
    },
  },
];
