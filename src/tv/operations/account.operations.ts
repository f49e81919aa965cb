/** The channel key's own channel, and the TV API's description. */
import type { ChannelPrincipal } from '../../domain/channels/channel-key-authenticator';
import { presentBroadcast } from '../../domain/channels/broadcast.view';
import { defineOperation } from '../../http/operation';
import { preparedOnce } from '../../http/send-json';
import { openApiDocumentBody } from '../../lib/openapi.helpers';
import type { TvApiDeps } from '../tv-api.door';

export const getChannelAccount = defineOperation({
  method: 'GET',
  path: '/me',
  credential: 'channel-key',
  scope: 'read',
  limit: 'key',
  handler: async (deps: TvApiDeps, { principal: p }: { principal: ChannelPrincipal }) => {
    const { channel: c, broadcasts } = await deps.queries.me(p);
    return {
      json: {
        data: {
          channel: {
            slug: c.slug,
            name: c.name,
            plan: c.plan,
            billing_state: c.billing_state,
            approved: c.approved,
            live_slots: { used: c.live_used, total: c.live_total },
          },
          key: { name: p.keyName, prefix: p.keyPrefix, scopes: p.scopes },
          broadcasts: broadcasts.map((b) => presentBroadcast(b, deps.ingestServerUrl)),
        },
      },
    };
  },
  doc: {
    operationId: 'getChannelAccount',
    tag: 'Account',
    summary: "The key's channel",
    description:
      "The key's channel (plan, billing state, approval, live slots), the key itself, and the channel's " +
      'latest 100 broadcasts, newest `scheduled_at` first, without stream keys.',
    okDescription: 'The channel, key and broadcasts.',
    body: 'MeResponse',
  },
});

export const getTvOpenApiDocument = defineOperation({
  method: 'GET',
  path: '/openapi.json',
  credential: 'none',
  scope: null,
  limit: 'none',
  cors: 'any',
  handler: (deps: TvApiDeps) => ({ json: preparedOnce(deps.openApiJson) }),
  doc: {
    operationId: 'getTvOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.0.3 description of the TV API (this document).',
    okDescription: 'The OpenAPI document.',
    body: openApiDocumentBody(),
  },
});
