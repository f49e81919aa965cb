/**
 * The studio's mutations that take an `Idempotency-Key` HTTP header (docs/decisions.md#idempotency),
 * as the TV API's POSTs do: the list the middleware applies the rule to (graphql.middleware.ts)
 * and the sentence the schema's descriptions derive from it (schema.ts), in one place.
 */
export const IDEMPOTENT_MUTATIONS: ReadonlySet<string> = new Set(['createBroadcast', 'createChannelApiKey', 'createWebhookEndpoint']);

/** What the header does, said once for the Mutation type and each mutation that takes it. */
const IDEMPOTENCY_RULE =
  'an `Idempotency-Key` HTTP header (1 to 255 visible ASCII characters): a repeat within 24 hours answers the first answer with ' +
  '`Idempotent-Replayed: true`, the same key with other variables is `idempotency_key_reused`';

/** The sentence a mutation's description ends with when it takes the header. */
export const IDEMPOTENT_MUTATION_SENTENCE = `Accepts ${IDEMPOTENCY_RULE}.`;

/** The sentence the Mutation type's description ends with: which mutations take the header. */
export function idempotentMutationsSentence(): string {
  const names = [...IDEMPOTENT_MUTATIONS].map((n) => `\`${n}\``);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  return `${list} accept ${IDEMPOTENCY_RULE}.`;
}
