import type { WebhookEndpoint } from '../../webhooks/webhook.entities';
import { type Command, integer, lines, list, optional, required, table, time } from '../command';

const endpointJson = (e: WebhookEndpoint) => ({
  id: e.id, partner: e.partner?.slug ?? null, url: e.url, events: e.events, enabled: e.enabled,
  disabled_reason: e.disabledReason, secret_switch_at: e.nextSecretFrom, created_at: e.createdAt,
});

export const webhookCommands: Command[] = [
  {
    name: 'webhooks:register', summary: "register a partner's endpoint (prints the id and the secret once)", usage: '--partner S --url U --events e1,e2',
    options: { partner: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const { endpoint, secret } = await c.services.webhooks.register(actor, {
        partnerSlug: required(values, 'partner'), url: required(values, 'url'), events: list(required(values, 'events')),
      });
      const out = { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret };
      return { json: out, text: `${lines(out)}\nThe secret is shown once: give it to the partner now.` };
    },
  },
  {
    name: 'webhooks:rotate-secret', summary: 'issue a new secret now; the old one signs until the switch (default 24 h)', usage: 'ID [--switch-at TIME]',
    args: ['id'], options: { 'switch-at': { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const r = await c.services.webhooks.rotateSecret(actor, positionals[0], time(values, 'switch-at'));
      const out = { id: r.endpoint.id, secret: r.secret, switch_at: r.switchAt };
      return { json: out, text: `${lines(out)}\nThe new secret is shown once; deliveries are signed with it from switch_at.` };
    },
  },
  {
    name: 'webhooks:disable', summary: 'stop delivering to an endpoint', usage: 'ID [--reason R]', args: ['id'], options: { reason: { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const e = await c.services.webhooks.setEnabled(actor, positionals[0], false, optional(values, 'reason') ?? null);
      return { json: { endpoint: endpointJson(e) }, text: lines(endpointJson(e)) };
    },
  },
  {
    name: 'webhooks:enable', summary: 're-enable an endpoint (pending deliveries resume)', usage: 'ID', args: ['id'],
    async run({ c, actor }, { positionals }) {
      const e = await c.services.webhooks.setEnabled(actor, positionals[0], true, null);
      return { json: { endpoint: endpointJson(e) }, text: lines(endpointJson(e)) };
    },
  },
  {
    name: 'webhooks:list', summary: 'list partner endpoints', usage: '[--partner S]', options: { partner: { type: 'string' } },
    async run({ c }, { values }) {
      const endpoints = (await c.services.webhooks.list({ partnerSlug: optional(values, 'partner') })).map(endpointJson);
      return { json: { endpoints }, text: table(endpoints, ['id', 'partner', 'url', 'events', 'enabled', 'disabled_reason']) };
    },
  },
  {
    name: 'deliveries:list', summary: 'the delivery log', usage: '[--endpoint ID] [--status pending|sending|succeeded|failed] [--limit N] [--attempts]',
    options: { endpoint: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' }, attempts: { type: 'boolean' } },
    async run({ c }, { values }) {
      const deliveries = await c.services.deliveries.list({ endpointId: optional(values, 'endpoint'), status: optional(values, 'status'), limit: integer(values, 'limit') });
      const attempts = values.attempts ? await c.services.deliveries.attempts(deliveries.map((d) => d.id)) : [];
      const json = { deliveries: deliveries.map((d) => ({ ...d, attempts: values.attempts ? attempts.filter((a) => a.delivery_id === d.id) : undefined })) };
      const text = table(deliveries as unknown as Record<string, unknown>[], ['id', 'event', 'event_id', 'status', 'attempt', 'last_status_code', 'last_error', 'replay_of', 'created_at'])
        + (values.attempts ? `\n\n${table(attempts as unknown as Record<string, unknown>[], ['delivery_id', 'attempt_no', 'started_at', 'duration_ms', 'status_code', 'error'])}` : '');
      return { json, text };
    },
  },
  {
    name: 'deliveries:replay', summary: 'send a delivery again (new id, X-SVC-Replay-Of, same payload id)', usage: 'ID', args: ['id'],
    async run({ c, actor }, { positionals }) {
      const d = await c.services.deliveries.replay(actor, positionals[0]);
      return { json: { delivery: d }, text: lines({ id: d.id, replay_of: d.replay_of, event: d.event, status: d.status }) };
    },
  },
  {
    name: 'deliveries:recover', summary: "re-send an endpoint's failed deliveries between two times", usage: '--endpoint ID --since TIME [--until TIME]',
    options: { endpoint: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' } },
    async run({ c, actor }, { values }) {
      required(values, 'since');
      const created = await c.services.deliveries.recover(actor, { endpointId: required(values, 'endpoint'), since: time(values, 'since')!, until: time(values, 'until') });
      return { json: { recovered: created.length, deliveries: created }, text: `re-sending ${created.length} failed deliveries` };
    },
  },
];
