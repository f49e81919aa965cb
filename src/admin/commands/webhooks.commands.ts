import { PARTNER_EVENTS } from '../../webhooks/event-catalog';
import { DELIVERY_STATUSES, type WebhookEndpoint } from '../../webhooks/webhook.entities';
import { endpointState, ENDPOINT_STATES } from '../../webhooks/endpoint-health';
import { RATE_TEXT } from '../../webhooks/delivery-rate';
import { type Command, integer, lines, list, optional, required, table, time } from '../command';

const endpointJson = (e: WebhookEndpoint) => ({
  id: e.id,
  partner: e.partner?.slug ?? null,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  state: endpointState(e),
  rate_per_second: e.ratePerSecond,
  failing_since: e.failingSince,
  disabled_at: e.disabledAt,
  disabled_reason: e.disabledReason,
  secret_switch_at: e.nextSecretFrom,
  created_at: e.createdAt,
});

export const webhookCommands: Command[] = [
  {
    name: 'webhooks:register',
    summary: "register a partner's endpoint (prints the id and the secret once)",
    options: {
      partner: { type: 'string', arg: 'S', required: true, help: "the partner's slug" },
      url: { type: 'string', arg: 'U', required: true, help: 'the https URL deliveries are POSTed to' },
      events: { type: 'string', arg: 'e1,e2', required: true, list: true, values: PARTNER_EVENTS, help: 'the events it receives' },
    },
    examples: ['--partner stats-co --url https://hooks.stats.example/federation --events result.verified,ranking.published'],
    async run({ c, actor }, { values }) {
      const { endpoint, secret } = await c.services.webhooks.register(actor, {
        partnerSlug: required(values, 'partner'),
        url: required(values, 'url'),
        events: list(required(values, 'events')),
      });
      const out = { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret };
      return { json: out, text: `${lines(out)}\nThe secret is shown once: give it to the partner now.` };
    },
  },
  {
    name: 'webhooks:rotate-secret',
    summary: 'issue a new secret now; the old one signs until the switch (default 24 h)',
    args: [{ name: 'id', help: "the endpoint's id (webhooks:list)" }],
    options: { 'switch-at': { type: 'string', arg: 'TIME', default: 'in 24 hours', help: 'when deliveries start being signed with the new secret, ISO 8601' } },
    examples: ['3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', `${'3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'} --switch-at 2026-12-01T09:00:00Z`],
    async run({ c, actor }, { values, positionals }) {
      const r = await c.services.webhooks.rotateSecret(actor, positionals[0], time(values, 'switch-at'));
      const out = { id: r.endpoint.id, secret: r.secret, switch_at: r.switchAt };
      return { json: out, text: `${lines(out)}\nThe new secret is shown once; deliveries are signed with it from switch_at.` };
    },
  },
  {
    name: 'webhooks:disable',
    summary: 'stop delivering to an endpoint',
    args: [{ name: 'id', help: "the endpoint's id (webhooks:list)" }],
    options: { reason: { type: 'string', arg: 'R', help: 'why, kept on the endpoint and shown by webhooks:list' } },
    examples: [`${'3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'} --reason "partner asked"`],
    async run({ c, actor }, { values, positionals }) {
      const e = await c.services.webhooks.setEnabled(actor, positionals[0], false, optional(values, 'reason') ?? null);
      return { json: { endpoint: endpointJson(e) }, text: lines(endpointJson(e)) };
    },
  },
  {
    name: 'webhooks:enable',
    summary: 're-enable an endpoint (pending deliveries resume)',
    args: [{ name: 'id', help: "the endpoint's id (webhooks:list)" }],
    examples: ['3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'],
    async run({ c, actor }, { positionals }) {
      const e = await c.services.webhooks.setEnabled(actor, positionals[0], true, null);
      return { json: { endpoint: endpointJson(e) }, text: lines(endpointJson(e)) };
    },
  },
  {
    name: 'webhooks:set-rate',
    summary: 'limit the deliveries per second to an endpoint, over every worker (none: no limit, the default)',
    args: [{ name: 'id', help: "the endpoint's id (webhooks:list)" }],
    options: {
      'per-second': {
        type: 'string',
        arg: 'N',
        required: true,
        help: `${RATE_TEXT} (up to max(1, N) at once after a quiet second; held-back deliveries wait, spending no attempt), or none to remove the limit`,
      },
    },
    examples: [
      '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d --per-second 5',
      '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d --per-second 0.5',
      '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d --per-second none',
    ],
    async run({ c, actor }, { values, positionals }) {
      const text = required(values, 'per-second');
      // Anything but a plain decimal (or none) is refused by the domain's rule with the same message.
      const rate = text === 'none' ? null : /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
      const e = await c.services.webhooks.setRate(actor, positionals[0], rate);
      return { json: { endpoint: endpointJson(e) }, text: lines(endpointJson(e)) };
    },
  },
  {
    name: 'webhooks:list',
    summary: 'list partner endpoints with their delivery rate and health (healthy, failing since, disabled and why)',
    options: {
      partner: { type: 'string', arg: 'S', help: "only this partner's endpoints" },
      state: { type: 'string', arg: 'S', values: ENDPOINT_STATES, help: 'only endpoints in this state' },
    },
    examples: ['', '--partner stats-co --json', '--state failing'],
    async run({ c }, { values }) {
      const state = optional(values, 'state');
      const endpoints = (await c.services.webhooks.list({ partnerSlug: optional(values, 'partner') }))
        .map(endpointJson)
        .filter((e) => !state || e.state === state);
      return {
        json: { endpoints },
        text: table(endpoints, ['id', 'partner', 'url', 'events', 'rate_per_second', 'state', 'failing_since', 'disabled_reason']),
      };
    },
  },
  {
    name: 'deliveries:list',
    summary: 'the delivery log, newest first',
    options: {
      endpoint: { type: 'string', arg: 'ID', help: "only this endpoint's deliveries" },
      status: { type: 'string', arg: 'S', values: DELIVERY_STATUSES, help: 'only deliveries in this state' },
      limit: { type: 'string', arg: 'N', default: '100', help: 'how many, at most 1000' },
      attempts: { type: 'boolean', help: 'also list each attempt: time, duration, status code or error' },
    },
    examples: ['--status failed', `--endpoint ${'3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'} --attempts --limit 20`],
    async run({ c }, { values }) {
      const deliveries = await c.services.deliveries.list({
        endpointId: optional(values, 'endpoint'),
        status: optional(values, 'status'),
        limit: integer(values, 'limit'),
      });
      const attempts = values.attempts ? await c.services.deliveries.attempts(deliveries.map((d) => d.id)) : [];
      const json = { deliveries: deliveries.map((d) => ({ ...d, attempts: values.attempts ? attempts.filter((a) => a.delivery_id === d.id) : undefined })) };
      const text =
        table(deliveries as unknown as Record<string, unknown>[], [
          'id',
          'event',
          'event_id',
          'status',
          'attempt',
          'last_status_code',
          'last_error',
          'replay_of',
          'created_at',
        ]) +
        (values.attempts
          ? `\n\n${table(attempts as unknown as Record<string, unknown>[], ['delivery_id', 'attempt_no', 'started_at', 'duration_ms', 'status_code', 'error'])}`
          : '');
      return { json, text };
    },
  },
  {
    name: 'deliveries:replay',
    summary: 'send a delivery again (new id, X-SVC-Replay-Of, same payload id)',
    args: [{ name: 'id', help: "the delivery's id (deliveries:list)" }],
    examples: ['3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'],
    async run({ c, actor }, { positionals }) {
      const d = await c.services.deliveries.replay(actor, positionals[0]);
      return { json: { delivery: d }, text: lines({ id: d.id, replay_of: d.replay_of, event: d.event, status: d.status }) };
    },
  },
  {
    name: 'deliveries:recover',
    summary: "re-send an endpoint's failed deliveries between two times",
    options: {
      endpoint: { type: 'string', arg: 'ID', required: true, help: "the endpoint's id" },
      since: { type: 'string', arg: 'TIME', required: true, help: 'failed deliveries created from this time, ISO 8601' },
      until: { type: 'string', arg: 'TIME', default: 'now', help: 'up to this time, ISO 8601' },
    },
    examples: [`--endpoint ${'3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'} --since 2026-11-20T00:00:00Z --until 2026-11-21T00:00:00Z`],
    async run({ c, actor }, { values }) {
      required(values, 'since');
      const created = await c.services.deliveries.recover(actor, {
        endpointId: required(values, 'endpoint'),
        since: time(values, 'since')!,
        until: time(values, 'until'),
      });
      return { json: { recovered: created.length, deliveries: created }, text: `re-sending ${created.length} failed deliveries` };
    },
  },
];
